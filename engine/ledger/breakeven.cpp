#include "engine/ledger/breakeven.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

#include <boost/math/tools/roots.hpp>

#include "engine/ledger/ownership_costs.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

namespace {

struct EnergyPv {
  double idle_usd = 0.0;
  double dynamic_per_u_usd = 0.0;
};

// PV of one node's energy over `months`, split into the part drawn at idle and the part
// per unit of utilization. The demand charge is linear in u too: the month's peak facility
// kW is (idle + u (peak - idle)) x the month's highest PUE.
EnergyPv node_energy_pv(const OnPremSpec& o, const Calendar& calendar, int months, double rate_per_year) {
  EnergyPv pv;
  const auto site = site_hours(o, calendar, static_cast<long>(months) * kHoursPerMonth);
  const double dynamic_kw = o.server.peak_kw - o.server.idle_kw;
  for (int m = 0; m < months; ++m) {
    const double discount = discount_end_of_month(rate_per_year, m);
    double kwh_price_pue = 0.0, max_pue = 0.0;
    for (long h = static_cast<long>(m) * kHoursPerMonth; h < static_cast<long>(m + 1) * kHoursPerMonth; ++h) {
      kwh_price_pue += site[h].pue * site[h].usd_per_kwh;
      max_pue = std::max(max_pue, site[h].pue);
    }
    const double demand_charge_per_kw =
        o.power.demand_charge_usd_per_kw_month * max_pue * monthly_growth_factor(o.power.escalation_per_year, m);
    pv.idle_usd += (o.server.idle_kw * kwh_price_pue + o.server.idle_kw * demand_charge_per_kw) * discount;
    pv.dynamic_per_u_usd += (dynamic_kw * kwh_price_pue + dynamic_kw * demand_charge_per_kw) * discount;
  }
  return pv;
}

// PV of renting G GPUs every hour for `months` at `usd_per_gpu_hour`; on-demand and spot
// prices change by the hour, a reserved price is fixed for each term.
double cloud_pv_per_u(double gpus, double usd_per_gpu_hour, double price_change_per_year, long fixed_term_hours,
                      int months, double rate_per_year) {
  double pv = 0.0;
  for (int m = 0; m < months; ++m) {
    double month_usd = 0.0;
    for (long h = static_cast<long>(m) * kHoursPerMonth; h < static_cast<long>(m + 1) * kHoursPerMonth; ++h) {
      const long priced_at = fixed_term_hours > 0 ? (h / fixed_term_hours) * fixed_term_hours : h;
      month_usd += gpus * usd_per_gpu_hour * hourly_growth_factor(price_change_per_year, priced_at);
    }
    pv += month_usd * discount_end_of_month(rate_per_year, m);
  }
  return pv;
}

}  // namespace

std::vector<UtilizationBreakeven> utilization_breakevens(const Scenario& s, const Plan& plan,
                                                         const CloudSpec& cloud) {
  std::vector<UtilizationBreakeven> out;
  if (!plan.onprem) return out;
  OnPremSpec o = *plan.onprem;
  o.purchase_month = 0;
  const int life_months = static_cast<int>(std::lround(o.life_years * 12.0));
  const double r = s.discount_rate_per_year;

  const FacilityFigures layout = facility_figures(o, 1);
  Ledger ownership(life_months);
  book_ownership_costs(o, {1, 1.0 / layout.nodes_per_rack, false, false}, life_months, ownership);
  const EnergyPv energy = node_energy_pv(o, s.calendar, life_months, r);
  const double pv_fixed = ownership.npv_usd(r) + energy.idle_usd;

  struct Basis {
    const char* name;
    std::optional<double> usd_per_instance_hour;
    long fixed_term_hours;
  };
  const auto& offer = cloud.offer;
  // The cloud GPUs that do the work of G busy on-prem GPUs (the ledger sends work / perf_cloud
  // GPUs to the cloud), so that u* is the ledger's breakeven when the GPU models differ too.
  const double cloud_gpus_per_u = o.server.gpus * o.gpu.perf_relative / cloud.gpu.perf_relative;
  const Basis bases[] = {{"on_demand", offer.on_demand_usd_per_hour, 0},
                         {"spot", offer.spot_usd_per_hour, 0},
                         {"reserved_1y", offer.reserved_1y_usd_per_hour, kHoursPerYear},
                         {"reserved_3y", offer.reserved_3y_usd_per_hour, 3L * kHoursPerYear}};
  for (const auto& basis : bases) {
    if (!basis.usd_per_instance_hour) continue;
    UtilizationBreakeven b;
    b.server_id = o.server.provenance.id;
    b.plan = plan.name;
    b.price_basis = basis.name;
    b.life_months = life_months;
    b.cloud_usd_per_gpu_hour = *basis.usd_per_instance_hour / offer.gpus_per_instance;
    b.pv_fixed_usd = pv_fixed;
    b.pv_dynamic_energy_per_u_usd = energy.dynamic_per_u_usd;
    b.pv_cloud_per_u_usd = cloud_pv_per_u(cloud_gpus_per_u, b.cloud_usd_per_gpu_hour, cloud.price_change_per_year,
                                          basis.fixed_term_hours, life_months, r);
    const double margin = b.pv_cloud_per_u_usd - b.pv_dynamic_energy_per_u_usd;
    if (margin > 0.0) {
      const double u = pv_fixed / margin;
      if (u <= 1.0) {
        b.utilization = u;
        b.gpu_hours_per_month = u * o.server.gpus * kHoursPerMonth;
      }
    }
    out.push_back(b);
  }
  return out;
}

PriceBreakeven price_breakeven(const Scenario& s, const Plan& plan, const Plan& baseline,
                               const std::vector<double>& demand_gpus) {
  PriceBreakeven out{plan.name, baseline.name, std::nullopt};
  if (&plan == &baseline) return out;
  auto gap = [&](double k) {
    EvaluationOptions options;
    options.cloud_price_multiplier = k;
    return evaluate_plan(s, plan, demand_gpus, options).npv_usd - evaluate_plan(s, baseline, demand_gpus, options).npv_usd;
  };
  // k = 0 is excluded: two cloud plans cost the same there trivially (nothing is paid for the
  // cloud), which is no breakeven a reader can act on.
  const double lo = 1e-9, hi = 1000.0;
  const double f_lo = gap(lo), f_hi = gap(hi);
  if ((f_lo < 0.0) == (f_hi < 0.0) || f_lo == 0.0 || f_hi == 0.0) return out;
  std::uintmax_t iterations = 100;
  const auto [a, b] = boost::math::tools::toms748_solve(gap, lo, hi, f_lo, f_hi,
                                                       boost::math::tools::eps_tolerance<double>(40), iterations);
  out.cloud_price_multiplier = 0.5 * (a + b);
  return out;
}

std::vector<UtilizationBreakeven> scenario_utilization_breakevens(const Scenario& s) {
  const CloudSpec* cloud = nullptr;
  if (const Plan& base = s.plans[s.baseline_index]; base.cloud) cloud = &*base.cloud;
  for (std::size_t i = 0; !cloud && i < s.plans.size(); ++i)
    if (s.plans[i].cloud) cloud = &*s.plans[i].cloud;
  std::vector<UtilizationBreakeven> out;
  if (!cloud) return out;
  std::set<std::string> servers_done;
  for (const auto& plan : s.plans) {
    if (!plan.onprem || !servers_done.insert(plan.onprem->server.provenance.id).second) continue;
    const auto b = utilization_breakevens(s, plan, *cloud);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

}  // namespace tco
