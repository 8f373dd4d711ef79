#include "engine/ledger/plan_evaluator.hpp"

#include <algorithm>
#include <cmath>

#include "engine/ledger/api_booking.hpp"
#include "engine/ledger/commitment_booking.hpp"
#include "engine/ledger/hidden_cost_booking.hpp"
#include "engine/ledger/ownership_costs.hpp"
#include "engine/ledger/hourly/spot_draws.hpp"
#include "models/site/cooling.hpp"

namespace tco {

std::optional<double> cloud_co2_kg(const CloudSpec& cloud, double cloud_gpu_hours) {
  if (!cloud.offer.pue || !cloud.offer.g_co2_per_kwh) return std::nullopt;
  return cloud_gpu_hours * cloud.gpu.tdp_w / 1000.0 * *cloud.offer.pue * *cloud.offer.g_co2_per_kwh / 1000.0;
}

FacilityFigures facility_figures(const OnPremSpec& o, int nodes) {
  FacilityFigures f;
  f.nodes_per_rack = nodes_per_rack(o.cooling.rack_limit_kw, o.server.peak_kw);
  f.racks = racks_for(nodes, f.nodes_per_rack);
  f.rack_peak_kw = std::min(nodes, f.nodes_per_rack) * o.server.peak_kw;
  f.airflow_cfm_per_rack = airflow_cfm(f.rack_peak_kw * 1000.0, o.cooling.delta_t_f);
  f.provisioned_it_kw = nodes * o.server.peak_kw;
  return f;
}

std::vector<SiteHour> site_hours(const OnPremSpec& o, const Calendar& calendar, long hours) {
  std::vector<SiteHour> out(hours);
  const PueParams pue = pue_params(o.cooling);
  const bool throttles = o.ambient && o.ambient->throttle_above_c.has_value();
  for (long h = 0; h < hours; ++h) {
    const double t_c = o.ambient ? ambient_c_at_hour(*o.ambient, h, calendar) : 0.0;
    out[h].pue = pue_at(pue, t_c);
    out[h].usd_per_kwh = tariff_usd_per_kwh(o.power.tariff, h, calendar) *
                         hourly_growth_factor(o.power.escalation_per_year, h);
    out[h].work_rate = o.ambient ? work_rate_at(*o.ambient, t_c, throttles, o.ambient->throttle_above_c.value_or(0.0))
                                 : 1.0;
  }
  return out;
}

ProcurementFigures procurement_figures(const OnPremSpec& o, const OwnershipSummary& own, int horizon_months) {
  ProcurementFigures f;
  f.order_month = o.procurement ? o.procurement->order_month : o.purchase_month;
  f.purchase_month = o.purchase_month;
  f.planned_delivery_month = o.planned_delivery_month();
  f.deposit_usd = own.deposit_usd;
  f.drawn = o.delivery_drawn();
  const auto month = static_cast<double>(own.delivery_month);
  f.delivery_month_mean = f.delivery_month_p5 = f.delivery_month_p50 = f.delivery_month_p95 = month;
  f.share_later_than_planned = own.delivery_month > f.planned_delivery_month ? 1.0 : 0.0;
  f.share_past_horizon = own.delivery_month >= horizon_months ? 1.0 : 0.0;
  return f;
}

FleetParams fleet_params(const Plan& plan, double price_multiplier) {
  FleetParams f;
  f.bursts = plan.bursts() ? 1 : 0;
  if (plan.onprem) {
    const auto& o = *plan.onprem;
    f.gpus_per_node = o.server.gpus;
    f.packing_efficiency = o.packing_efficiency;
    f.idle_kw = o.server.idle_kw;
    f.peak_kw = o.server.peak_kw;
    f.perf_onprem = o.gpu.perf_relative;
  }
  if (plan.cloud) {
    const auto& c = *plan.cloud;
    f.perf_cloud = c.gpu.perf_relative;
    f.gpus_per_instance = c.offer.gpus_per_instance;
    f.reserved_gpus = static_cast<double>(plan.reserved_instances) * c.offer.gpus_per_instance;
    f.spot_share = plan.spot_share;
    f.spot_overhead_factor = c.spot_overhead_factor;
    f.cloud_billed_per_gpu = 1.0 / c.packing_efficiency;
    f.on_demand_usd_per_instance_hour = c.offer.on_demand_usd_per_hour * price_multiplier;
    f.spot_usd_per_instance_hour = c.offer.spot_usd_per_hour.value_or(0.0) * price_multiplier;
    for (const Commitment& k : plan.commitments)
      if (k.kind == Commitment::Kind::savings_plan) f.savings_plan_usd_per_instance_hour = k.usd_per_instance_hour * price_multiplier;
  }
  // A plan that buys tokens sends its overflow past reserved to the API: the step's on-demand
  // instances for it cost nothing there, the API's bill is booked by the evaluator (api_booking.hpp).
  if (plan.uses_api()) f.on_demand_usd_per_instance_hour = f.spot_usd_per_instance_hour = 0.0;
  return f;
}

std::optional<HourlyShift> plan_time_shift(const Scenario& s, const Plan& plan, const std::vector<double>& demand_gpus,
                                           const std::vector<SiteHour>& site) {
  if (!plan.scheduling.time_shift || !s.workload.deferrable || !plan.onprem || plan.onprem_nodes < 1) return std::nullopt;
  const OnPremSpec& o = *plan.onprem;
  HourlyShiftInputs in;
  in.share = s.workload.deferrable->share;
  in.max_delay_h = s.workload.deferrable->max_delay_h;
  in.waiting_usd_per_gpu_hour = s.waiting_usd_per_gpu_hour;
  in.fleet = fleet_params(plan);
  in.nodes = plan.onprem_nodes;
  in.spare_nodes = o.spare_nodes();
  in.nodes_from_hour = std::min<long>(static_cast<long>(o.planned_delivery_month()) * kHoursPerMonth,
                                      static_cast<long>(demand_gpus.size()));
  in.site = site;
  if (o.carbon.usd_per_tonne > 0.0) {
    const HourlySeries* intensity = o.power.g_co2_series.get();
    in.carbon_usd_per_kwh.resize(demand_gpus.size());
    for (std::size_t h = 0; h < demand_gpus.size(); ++h)
      in.carbon_usd_per_kwh[h] =
          (intensity ? intensity->at(static_cast<long>(h)) : o.power.g_co2_per_kwh) / 1e6 * o.carbon.usd_per_tonne;
  }
  in.demand_charge_usd_per_kw_month = o.power.demand_charge_usd_per_kw_month;
  return shift_deferrable_demand(demand_gpus, in, s.horizon_months);
}

PlanResult evaluate_plan(const Scenario& s, const Plan& plan, const std::vector<double>& unshifted_demand_gpus,
                         const EvaluationOptions& options) {
  PlanResult r;
  r.name = plan.name;
  const int months = s.horizon_months;
  const long hours = s.horizon_hours();
  r.ledger = Ledger(months);
  r.peak_facility_kw_by_month.assign(months, 0.0);
  r.gpu_hours_by_month.assign(months, GpuHours{});

  const FleetParams fleet_before = fleet_params(plan, options.cloud_price_multiplier);
  // A refresh inside the horizon swaps the fleet from its month on (engine/ledger/refresh_booking.hpp).
  const long refresh_hour = plan.refresh && plan.onprem_nodes > 0 && plan.refresh->month < months
                                ? static_cast<long>(plan.refresh->month) * kHoursPerMonth
                                : hours;
  const FleetParams fleet_after = plan.refresh ? refreshed_fleet_params(fleet_before, *plan.refresh) : fleet_before;
  const int nodes = plan.onprem ? plan.onprem_nodes : 0;
  const long nodes_from_hour =
      plan.onprem ? std::min<long>(static_cast<long>(plan.onprem->planned_delivery_month()) * kHoursPerMonth, hours)
                  : hours;
  std::vector<SiteHour> site;
  if (plan.onprem) site = site_hours(*plan.onprem, s.calendar, hours);
  std::optional<HourlyShift> shift = plan_time_shift(s, plan, unshifted_demand_gpus, site);
  const std::vector<double>& demand_gpus = shift ? shift->demand_gpus : unshifted_demand_gpus;
  if (shift) {
    for (int m = 0; m < months; ++m)
      if (shift->hold_usd_by_month[m] > 0.0) r.ledger.add(m, Category::waiting, shift->hold_usd_by_month[m], Timing::end_of_month);
    r.gpu_hours.waited += shift->figures.held_gpu_hours;
    r.time_shift = shift->figures;
  }

  // Reserved capacity is paid every hour of its term at the price fixed when the term starts.
  const double reserved_base_usd = plan.reserved_usd_per_instance_hour() * plan.reserved_instances *
                                   options.cloud_price_multiplier;
  const long term_hours = plan.reserved_term_hours();

  // Spot at the expectation of the Monte Carlo's draws (engine/ledger/hourly/spot_draws.hpp): the hour's bill
  // is linear in availability and in the preemption factor.
  const SpotDraws spot = spot_draws(plan);
  const double spot_available = spot.expected_availability;
  const double spot_preemption_factor = spot.expected_preemption_factor();

  const double egress_usd_per_cloud_gpu_hour =
      plan.cloud ? plan.cloud->egress_gb_per_gpu_hour * plan.cloud->egress_usd_per_gb : 0.0;

  std::optional<VenueStepper> venues;
  if (plan.fleet_bursts_to_venues())
    venues.emplace(venue_params(plan, options.cloud_price_multiplier), options.venue_draws);
  const CommitmentHours committed = commitment_hours(plan, hours, options.cloud_price_multiplier);
  CommitmentTracker commitments(plan, hours);
  std::optional<ApiMeter> api;
  if (plan.uses_api()) api.emplace(s, plan, options.cloud_price_multiplier, options.venue_draws);

  std::vector<double> facility_kwh_by_month(months, 0.0);  // for the carbon price
  // With an hourly grid intensity, the grid's CO2 hour by hour (g); a flat one multiplies the kWh.
  const HourlySeries* intensity = plan.onprem ? plan.onprem->power.g_co2_series.get() : nullptr;
  std::vector<double> grid_g_co2_by_month(intensity ? months : 0, 0.0);
  double backlog = 0.0;
  for (long h = 0; h < hours; ++h) {
    const int m = month_of_hour(h);
    const bool refreshed = h >= refresh_hour;
    const FleetParams& fleet = refreshed ? fleet_after : fleet_before;
    HourInputs in;
    in.demand_gpus = demand_gpus[h];
    double growth = 1.0;  // a path's c(h), as the sweep kernel steps it
    if (options.demand_growth_lambda_per_h != 0.0) {
      const double lambda = options.demand_growth_lambda_per_h;
      const long h0 = static_cast<long>(m) * kHoursPerMonth;
      growth = std::exp(lambda * static_cast<double>(h0)) * std::exp(lambda * static_cast<double>(h - h0));
      in.demand_gpus *= growth;
    }
    in.nodes_up = h >= nodes_from_hour ? (refreshed ? plan.refresh->nodes : nodes) : 0.0;
    if (in.nodes_up > 0.0) {
      in.idle_nodes = plan.onprem->spare_nodes();
      if (!options.nodes_down_by_hour.empty()) in.nodes_up -= options.nodes_down_by_hour[h];
    }
    if (plan.onprem) {
      in.work_rate = site[h].work_rate;
      in.pue = site[h].pue;
      in.usd_per_kwh = site[h].usd_per_kwh;
    }
    if (plan.cloud) {
      in.cloud_price_factor = plan.cloud->on_demand_factor(h);
      const CloudPriceSchedules& sched = plan.cloud->price_schedules;
      in.spot_price_factor = sched.on_demand || sched.spot ? plan.cloud->spot_factor(h) : in.cloud_price_factor;
    }
    in.spot_available = spot_available;
    in.spot_preemption_factor = spot_preemption_factor;
    if (!commitments.empty()) {
      in.committed_gpus = committed.committed_gpus[h];
      in.savings_plan_usd = committed.savings_plan_usd[h];
    }
    // A plan with venues: its venues' prices follow price_change_per_year (the offer's schedules price its reserved).
    const HourOutcome out =
        venues ? step_venue_hour(fleet, in, h, hourly_growth_factor(plan.cloud->price_change_per_year, h), *venues)
               : step_hour(fleet, in, backlog);
    backlog = out.backlog_gpu_hours;
    if (!commitments.empty()) commitments.add_hour(h, out);

    // With an API, the cloud's work is the reserved instances' alone; the API takes the rest.
    const double cloud_work = api ? (out.reserved_used_gpus + out.committed_used_gpus) * fleet.perf_cloud : out.cloud_work;
    const ApiHour api_hour = api ? api->add_hour(h, m, out.work_onprem + cloud_work, r.ledger, growth) : ApiHour{};

    // The hour's GPU-hours, added to the horizon's and to its month's (0 + x = x: the horizon's sums
    // are the same additions as before the monthly ones).
    GpuHours g;
    g.onprem_busy = out.busy_gpus;
    g.onprem_capacity = in.nodes_up * fleet.gpus_per_node;
    g.reserved_used = out.reserved_used_gpus;
    g.reserved_paid = fleet.reserved_gpus;
    if (!api) {
      g.spot_billed = out.spot_billed_gpus;
      g.on_demand_billed = out.on_demand_billed_gpus;
    } else {  // the venues of the API's rate-limited tokens (0 without them)
      g.spot_billed = api_hour.spot_billed_gpus;
      g.on_demand_billed = api_hour.on_demand_billed_gpus;
    }
    g.cloud_work = cloud_work + api_hour.venue_work;
    g.useful = out.work_onprem + cloud_work + api_hour.api_work + api_hour.venue_work;
    g.waited = out.backlog_gpu_hours;
    g.api_work = api_hour.api_work;
    r.gpu_hours += g;
    r.gpu_hours_by_month[m] += g;
    if (in.work_rate < 1.0 && in.nodes_up > 0.0) ++r.throttled_hours;

    if (out.on_demand_usd > 0.0) r.ledger.add(m, Category::cloud_on_demand, out.on_demand_usd, Timing::end_of_month);
    if (out.spot_usd > 0.0) r.ledger.add(m, Category::cloud_spot, out.spot_usd, Timing::end_of_month);
    if (reserved_base_usd > 0.0) {
      const long term_start = (h / term_hours) * term_hours;
      r.ledger.add(m, Category::cloud_reserved, reserved_base_usd * plan.cloud->reserved_factor(term_start),
                   Timing::end_of_month);
    }
    if (egress_usd_per_cloud_gpu_hour > 0.0 && cloud_work > 0.0)
      r.ledger.add(m, Category::egress, cloud_work / fleet.perf_cloud * egress_usd_per_cloud_gpu_hour,
                   Timing::end_of_month);
    if (s.waiting_usd_per_gpu_hour > 0.0 && out.backlog_gpu_hours > 0.0)
      r.ledger.add(m, Category::waiting, out.backlog_gpu_hours * s.waiting_usd_per_gpu_hour, Timing::end_of_month);
    if (out.energy_usd > 0.0) r.ledger.add(m, Category::energy, out.energy_usd, Timing::end_of_month);
    r.it_energy_kwh += out.it_kw;
    r.facility_energy_kwh += out.facility_kw;
    facility_kwh_by_month[m] += out.facility_kw;
    if (intensity) grid_g_co2_by_month[m] += out.facility_kw * intensity->at(h);
    r.peak_facility_kw_by_month[m] = std::max(r.peak_facility_kw_by_month[m], out.facility_kw);
  }
  r.gpu_hours.unserved = backlog;
  r.facility_energy_kwh_by_month = facility_kwh_by_month;
  if (api) r.api = api->figures();
  const std::vector<VenueTotals> venue_totals = venues ? venues->totals() : api ? api->venue_totals()
                                                                                  : std::vector<VenueTotals>{};
  if (!venue_totals.empty())
    r.venues = venue_figures(plan, venue_totals, venues ? venues->totals_by_month() : api->venue_totals_by_month(), months);
  if (!commitments.empty())
    r.commitments = commitments.book(r.ledger, s.discount_rate_per_year, options.cloud_price_multiplier);
  book_hidden_costs(plan, r.ledger);

  if (plan.cloud)
    r.co2_cloud_kg = venues_change_co2(plan)
                         ? venue_plan_co2_kg(plan, r.gpu_hours.reserved_used + commitments.used_gpu_hours(),
                                             venue_totals)
                         : cloud_co2_kg(*plan.cloud, r.gpu_hours.on_demand_billed + r.gpu_hours.spot_billed +
                                                         r.gpu_hours.reserved_used + commitments.used_gpu_hours());

  if (plan.onprem && nodes > 0) {
    const auto& o = *plan.onprem;
    r.facility = facility_figures(o, owned_nodes(plan));
    OwnershipSummary own;
    if (plan.refresh) {
      RefreshFigures figures;
      own = book_refreshed_ownership(plan, r.facility.racks, months, r.ledger, figures);
      r.refresh = figures;
    } else {
      const OwnershipTerms fleet{owned_nodes(plan), static_cast<double>(r.facility.racks), 1.0, std::nullopt,
                                 std::nullopt};
      own = book_ownership_costs(o, fleet, months, r.ledger);
    }
    r.depreciation_usd_by_month = own.depreciation_usd_by_month;
    r.depreciation_total_usd = own.depreciation_total_usd;
    r.depreciation_views = opted_in_views(o, own);
    if (o.procurement) r.procurement = procurement_figures(o, own, months);
    if (o.power.demand_charge_usd_per_kw_month > 0.0) {
      for (int m = 0; m < months; ++m) {
        r.ledger.add(m, Category::energy,
                     o.power.demand_charge_usd_per_kw_month * r.peak_facility_kw_by_month[m] *
                         monthly_growth_factor(o.power.escalation_per_year, m),
                     Timing::end_of_month);
      }
    }
    // The grid's grams of month m: its facility kWh x the flat intensity, or the hours' sum.
    const auto grid_g_co2 = [&](int m) {
      return intensity ? grid_g_co2_by_month[m] : facility_kwh_by_month[m] * o.power.g_co2_per_kwh;
    };
    if (intensity) {
      double grams = 0.0;
      for (int m = 0; m < months; ++m) grams += grid_g_co2_by_month[m];
      r.co2_onprem_kg = grams / 1000.0;
    } else {
      r.co2_onprem_kg = r.facility_energy_kwh * o.power.g_co2_per_kwh / 1000.0;
    }
    r.co2_embodied_kg = own.embodied_co2_kg;
    if (o.carbon.usd_per_tonne > 0.0)
      for (int m = 0; m < months; ++m)
        if (facility_kwh_by_month[m] > 0.0)
          r.ledger.add(m, Category::carbon, grid_g_co2(m) / 1e6 * o.carbon.usd_per_tonne, Timing::end_of_month);
    if (r.gpu_hours.onprem_capacity > 0.0) r.onprem_utilization = r.gpu_hours.onprem_busy / r.gpu_hours.onprem_capacity;
  } else {
    r.depreciation_usd_by_month.assign(months, 0.0);
  }
  r.peak_facility_kw = *std::max_element(r.peak_facility_kw_by_month.begin(), r.peak_facility_kw_by_month.end());

  r.total_usd = r.ledger.total_usd();
  r.npv_usd = r.ledger.npv_usd(s.discount_rate_per_year);
  // n/a when nothing useful was served, or so little (1e-320 GPUs) that the ratio overflows.
  if (const double x = r.total_usd / r.gpu_hours.useful; r.gpu_hours.useful > 0.0 && std::isfinite(x))
    r.usd_per_useful_gpu_hour = x;
  return r;
}

}  // namespace tco
