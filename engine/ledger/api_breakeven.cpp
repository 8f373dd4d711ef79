#include "engine/ledger/api_breakeven.hpp"

namespace tco {

ApiBreakevenAt api_breakeven_at(double fixed_npv_usd, double variable_npv_usd, double api_npv_usd,
                                double scenario_daily_tokens, double api_list_usd_per_million_tokens) {
  ApiBreakevenAt b;
  b.api_npv_usd = api_npv_usd;
  if (api_npv_usd > variable_npv_usd && fixed_npv_usd > 0.0)
    b.daily_tokens = fixed_npv_usd / (api_npv_usd - variable_npv_usd) * scenario_daily_tokens;
  if (api_npv_usd > 0.0)
    b.usd_per_million_tokens = (fixed_npv_usd + variable_npv_usd) / api_npv_usd * api_list_usd_per_million_tokens;
  return b;
}

std::vector<ApiBreakeven> api_breakevens(const Scenario& s, const std::vector<PlanResult>& results,
                                         const std::vector<double>& demand_gpus) {
  std::vector<ApiBreakeven> out;
  const double rate = s.discount_rate_per_year;
  const double days = static_cast<double>(s.horizon_hours()) / 24.0;
  for (std::size_t a = 0; a < s.plans.size(); ++a) {
    const Plan& api_plan = s.plans[a];
    if (api_plan.kind != Plan::Kind::api) continue;
    const ApiFigures& figures = *results[a].api;
    const double d = api_plan.api->price_change_per_year;
    // A at each price change: the scenario's from its run, the others re-evaluated.
    std::vector<std::pair<double, double>> api_npv = {{0.0, 0.0}, {d, results[a].npv_usd}, {2.0 * d, 0.0}};
    if (d == 0.0) api_npv = {{0.0, results[a].npv_usd}};
    for (auto& [change, npv] : api_npv) {
      if (change == d) continue;
      Plan moved = api_plan;
      moved.api->price_change_per_year = change;
      npv = evaluate_plan(s, moved, demand_gpus).npv_usd;
    }
    for (std::size_t i = 0; i < s.plans.size(); ++i) {
      const Plan& p = s.plans[i];
      if (p.uses_api() || (owned_nodes(p) == 0 && !p.cloud)) continue;
      ApiBreakeven b;
      b.plan = p.name;
      b.api_plan = api_plan.name;
      b.plan_npv_usd = results[i].npv_usd;
      for (Category c : kVolumeFixedCategories) b.plan_fixed_npv_usd += results[i].ledger.category_npv_usd(c, rate);
      b.plan_variable_npv_usd = b.plan_npv_usd - b.plan_fixed_npv_usd;
      b.scenario_daily_tokens = figures.tokens_demanded / days;
      b.api_list_usd_per_million_tokens = figures.list_usd_per_million_tokens;
      for (const auto& [change, npv] : api_npv) {
        ApiBreakevenAt at = api_breakeven_at(b.plan_fixed_npv_usd, b.plan_variable_npv_usd, npv,
                                             b.scenario_daily_tokens, b.api_list_usd_per_million_tokens);
        at.price_change_per_year = change;
        b.by_price_change.push_back(at);
      }
      out.push_back(std::move(b));
    }
  }
  return out;
}

}  // namespace tco
