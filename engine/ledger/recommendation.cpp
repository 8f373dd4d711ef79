#include "engine/ledger/recommendation.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace tco {

std::string price_basis_paid(const Plan& plan) {
  const int months = plan.reserved_term_months;
  if (plan.reserved_instances > 0)
    return months == 12 || months == 36 ? "reserved_" + std::to_string(months / 12) + "y"
                                        : "reserved_" + std::to_string(months) + "m";
  return plan.spot_share >= 0.5 ? "spot" : "on_demand";
}

namespace {

bool owns(const Plan& plan) { return plan.onprem && plan.onprem_nodes > 0; }

// The plan whose cloud price the verdict's breakeven quotes: the recommended plan's, else the baseline's.
const Plan* priced_plan(const Scenario& s, std::size_t chosen) {
  const Plan& priced = s.plans[chosen].cloud ? s.plans[chosen] : s.plans[s.baseline_index];
  return priced.cloud ? &priced : nullptr;
}

bool same_fleet(const UtilizationBreakeven& u, const Plan& plan) {
  return u.server_id == plan.onprem->server.provenance.id && u.fleet_nodes == plan.onprem_nodes;
}

bool same_price(const UtilizationBreakeven& u, const Plan& plan) {
  return plan.cloud && u.offer_id == plan.cloud->offer.provenance.id && u.price_basis == price_basis_paid(plan);
}

std::vector<std::size_t> deciding(const Scenario& s, std::size_t chosen, const std::vector<UtilizationBreakeven>& breakevens) {
  const Plan* verdict_price = priced_plan(s, chosen);
  std::vector<std::size_t> out;
  for (std::size_t b = 0; b < breakevens.size(); ++b) {
    bool decides = false;
    for (const Plan& plan : s.plans)
      if (owns(plan) && same_fleet(breakevens[b], plan))
        decides = decides || same_price(breakevens[b], plan) || (verdict_price && same_price(breakevens[b], *verdict_price));
    if (decides) out.push_back(b);
  }
  return out;
}

std::optional<std::size_t> breakeven_for(const Scenario& s, const std::vector<PlanResult>& results, std::size_t chosen,
                                         const std::vector<UtilizationBreakeven>& breakevens) {
  std::optional<std::size_t> fleet_plan;
  if (owns(s.plans[chosen])) {
    fleet_plan = chosen;
  } else {
    for (std::size_t i = 0; i < s.plans.size(); ++i)
      if (owns(s.plans[i]) && (!fleet_plan || results[i].npv_usd < results[*fleet_plan].npv_usd)) fleet_plan = i;
  }
  if (!fleet_plan) return std::nullopt;
  const Plan* priced = priced_plan(s, chosen);
  if (!priced) return std::nullopt;
  for (std::size_t b = 0; b < breakevens.size(); ++b)
    if (same_fleet(breakevens[b], s.plans[*fleet_plan]) && same_price(breakevens[b], *priced)) return b;
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
  out.deciding_breakevens = deciding(s, out.plan, breakevens);
  std::size_t lowest = out.plan;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (results[i].total_usd < results[lowest].total_usd) lowest = i;
  if (lowest != out.plan) out.lowest_nominal = lowest;
  return out;
}

std::vector<Comparison> compare_with_recommended(const Scenario& s, const std::vector<PlanResult>& results,
                                                 const Recommendation& r) {
  std::vector<Comparison> out;
  if (static_cast<int>(r.plan) == s.baseline_index) return out;
  for (std::size_t i = 0; i < s.plans.size(); ++i)
    if (i != r.plan)
      out.push_back(compare(s.plans[i].name, results[i].ledger, s.plans[r.plan].name, results[r.plan].ledger,
                            s.discount_rate_per_year));
  return out;
}

}  // namespace tco
