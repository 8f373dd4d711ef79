#include "engine/ledger/recommendation.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace tco {

namespace {

std::string price_basis_of(const Plan& plan) {
  if (plan.reserved_instances > 0) return "reserved_" + std::to_string(plan.reserved_term_years) + "y";
  return plan.spot_share >= 0.5 ? "spot" : "on_demand";
}

std::optional<std::size_t> breakeven_for(const Scenario& s, const std::vector<PlanResult>& results, std::size_t chosen,
                                         const std::vector<UtilizationBreakeven>& breakevens) {
  const auto owns = [&](std::size_t i) { return s.plans[i].onprem && s.plans[i].onprem_nodes > 0; };
  std::optional<std::size_t> fleet_plan;
  if (owns(chosen)) {
    fleet_plan = chosen;
  } else {
    for (std::size_t i = 0; i < s.plans.size(); ++i)
      if (owns(i) && (!fleet_plan || results[i].npv_usd < results[*fleet_plan].npv_usd)) fleet_plan = i;
  }
  if (!fleet_plan) return std::nullopt;
  const Plan& priced = s.plans[chosen].cloud ? s.plans[chosen] : s.plans[s.baseline_index];
  if (!priced.cloud) return std::nullopt;
  const std::string& offer = priced.cloud->offer.provenance.id;
  const std::string basis = price_basis_of(priced);
  const Plan& fleet = s.plans[*fleet_plan];
  for (std::size_t b = 0; b < breakevens.size(); ++b) {
    const UtilizationBreakeven& u = breakevens[b];
    if (u.server_id == fleet.onprem->server.provenance.id && u.fleet_nodes == fleet.onprem_nodes &&
        u.offer_id == offer && u.price_basis == basis)
      return b;
  }
  return std::nullopt;
}

}  // namespace

Recommendation recommend(const Scenario& s, const std::vector<PlanResult>& results, double demand_gpu_hours,
                         const std::vector<UtilizationBreakeven>& breakevens) {
  Recommendation out;
  out.waiting_priced = s.waiting_usd_per_gpu_hour > 0.0;
  double least_unserved = std::numeric_limits<double>::infinity();
  for (const PlanResult& r : results) least_unserved = std::min(least_unserved, r.gpu_hours.unserved);
  const double unserved_limit = least_unserved + std::max(1e-6, kUnservedToleranceShare * demand_gpu_hours);
  std::optional<std::size_t> cheapest, cheapest_serving;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!cheapest || results[i].npv_usd < results[*cheapest].npv_usd) cheapest = i;
    const bool serves = results[i].gpu_hours.unserved <= unserved_limit;
    if (serves && (!cheapest_serving || results[i].npv_usd < results[*cheapest_serving].npv_usd)) cheapest_serving = i;
  }
  out.plan = out.waiting_priced || !cheapest_serving ? cheapest.value_or(0) : *cheapest_serving;
  if (cheapest && *cheapest != out.plan) out.passed_over = cheapest;
  out.breakeven = breakeven_for(s, results, out.plan, breakevens);
  return out;
}

}  // namespace tco
