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
    out.push_back(p);
  }
  return out;
}

VenueStepper::VenueStepper(std::vector<VenueParams> venues, std::optional<VenueDrawKey> draws)
    : venues_(std::move(venues)),
      draws_(draws),
      held_(venues_.size(), 0.0),
      availability_(venues_.size(), 1.0),
      hour_(venues_.size()),
      totals_(venues_.size()) {}

double VenueStepper::step(double rest_gpus, long hour, double on_demand_factor, double spot_factor, HourOutcome& out) {
  const int n = static_cast<int>(venues_.size());
  std::vector<double>& availability = availability_;
  for (int i = 0; i < n; ++i) {
    const double a = venues_[i].availability;
    availability[i] = draws_ ? (venue_draws_capacity(draws_->seed, draws_->path, i, hour, a) ? 1.0 : 0.0) : a;
  }
  std::fill(hour_.begin(), hour_.end(), VenueHour{});
  double left = 0.0;
  // Depth first over the venues' availability: each branch carries its probability; a branch of
  // probability 0 (availability 1 or 0) is not taken, so a sure venue costs one branch.
  auto visit = [&](auto&& self, int i, double rest, double probability) -> void {
    if (i == n || rest <= 0.0) {
      left += probability * rest;
      return;
    }
    const double a = availability[i];
    if (a > 0.0) {
      const VenueTake take = venue_take(venues_[i], rest);
      hour_[i].instances += probability * a * take.instances;
      hour_[i].plan_gpus += probability * a * take.plan_gpus;
      self(self, i + 1, rest - take.plan_gpus, probability * a);
    }
    if (a < 1.0) self(self, i + 1, rest, probability * (1.0 - a));
  };
  visit(visit, 0, rest_gpus, 1.0);

  for (int i = 0; i < n; ++i) {
    const VenueParams& v = venues_[i];
    VenueHour& h = hour_[i];
    const double launched = std::max(0.0, h.instances - held_[i]);
    held_[i] = h.instances;
    h.billed_instance_hours = venue_billed_instance_hours(v, h.instances, launched);
    h.usd = h.billed_instance_hours * v.usd_per_instance_hour * (v.spot ? spot_factor : on_demand_factor);
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
                                       venue_price_factor, out);
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
