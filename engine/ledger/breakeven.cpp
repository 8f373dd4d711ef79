#include "engine/ledger/breakeven.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/math/tools/roots.hpp>

#include "engine/ledger/hidden_cost_booking.hpp"
#include "engine/ledger/ownership_costs.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

namespace {

// PV of one node's energy over `months` as a function of its utilization u (work done over the
// work of G GPUs at full speed). A throttled hour needs 1 / s as many busy GPUs for the same
// work (SPEC §12.9), so the hour draws idle + u dynamic / s kW, x PUE. The kWh part is linear
// in u; the demand charge is on the month's peak, max over its hours of (idle + u dynamic / s)
// PUE, which is convex in u: its hour can move when the throttled hours are not those of the
// highest PUE.
class NodeEnergyPv {
 public:
  NodeEnergyPv(const OnPremSpec& o, const Calendar& calendar, int months, double rate_per_year) {
    const auto site = site_hours(o, calendar, static_cast<long>(months) * kHoursPerMonth);
    const double dynamic_kw = o.server.peak_kw - o.server.idle_kw;
    for (int m = 0; m < months; ++m) {
      const double discount = discount_end_of_month(rate_per_year, m);
      double idle_usd = 0.0, dynamic_usd = 0.0;
      const long h0 = static_cast<long>(m) * kHoursPerMonth;
      for (long h = h0; h < h0 + kHoursPerMonth; ++h) {
        idle_usd += o.server.idle_kw * site[h].pue * site[h].usd_per_kwh;
        dynamic_usd += dynamic_kw / site[h].work_rate * site[h].pue * site[h].usd_per_kwh;
      }
      idle_kwh_usd_ += idle_usd * discount;
      dynamic_kwh_per_u_usd_ += dynamic_usd * discount;
      if (o.power.demand_charge_usd_per_kw_month <= 0.0) continue;
      MonthPeak peak;
      peak.usd_per_kw = o.power.demand_charge_usd_per_kw_month *
                        monthly_growth_factor(o.power.escalation_per_year, m) * discount;
      for (long h = h0; h < h0 + kHoursPerMonth; ++h)
        peak.kw_lines.push_back({o.server.idle_kw * site[h].pue, dynamic_kw / site[h].work_rate * site[h].pue});
      peaks_.push_back(std::move(peak));
    }
  }

  double usd(double u) const {
    double total = idle_kwh_usd_ + u * dynamic_kwh_per_u_usd_;
    for (const MonthPeak& peak : peaks_) {
      double kw = 0.0;
      for (const auto& [at_zero, per_u] : peak.kw_lines) kw = std::max(kw, at_zero + u * per_u);
      total += peak.usd_per_kw * kw;
    }
    return total;
  }

  // True when the PV is linear in u on [0, 1]: every month's peak is in the same hour at u = 0
  // and u = 1 (the maximum of lines is convex, so it is then that hour's line in between).
  bool linear() const {
    for (const MonthPeak& peak : peaks_) {
      std::size_t at_zero = 0, at_one = 0;
      for (std::size_t i = 1; i < peak.kw_lines.size(); ++i) {
        const auto& [a, b] = peak.kw_lines[i];
        if (a > peak.kw_lines[at_zero].first) at_zero = i;
        if (a + b > peak.kw_lines[at_one].first + peak.kw_lines[at_one].second) at_one = i;
      }
      const auto& [a0, b0] = peak.kw_lines[at_zero];
      const auto& [a1, b1] = peak.kw_lines[at_one];
      if (a0 + b0 != a1 + b1) return false;
    }
    return true;
  }

 private:
  struct MonthPeak {
    double usd_per_kw = 0.0;                         // discounted demand charge
    std::vector<std::pair<double, double>> kw_lines;  // facility kW of each hour: at u = 0, per u
  };
  double idle_kwh_usd_ = 0.0;
  double dynamic_kwh_per_u_usd_ = 0.0;
  std::vector<MonthPeak> peaks_;
};

// PV of renting G GPUs every hour for `months` at `usd_per_gpu_hour`; on-demand and spot
// prices change by the hour (at the constant rate or on their schedule), a reserved price is
// fixed for each term.
double cloud_pv_per_u(double gpus, double usd_per_gpu_hour, const std::optional<PriceSchedule>& schedule,
                      double price_change_per_year, long fixed_term_hours, int months, double rate_per_year) {
  double pv = 0.0;
  for (int m = 0; m < months; ++m) {
    double month_usd = 0.0;
    for (long h = static_cast<long>(m) * kHoursPerMonth; h < static_cast<long>(m + 1) * kHoursPerMonth; ++h) {
      const long priced_at = fixed_term_hours > 0 ? (h / fixed_term_hours) * fixed_term_hours : h;
      month_usd += gpus * usd_per_gpu_hour * price_factor(schedule, price_change_per_year, priced_at);
    }
    pv += month_usd * discount_end_of_month(rate_per_year, m);
  }
  return pv;
}

// One price basis of the reference offer, priced over `months`.
struct PricedBasis {
  std::string name;
  double usd_per_gpu_hour = 0.0;
  double start_usd_per_gpu_hour = 0.0;
  BreakevenOverMonths figures;
};

// One node of `plan`'s fleet bought at month 0 and kept `months` (sold at the end of month
// months - 1 when the residual is on), against each price basis the offer has.
std::vector<PricedBasis> priced_bases(const Scenario& s, const Plan& plan, const CloudSpec& cloud, int months) {
  std::vector<PricedBasis> out;
  OnPremSpec o = *plan.onprem;
  o.purchase_month = 0;
  o.procurement.reset();  // one node over its life from its delivery: no deposit, no slip
  o.resale_step = {};     // today's market, as the cloud side's prices below (docs/model.md "Next generation")
  const double r = s.discount_rate_per_year;

  // One node's share of the plan's fleet: its own costs, 1 / N of the fixed staff and room
  // capex, and 1 / N of the racks the plan pays for. With N = 1 this is the single-node ledger.
  const int fleet_nodes = std::max(plan.onprem_nodes, 1);
  const FacilityFigures layout = facility_figures(o, fleet_nodes);
  Ledger ownership(months);
  const OwnershipTerms one_node{1, static_cast<double>(layout.racks) / fleet_nodes, 1.0 / fleet_nodes, std::nullopt,
                                std::nullopt};
  book_ownership_costs(o, one_node, months, ownership);
  const NodeEnergyPv energy(o, s.calendar, months, r);
  const double pv_idle_energy_usd = energy.usd(0.0);
  const double pv_fixed = ownership.npv_usd(r) + pv_idle_energy_usd;
  const bool energy_linear = energy.linear();

  struct Basis {
    std::string name;
    std::optional<double> usd_per_instance_hour;
    long fixed_term_hours;
    const std::optional<PriceSchedule>& schedule;
  };
  const auto& offer = cloud.offer;
  // The cloud GPUs that do the work of G busy on-prem GPUs (the ledger sends work / perf_cloud
  // GPUs to the cloud), so that u* is the ledger's breakeven when the GPU models differ too.
  // The GPU bill's hidden uplifts ((1 + support) / goodput) price each of them; the fixed hidden costs
  // (storage, network, ...) are the rented cluster's whether a node is owned or not, and cancel.
  const double cloud_gpus_per_u =
      o.server.gpus * o.gpu.perf_relative / cloud.gpu.perf_relative * gpu_bill_uplift_factor(cloud.hidden_costs);
  const CloudPriceSchedules& sched = cloud.price_schedules;
  std::vector<Basis> bases = {{"on_demand", offer.on_demand_usd_per_hour, 0, sched.on_demand},
                              {"spot", offer.spot_usd_per_hour, 0, sched.spot},
                              {"reserved_1y", offer.reserved_1y_usd_per_hour, kHoursPerYear, sched.reserved},
                              {"reserved_3y", offer.reserved_3y_usd_per_hour, 3L * kHoursPerYear, sched.reserved}};
  // The other reserved terms of the offer, each at its own term's hours (months x 730).
  for (const auto& [term_months, usd_per_hour] : offer.reserved_usd_per_hour_by_term_months)
    bases.push_back({"reserved_" + std::to_string(term_months) + "m", usd_per_hour,
                     static_cast<long>(term_months) * kHoursPerMonth, sched.reserved});
  for (const auto& basis : bases) {
    if (!basis.usd_per_instance_hour) continue;
    PricedBasis p;
    p.name = basis.name;
    p.usd_per_gpu_hour = *basis.usd_per_instance_hour / offer.gpus_per_instance;
    const auto price_at = [&](long h) {
      const long priced_at = basis.fixed_term_hours > 0 ? (h / basis.fixed_term_hours) * basis.fixed_term_hours : h;
      return p.usd_per_gpu_hour * price_factor(basis.schedule, cloud.price_change_per_year, priced_at);
    };
    p.start_usd_per_gpu_hour = price_at(0);
    BreakevenOverMonths& b = p.figures;
    b.months = months;
    b.end_usd_per_gpu_hour = price_at(static_cast<long>(months) * kHoursPerMonth - 1);
    b.pv_fixed_usd = pv_fixed;
    b.pv_cloud_per_u_usd = cloud_pv_per_u(cloud_gpus_per_u, p.usd_per_gpu_hour, basis.schedule, cloud.price_change_per_year,
                                          basis.fixed_term_hours, months, r);
    // Owning minus renting at utilization u: PV(fixed) > 0 at u = 0, convex in u.
    auto gap = [&](double u) { return pv_fixed + (energy.usd(u) - pv_idle_energy_usd) - u * b.pv_cloud_per_u_usd; };
    b.pv_dynamic_energy_per_u_usd = energy.usd(1.0) - pv_idle_energy_usd;
    std::optional<double> u;
    if (energy_linear) {
      const double margin = b.pv_cloud_per_u_usd - b.pv_dynamic_energy_per_u_usd;
      if (margin > 0.0 && pv_fixed / margin <= 1.0) u = pv_fixed / margin;
    } else if (gap(1.0) <= 0.0) {
      std::uintmax_t iterations = 200;
      const auto [lo, hi] = boost::math::tools::toms748_solve(gap, 0.0, 1.0, gap(0.0), gap(1.0),
                                                             boost::math::tools::eps_tolerance<double>(52), iterations);
      u = 0.5 * (lo + hi);
      b.pv_dynamic_energy_per_u_usd = (energy.usd(*u) - pv_idle_energy_usd) / *u;
    }
    if (u) {
      b.utilization = *u;
      b.gpu_hours_per_month = *u * o.server.gpus * kHoursPerMonth;
    }
    out.push_back(p);
  }
  return out;
}

}  // namespace

std::vector<UtilizationBreakeven> utilization_breakevens(const Scenario& s, const Plan& plan,
                                                         const CloudSpec& cloud) {
  std::vector<UtilizationBreakeven> out;
  if (!plan.onprem) return out;
  const int life_months = static_cast<int>(std::lround(plan.onprem->life_years * 12.0));
  for (const PricedBasis& p : priced_bases(s, plan, cloud, life_months)) {
    UtilizationBreakeven b;
    b.server_id = plan.onprem->server.provenance.id;
    b.offer_id = cloud.offer.provenance.id;
    b.plan = plan.name;
    b.fleet_nodes = std::max(plan.onprem_nodes, 1);
    b.price_basis = p.name;
    b.life_months = life_months;
    b.cloud_usd_per_gpu_hour = p.usd_per_gpu_hour;
    b.pv_fixed_usd = p.figures.pv_fixed_usd;
    b.pv_dynamic_energy_per_u_usd = p.figures.pv_dynamic_energy_per_u_usd;
    b.pv_cloud_per_u_usd = p.figures.pv_cloud_per_u_usd;
    b.utilization = p.figures.utilization;
    b.gpu_hours_per_month = p.figures.gpu_hours_per_month;
    b.start_usd_per_gpu_hour = p.start_usd_per_gpu_hour;
    b.life_end_usd_per_gpu_hour = p.figures.end_usd_per_gpu_hour;
    b.price_change_per_year = cloud.price_change_per_year;
    b.price_scheduled = cloud.price_schedules.any();
    b.resale_at_end = plan.onprem->residual_enabled;
    out.push_back(b);
  }
  return out;
}

std::vector<BreakevenOverMonths> utilization_breakevens_over(const Scenario& s, const Plan& plan,
                                                             const CloudSpec& cloud, int months) {
  std::vector<BreakevenOverMonths> out;
  if (!plan.onprem) return out;
  for (const PricedBasis& p : priced_bases(s, plan, cloud, months)) out.push_back(p.figures);
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
  std::vector<const CloudSpec*> clouds;
  if (const Plan& base = s.plans[s.baseline_index]; base.cloud) clouds.push_back(&*base.cloud);
  for (const Plan& plan : s.plans)
    if (plan.cloud) clouds.push_back(&*plan.cloud);
  std::vector<UtilizationBreakeven> out;
  std::set<std::pair<std::string, int>> fleets_done;  // (server, nodes): the node's share depends on N
  for (const auto& plan : s.plans) {
    if (!plan.onprem || !fleets_done.insert({plan.onprem->server.provenance.id, std::max(plan.onprem_nodes, 1)}).second)
      continue;
    // (offer, basis, price): one row each, so the same offer used by several plans is priced once.
    std::set<std::tuple<std::string, std::string, double>> priced;
    for (const CloudSpec* cloud : clouds) {
      std::vector<UtilizationBreakeven> life = utilization_breakevens(s, plan, *cloud);
      const std::vector<BreakevenOverMonths> horizon = utilization_breakevens_over(s, plan, *cloud, s.horizon_months);
      for (std::size_t i = 0; i < life.size(); ++i) {
        life[i].over_horizon = horizon[i];
        if (priced.insert({life[i].offer_id, life[i].price_basis, life[i].cloud_usd_per_gpu_hour}).second)
          out.push_back(life[i]);
      }
    }
  }
  return out;
}

}  // namespace tco
