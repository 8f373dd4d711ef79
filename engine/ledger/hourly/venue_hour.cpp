#include "engine/ledger/hourly/venue_hour.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/calendar.hpp"
#include "engine/ledger/hourly/backlog_grid.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

namespace {

// The venues with `plan_perf` reference work per plan GPU: the plan's cloud GPU's perf for the
// fleet's overflow, 1 (a plan GPU is a reference GPU) for the API's rate-limited tokens.
std::vector<VenueParams> venue_params_at(const Plan& plan, double plan_perf, double price_multiplier) {
  std::vector<VenueParams> out;
  if (!plan.cloud) return out;
  const CloudSpec& c = *plan.cloud;
  for (const CloudVenue& v : plan.venues) {
    VenueParams p;
    p.plan_perf = plan_perf;
    p.gpus_per_plan_gpu = v.gpu.perf_relative == plan_perf ? 1.0 : plan_perf / v.gpu.perf_relative;
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

}  // namespace

std::vector<VenueParams> venue_params(const Plan& plan, double price_multiplier) {
  return plan.api_bursts_to_venues() ? std::vector<VenueParams>{}
                                     : venue_params_at(plan, plan.cloud ? plan.cloud->gpu.perf_relative : 1.0,
                                                       price_multiplier);
}

std::vector<VenueParams> api_venue_params(const Plan& plan, double price_multiplier) {
  return plan.api_bursts_to_venues() ? venue_params_at(plan, 1.0, price_multiplier) : std::vector<VenueParams>{};
}

VenueStepper::VenueStepper(std::vector<VenueParams> venues, std::optional<VenueDrawKey> draws)
    : venues_(std::move(venues)),
      draws_(draws),
      availability_(venues_.size(), 1.0),
      hour_(venues_.size()),
      hour_expected_(venues_.size()),
      launched_expected_(venues_.size(), 0.0),
      branches_(venues_.size()),
      totals_(venues_.size()),
      path_instances_(venues_.size(), 0.0),
      expected_covered_(venues_.size(), 0.0) {
  for (std::size_t i = 0; i < venues_.size(); ++i)
    if (venues_[i].savings_plan_usd_per_instance_hour > 0.0) covered_venues_.push_back(static_cast<int>(i));
  std::stable_sort(covered_venues_.begin(), covered_venues_.end(),
                   [&](int a, int b) { return venues_[a].savings_plan_order < venues_[b].savings_plan_order; });
  // The hour before the first holds nothing and leaves no backlog.
  State first;
  first.branches.resize(venues_.size());
  if (!covered_venues_.empty()) first.cover_tree.add(covered_venues_, std::vector<double>(venues_.size(), 0.0), 1.0);
  states_.push_back(std::move(first));
}

void VenueStepper::begin_hour(long hour) {
  const int n = static_cast<int>(venues_.size());
  for (int i = 0; i < n; ++i) {
    const double a = venues_[i].availability;
    availability_[i] = draws_ ? (venue_draws_capacity(draws_->seed, draws_->path, i, hour, a) ? 1.0 : 0.0) : a;
  }
  month_ = month_of_hour(hour);
  std::fill(hour_expected_.begin(), hour_expected_.end(), VenueHour{});
  std::fill(launched_expected_.begin(), launched_expected_.end(), 0.0);
  leaves_.clear();
  leaf_instances_.clear();
}

double VenueStepper::step(std::size_t k, double rest_gpus, double on_demand_factor, double spot_factor,
                          double savings_plan_usd, double work_per_plan_gpu, HourOutcome& out) {
  const int n = static_cast<int>(venues_.size());
  const State& state = states_[k];
  state_weight_ = state.probability;
  work_per_plan_gpu_ = work_per_plan_gpu;
  const std::vector<double>& availability = availability_;
  std::fill(hour_.begin(), hour_.end(), VenueHour{});
  for (auto& b : branches_) b.clear();
  cover_tree_.clear();
  double left = 0.0;
  // Depth first over the venues' availability: each branch carries its probability; a branch of
  // probability 0 (availability 1 or 0) is not taken, so a sure venue costs one branch.
  auto visit = [&](auto&& self, int i, double rest, double probability) -> void {
    if (i == n || rest <= 0.0) {
      left += probability * rest;
      for (int j = i; j < n; ++j) path_instances_[j] = 0.0;
      if (!covered_venues_.empty()) add_cover_leaf(i, probability);
      const double leaf_left = rest < 1e-12 ? 0.0 : rest;
      leaves_.push_back({state_weight_ * probability, leaf_left * work_per_plan_gpu_, leaves_.size()});
      leaf_instances_.insert(leaf_instances_.end(), path_instances_.begin(), path_instances_.end());
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
  if (!covered_venues_.empty()) expect_cover(savings_plan_usd, state.cover_tree);

  out.savings_plan_covered_gpus = 0.0;
  out.savings_plan_used_usd = 0.0;
  for (int i = 0; i < n; ++i) {
    const VenueParams& v = venues_[i];
    VenueHour& h = hour_[i];
    const double launched = expected_launched(i, state);
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
    // x 1.0 is exact: one state (always on a path) adds today's figures bit for bit.
    VenueHour& e = hour_expected_[i];
    e.plan_gpus += state_weight_ * h.plan_gpus;
    e.instances += state_weight_ * h.instances;
    e.billed_instance_hours += state_weight_ * h.billed_instance_hours;
    e.usd += state_weight_ * h.usd;
    launched_expected_[i] += state_weight_ * launched;
  }
  return left < 1e-12 ? 0.0 : left;
}

namespace {

// A venue's branches of one state, built leaf by leaf: equal counts merge, in the order the counts
// first came (the sums downstream run in that order, so the bits do not depend on how a count is
// found). A scan while the list is short; past kScanLimit an index by count, since a state merged
// from many leaves gathers hundreds of counts and the scan made end_hour quadratic.
class BranchSums {
 public:
  explicit BranchSums(std::vector<VenueStepper::Branch>& branches) : branches_(branches) {}

  void add(double instances, double probability) {
    if (index_.empty()) {
      for (VenueStepper::Branch& b : branches_)
        if (b.instances == instances) {
          b.probability += probability;
          return;
        }
      branches_.push_back({probability, instances});
      if (branches_.size() == kScanLimit)
        for (std::size_t j = 0; j < branches_.size(); ++j) index_.emplace(branches_[j].instances, j);
      return;
    }
    const auto [at, added] = index_.try_emplace(instances, branches_.size());
    if (added) branches_.push_back({probability, instances});
    else branches_[at->second].probability += probability;
  }

 private:
  static constexpr std::size_t kScanLimit = 32;
  std::vector<VenueStepper::Branch>& branches_;
  std::unordered_map<double, std::size_t> index_;
};

}  // namespace

void VenueStepper::end_hour() {
  const std::size_t n = venues_.size();
  if (totals_by_month_.size() <= static_cast<std::size_t>(month_))
    totals_by_month_.resize(static_cast<std::size_t>(month_) + 1, std::vector<VenueTotals>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const VenueParams& v = venues_[i];
    const VenueHour& e = hour_expected_[i];
    // The horizon's sums and the month's: the same additions of the same figures.
    for (VenueTotals* t : {&totals_[i], &totals_by_month_[static_cast<std::size_t>(month_)][i]}) {
      t->work_gpu_hours += e.plan_gpus * v.plan_perf;
      t->billed_gpu_hours += e.billed_instance_hours * v.gpus_per_instance;
      t->cost_usd += e.usd;
      t->instance_hours += e.instances;
      t->launched_instances += launched_expected_[i];
    }
  }
  // One state whose leaves all leave the same backlog (always on a path, and whenever the last
  // venue takes everything): the next state is this hour's branches and cover tree, as they are.
  const bool one_next = states_.size() == 1 && std::all_of(leaves_.begin(), leaves_.end(), [&](const Leaf& l) {
                          return l.backlog_gpu_hours == leaves_.front().backlog_gpu_hours;
                        });
  if (one_next) {
    State& s = states_.front();
    s.probability = 1.0;
    s.backlog_gpu_hours = leaves_.empty() ? 0.0 : leaves_.front().backlog_gpu_hours;
    std::swap(s.branches, branches_);
    std::swap(s.cover_tree, cover_tree_);
    return;
  }
  // Group the leaves by backlog (equal to 1e-12 relative), merge states below the floor into the
  // nearer neighbour, and past kMaxBacklogStates spread them onto a grid (backlog_grid); each state's
  // branches and cover tree from its leaves (or their shares), given the state.
  std::sort(leaves_.begin(), leaves_.end(), [](const Leaf& a, const Leaf& b) {
    return a.backlog_gpu_hours < b.backlog_gpu_hours || (a.backlog_gpu_hours == b.backlog_gpu_hours && a.index < b.index);
  });
  using Group = BacklogGroup;
  std::vector<Group> groups;
  for (std::size_t j = 0; j < leaves_.size(); ++j) {
    const Leaf& l = leaves_[j];
    if (!groups.empty()) {
      Group& g = groups.back();
      const double at = g.weighted_backlog / g.probability;
      if (std::fabs(l.backlog_gpu_hours - at) <= 1e-12 * std::max(1.0, std::fabs(at))) {
        g.last = j + 1;
        g.probability += l.probability;
        g.weighted_backlog += l.probability * l.backlog_gpu_hours;
        continue;
      }
    }
    groups.push_back({j, j + 1, l.probability, l.probability * l.backlog_gpu_hours});
  }
  // A state below the floor joins its nearer neighbour (one pass: a tiny state carried forward
  // joins the next one).
  const auto backlog_of = [](const Group& g) { return g.weighted_backlog / g.probability; };
  const auto absorb = [](Group& to, const Group& from) {
    to.first = std::min(to.first, from.first);
    to.last = std::max(to.last, from.last);
    to.probability += from.probability;
    to.weighted_backlog += from.weighted_backlog;
  };
  std::vector<Group> kept;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    Group& here = groups[g];
    const bool tiny = here.probability < kBacklogStateFloor && groups.size() > 1;
    if (!tiny) {
      kept.push_back(here);
      continue;
    }
    const bool has_next = g + 1 < groups.size();
    const bool into_previous =
        !kept.empty() && (!has_next || backlog_of(here) - backlog_of(kept.back()) <=
                                           backlog_of(groups[g + 1]) - backlog_of(here));
    if (into_previous) absorb(kept.back(), here);
    else if (has_next) absorb(groups[g + 1], here);
    else kept.push_back(here);
  }
  groups.swap(kept);
  // Each next state: its backlog and the parts of groups it takes (all of one group's leaves
  // below the cap; past it, shares of the groups next to a grid point, backlog_grid).
  const std::vector<GridState> grid = backlog_grid(groups, kMaxBacklogStates);
  next_states_.resize(grid.size());
  std::vector<double> held_scratch;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    State& s = next_states_[k];
    s.probability = 0.0;
    for (const GridState::Part& part : grid[k].parts) s.probability += part.fraction * groups[part.group].probability;
    s.backlog_gpu_hours = grid[k].backlog_gpu_hours;
    if (s.backlog_gpu_hours < 1e-12) s.backlog_gpu_hours = 0.0;
    s.branches.assign(n, {});
    s.cover_tree.clear();
    std::vector<BranchSums> sums(s.branches.begin(), s.branches.end());
    for (const GridState::Part& part : grid[k].parts)
      for (std::size_t j = groups[part.group].first; j < groups[part.group].last; ++j) {
        const Leaf& l = leaves_[j];
        const double given = l.probability * part.fraction / s.probability;
        const double* held = &leaf_instances_[l.index * n];
        for (std::size_t i = 0; i < n; ++i)
          if (held[i] > 0.0) sums[i].add(held[i], given);
        if (!covered_venues_.empty()) {
          held_scratch.assign(held, held + n);
          s.cover_tree.add(covered_venues_, held_scratch, given);
        }
      }
  }
  std::swap(states_, next_states_);
}

// Over the pairs (b this hour, b' the hour before) of venue i's branches, independent given the
// backlog state (each hour draws its own availability), with the mass of holding nothing: 1 - sum
// of the branches'. A sure venue has one branch, so these are max(0, n - n') and
// min(n + new x delay, C / r) to the bit.
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

double VenueStepper::expected_launched(int i, const State& state) const {
  return over_branch_pairs(branches_[i], state.branches[i],
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
void VenueStepper::expect_cover(double savings_plan_usd, const CoverTree& before) {
  std::fill(expected_covered_.begin(), expected_covered_.end(), 0.0);
  expect_cover_below(before, CoverTree::kRoot, CoverTree::kRoot, 0, savings_plan_usd);
}

void VenueStepper::expect_cover_below(const CoverTree& before_tree, int now, int before, std::size_t depth,
                                      double left_usd) {
  const int i = covered_venues_[depth];
  const VenueParams& v = venues_[i];
  for (int a = cover_tree_.node(now).first_child; a >= 0; a = cover_tree_.node(a).next_sibling) {
    const CoverTree::Node& held = cover_tree_.node(a);
    for (int b = before_tree.node(before).first_child; b >= 0; b = before_tree.node(b).next_sibling) {
      const CoverTree::Node& held_before = before_tree.node(b);
      const double launched = held.instances > held_before.instances ? held.instances - held_before.instances : 0.0;
      double left = left_usd;
      const double covered = savings_plan_cover_step(left, v.savings_plan_usd_per_instance_hour,
                                                     venue_billed_instance_hours(v, held.instances, launched));
      expected_covered_[i] += held.probability * held_before.probability * covered;
      if (depth + 1 < covered_venues_.size() && left > 0.0) expect_cover_below(before_tree, a, b, depth + 1, left);
    }
  }
}

// expected += probability x out, figure by figure.
static void accumulate_weighted(HourOutcome& expected, const HourOutcome& out, double probability) {
  static_assert(sizeof(HourOutcome) == 16 * sizeof(double), "a new HourOutcome field: add it here");
  auto add = [&](double HourOutcome::*figure) { expected.*figure += probability * out.*figure; };
  for (double HourOutcome::*figure :
       {&HourOutcome::busy_gpus, &HourOutcome::work_onprem, &HourOutcome::cloud_work, &HourOutcome::reserved_used_gpus,
        &HourOutcome::committed_used_gpus, &HourOutcome::savings_plan_covered_instances,
        &HourOutcome::savings_plan_covered_gpus, &HourOutcome::savings_plan_used_usd,
        &HourOutcome::spot_billed_gpus, &HourOutcome::on_demand_billed_gpus,
        &HourOutcome::spot_usd, &HourOutcome::on_demand_usd, &HourOutcome::it_kw, &HourOutcome::facility_kw,
        &HourOutcome::energy_usd, &HourOutcome::backlog_gpu_hours})
    add(figure);
}

HourOutcome step_venue_hour(const FleetParams& f, const HourInputs& in, long hour, double venue_price_factor,
                            VenueStepper& venues) {
  FleetParams onprem_only = f;
  onprem_only.bursts = 0;
  venues.begin_hour(hour);
  HourOutcome expected;
  const std::size_t states = venues.state_count();
  for (std::size_t k = 0; k < states; ++k) {
    HourOutcome out = step_hour(onprem_only, in, venues.state_backlog(k));
    const double overflow = out.backlog_gpu_hours;
    const double cloud_gpus = overflow / f.perf_cloud;
    out.reserved_used_gpus = cloud_gpus < f.reserved_gpus ? cloud_gpus : f.reserved_gpus;
    const double after_reserved = cloud_gpus - out.reserved_used_gpus;
    // - 0.0 is exact: a plan without commitments keeps every bit.
    out.committed_used_gpus = after_reserved < in.committed_gpus ? after_reserved : in.committed_gpus;
    const double left_gpus = venues.step(k, after_reserved - out.committed_used_gpus, venue_price_factor,
                                         venue_price_factor, in.savings_plan_usd, f.perf_cloud, out);
    out.backlog_gpu_hours = left_gpus * f.perf_cloud;
    out.cloud_work = overflow - out.backlog_gpu_hours;
    if (states == 1) {
      expected = out;
      break;
    }
    accumulate_weighted(expected, out, venues.state_probability(k));
  }
  venues.end_hour();
  return expected;
}

bool venues_change_co2(const Plan& plan) {
  if (!plan.cloud) return false;
  // The API's venues: their billed GPU-hours are on their own offers, always summed venue by venue.
  if (plan.api_bursts_to_venues()) return true;
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

std::vector<VenueFigures> venue_figures(const Plan& plan, const std::vector<VenueTotals>& totals,
                                        const std::vector<std::vector<VenueTotals>>& by_month, int months) {
  std::vector<VenueFigures> out;
  for (std::size_t i = 0; i < plan.venues.size() && i < totals.size(); ++i) {
    out.push_back({plan.venues[i].name, to_string(plan.venues[i].price), totals[i], {}, {}});
    if (by_month.empty()) continue;
    VenueFigures& f = out.back();
    f.billed_gpu_hours_by_month.assign(static_cast<std::size_t>(months), 0.0);
    f.cost_usd_by_month.assign(static_cast<std::size_t>(months), 0.0);
    for (std::size_t m = 0; m < by_month.size() && m < f.cost_usd_by_month.size(); ++m) {
      f.billed_gpu_hours_by_month[m] = by_month[m][i].billed_gpu_hours;
      f.cost_usd_by_month[m] = by_month[m][i].cost_usd;
    }
  }
  return out;
}

}  // namespace tco
