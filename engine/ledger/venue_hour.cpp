#include "engine/ledger/venue_hour.hpp"

#include <algorithm>

#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

std::vector<VenueParams> venue_params(const Plan& plan, double price_multiplier) {
  std::vector<VenueParams> out;
  if (!plan.cloud) return out;
  const CloudSpec& c = *plan.cloud;
  for (const CloudVenue& v : plan.venues) {
    VenueParams p;
    p.plan_perf = c.gpu.perf_relative;
    p.gpus_per_plan_gpu = v.gpu.perf_relative == c.gpu.perf_relative ? 1.0 : c.gpu.perf_relative / v.gpu.perf_relative;
    p.gpus_per_instance = v.offer.gpus_per_instance;
    p.cloud_billed_per_gpu = 1.0 / c.packing_efficiency;
    p.max_instances = v.quota_instances().value_or(-1.0);
    p.availability = v.availability;
    p.usd_per_instance_hour = v.usd_per_instance_hour() * price_multiplier;
    p.spot = v.price == CloudVenue::PriceKind::spot ? 1 : 0;
    p.billed_per_instance_hour = p.spot ? c.spot_overhead_factor : 1.0;
    p.provisioning_delay_h = v.provisioning_delay_h;
    for (const Commitment& k : plan.commitments)
      if (const SavingsPlanVenueTerms terms = savings_plan_terms_at(k, v.name); terms.order >= 0) {
        p.savings_plan_usd_per_instance_hour = terms.usd_per_instance_hour * price_multiplier;
        p.savings_plan_order = terms.order;
      }
    out.push_back(p);
  }
  return out;
}

VenueStepper::VenueStepper(std::vector<VenueParams> venues, std::optional<VenueDrawKey> draws)
    : venues_(std::move(venues)),
      draws_(draws),
      availability_(venues_.size(), 1.0),
      hour_(venues_.size()),
      branches_(venues_.size()),
      previous_branches_(venues_.size()),
      totals_(venues_.size()),
      path_instances_(venues_.size(), 0.0),
      expected_covered_(venues_.size(), 0.0) {
  for (std::size_t i = 0; i < venues_.size(); ++i)
    if (venues_[i].savings_plan_usd_per_instance_hour > 0.0) covered_venues_.push_back(static_cast<int>(i));
  std::stable_sort(covered_venues_.begin(), covered_venues_.end(),
                   [&](int a, int b) { return venues_[a].savings_plan_order < venues_[b].savings_plan_order; });
  // The hour before the first holds nothing.
  if (!covered_venues_.empty()) cover_tree_.add(covered_venues_, std::vector<double>(venues_.size(), 0.0), 1.0);
}

double VenueStepper::step(double rest_gpus, long hour, double on_demand_factor, double spot_factor,
                          double savings_plan_usd, HourOutcome& out) {
  const int n = static_cast<int>(venues_.size());
  std::vector<double>& availability = availability_;
  for (int i = 0; i < n; ++i) {
    const double a = venues_[i].availability;
    availability[i] = draws_ ? (venue_draws_capacity(draws_->seed, draws_->path, i, hour, a) ? 1.0 : 0.0) : a;
  }
  std::fill(hour_.begin(), hour_.end(), VenueHour{});
  std::swap(branches_, previous_branches_);
  for (auto& b : branches_) b.clear();
  std::swap(cover_tree_, previous_cover_tree_);
  cover_tree_.clear();
  double left = 0.0;
  // Depth first over the venues' availability: each branch carries its probability; a branch of
  // probability 0 (availability 1 or 0) is not taken, so a sure venue costs one branch.
  auto visit = [&](auto&& self, int i, double rest, double probability) -> void {
    if (i == n || rest <= 0.0) {
      left += probability * rest;
      if (!covered_venues_.empty()) add_cover_leaf(i, probability);
      return;
    }
    const double a = availability[i];
    if (a > 0.0) {
      const VenueTake take = venue_take(venues_[i], rest);
      hour_[i].instances += probability * a * take.instances;
      hour_[i].plan_gpus += probability * a * take.plan_gpus;
      if (take.instances > 0.0) branches_[i].push_back({probability * a, take.instances});
      path_instances_[i] = take.instances;
      self(self, i + 1, rest - take.plan_gpus, probability * a);
    }
    path_instances_[i] = 0.0;
    if (a < 1.0) self(self, i + 1, rest, probability * (1.0 - a));
  };
  visit(visit, 0, rest_gpus, 1.0);
  if (!covered_venues_.empty()) expect_cover(savings_plan_usd);

  out.savings_plan_covered_gpus = 0.0;
  out.savings_plan_used_usd = 0.0;
  for (int i = 0; i < n; ++i) {
    const VenueParams& v = venues_[i];
    VenueHour& h = hour_[i];
    const double launched = expected_launched(i);
    h.billed_instance_hours = venue_billed_instance_hours(v, h.instances, launched);
    // - 0.0 is exact: a venue the savings plan does not cover keeps every bit.
    const double covered = expected_covered_[i];
    if (covered > 0.0) {
      out.savings_plan_covered_gpus += covered * v.gpus_per_instance;
      out.savings_plan_used_usd += covered * v.savings_plan_usd_per_instance_hour;
    }
    if (v.savings_plan_order == 0) out.savings_plan_covered_instances = covered;
    h.usd = (h.billed_instance_hours - covered) * v.usd_per_instance_hour * (v.spot ? spot_factor : on_demand_factor);
    const double billed_gpus = h.billed_instance_hours * v.gpus_per_instance;
    if (v.spot) {
      out.spot_billed_gpus += billed_gpus;
      out.spot_usd += h.usd;
    } else {
      out.on_demand_billed_gpus += billed_gpus;
      out.on_demand_usd += h.usd;
    }
    VenueTotals& t = totals_[i];
    t.work_gpu_hours += h.plan_gpus * v.plan_perf;
    t.billed_gpu_hours += billed_gpus;
    t.cost_usd += h.usd;
    t.instance_hours += h.instances;
    t.launched_instances += launched;
  }
  return left < 1e-12 ? 0.0 : left;
}

// Over the pairs (b this hour, b' the hour before) of venue i's branches, independent (each hour
// draws its own availability), with the mass of holding nothing: 1 - sum of the branches'. A sure
// venue has one branch, so these are max(0, n - n') and min(n + new x delay, C / r) to the bit.
template <class Value>
static double over_branch_pairs(const std::vector<VenueStepper::Branch>& now,
                                const std::vector<VenueStepper::Branch>& before, Value value) {
  double before_mass = 0.0;
  for (const VenueStepper::Branch& b : before) before_mass += b.probability;
  double sum = 0.0;
  for (const VenueStepper::Branch& b : now) {
    double given_b = (1.0 - before_mass) * value(b.instances, 0.0);
    for (const VenueStepper::Branch& p : before) given_b += p.probability * value(b.instances, p.instances);
    sum += b.probability * given_b;
  }
  return sum;
}

double VenueStepper::expected_launched(int i) const {
  return over_branch_pairs(branches_[i], previous_branches_[i],
                           [](double n, double before) { return n > before ? n - before : 0.0; });
}

void VenueStepper::add_cover_leaf(int depth, double probability) {
  // The venues past `depth` hold nothing in this combination.
  for (std::size_t j = static_cast<std::size_t>(depth); j < path_instances_.size(); ++j) path_instances_[j] = 0.0;
  cover_tree_.add(covered_venues_, path_instances_, probability);
}

// E[covered_i] = sum over this hour's and the last hour's combinations b, b' of P(b) P(b') x
// covered_i(b, b'), and covered_i depends on the covered venues down to i alone: the sum runs over
// pairs of tree nodes at i's depth, each weighing the probabilities below them. Once the hour's
// commitment is spent the venues after cover nothing, and their pairs are not visited.
void VenueStepper::expect_cover(double savings_plan_usd) {
  std::fill(expected_covered_.begin(), expected_covered_.end(), 0.0);
  expect_cover_below(CoverTree::kRoot, CoverTree::kRoot, 0, savings_plan_usd);
}

void VenueStepper::expect_cover_below(int now, int before, std::size_t depth, double left_usd) {
  const int i = covered_venues_[depth];
  const VenueParams& v = venues_[i];
  for (int a = cover_tree_.node(now).first_child; a >= 0; a = cover_tree_.node(a).next_sibling) {
    const CoverTree::Node& held = cover_tree_.node(a);
    for (int b = previous_cover_tree_.node(before).first_child; b >= 0; b = previous_cover_tree_.node(b).next_sibling) {
      const CoverTree::Node& held_before = previous_cover_tree_.node(b);
      const double launched = held.instances > held_before.instances ? held.instances - held_before.instances : 0.0;
      double left = left_usd;
      const double covered = savings_plan_cover_step(left, v.savings_plan_usd_per_instance_hour,
                                                     venue_billed_instance_hours(v, held.instances, launched));
      expected_covered_[i] += held.probability * held_before.probability * covered;
      if (depth + 1 < covered_venues_.size() && left > 0.0) expect_cover_below(a, b, depth + 1, left);
    }
  }
}

HourOutcome step_venue_hour(const FleetParams& f, const HourInputs& in, double backlog_gpu_hours, long hour,
                            double venue_price_factor, VenueStepper& venues) {
  FleetParams onprem_only = f;
  onprem_only.bursts = 0;
  HourOutcome out = step_hour(onprem_only, in, backlog_gpu_hours);
  const double overflow = out.backlog_gpu_hours;
  const double cloud_gpus = overflow / f.perf_cloud;
  out.reserved_used_gpus = cloud_gpus < f.reserved_gpus ? cloud_gpus : f.reserved_gpus;
  const double after_reserved = cloud_gpus - out.reserved_used_gpus;
  // - 0.0 is exact: a plan without commitments keeps every bit.
  out.committed_used_gpus = after_reserved < in.committed_gpus ? after_reserved : in.committed_gpus;
  const double left_gpus = venues.step(after_reserved - out.committed_used_gpus, hour, venue_price_factor,
                                       venue_price_factor, in.savings_plan_usd, out);
  out.backlog_gpu_hours = left_gpus * f.perf_cloud;
  out.cloud_work = overflow - out.backlog_gpu_hours;
  return out;
}

bool venues_change_co2(const Plan& plan) {
  if (!plan.cloud) return false;
  const CloudSpec& c = *plan.cloud;
  return std::any_of(plan.venues.begin(), plan.venues.end(), [&](const CloudVenue& v) {
    return v.gpu.tdp_w != c.gpu.tdp_w || v.offer.pue != c.offer.pue || v.offer.g_co2_per_kwh != c.offer.g_co2_per_kwh;
  });
}

std::optional<double> venue_plan_co2_kg(const Plan& plan, double reserved_gpu_hours,
                                        const std::vector<VenueTotals>& totals) {
  std::optional<double> kg = reserved_gpu_hours > 0.0 ? cloud_co2_kg(*plan.cloud, reserved_gpu_hours) : 0.0;
  for (std::size_t i = 0; i < plan.venues.size() && kg; ++i) {
    CloudSpec venue_cloud;
    venue_cloud.offer = plan.venues[i].offer;
    venue_cloud.gpu = plan.venues[i].gpu;
    const std::optional<double> v = cloud_co2_kg(venue_cloud, totals[i].billed_gpu_hours);
    kg = v ? std::optional<double>(*kg + *v) : std::nullopt;
  }
  return kg;
}

std::vector<VenueFigures> venue_figures(const Plan& plan, const std::vector<VenueTotals>& totals) {
  std::vector<VenueFigures> out;
  for (std::size_t i = 0; i < plan.venues.size() && i < totals.size(); ++i)
    out.push_back({plan.venues[i].name, to_string(plan.venues[i].price), totals[i]});
  return out;
}

}  // namespace tco
