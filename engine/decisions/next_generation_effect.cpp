#include "engine/decisions/next_generation_effect.hpp"

#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

Scenario without_next_generation(const Scenario& scenario) {
  Scenario s = scenario;
  s.next_generation.reset();
  for (Plan& p : s.plans) {
    if (p.cloud) p.cloud->generation_step = {};
    if (p.onprem) p.onprem->resale_step = {};
    p.refresh.reset();  // no successor to refresh to
  }
  return s;
}

std::optional<std::vector<NextGenerationPlanEffect>> next_generation_effects(const Scenario& scenario) {
  if (!scenario.next_generation || scenario.workload.profiles.empty()) return std::nullopt;
  const Scenario plain = without_next_generation(scenario);
  const std::vector<double> demand = demand_gpus_by_hour(scenario.workload, scenario.horizon_hours(), scenario.calendar);
  const double rate = scenario.discount_rate_per_year;
  std::vector<NextGenerationPlanEffect> out;
  for (std::size_t i = 0; i < scenario.plans.size(); ++i) {
    const PlanResult with = evaluate_plan(scenario, scenario.plans[i], demand);
    const PlanResult without = evaluate_plan(plain, plain.plans[i], demand);
    NextGenerationPlanEffect e;
    e.plan = scenario.plans[i].name;
    e.npv_usd = with.npv_usd;
    e.npv_without_event_usd = without.npv_usd;
    e.npv_effect_usd = with.npv_usd - without.npv_usd;
    e.residual_effect_usd = with.ledger.category_npv_usd(Category::residual, rate) -
                            without.ledger.category_npv_usd(Category::residual, rate);
    out.push_back(e);
  }
  return out;
}

}  // namespace tco
