#include "engine/scenario_run.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tco {

void add_run_warning(ScenarioRun& run, const Scenario& s, std::string code, std::string where, std::string message) {
  run.warnings.push_back({Finding::Severity::warning, std::move(code), s.file, std::move(where), std::move(message)});
}

namespace {

void add_plan_warnings(ScenarioRun& run, const Scenario& s, const Plan& plan, const PlanResult& r, int index) {
  const std::string pointer = "/plans/" + std::to_string(index);
  if (plan.onprem && plan.onprem_nodes > 0) {
    const auto& cooling = plan.onprem->cooling;
    if (cooling.type == "air" && cooling.max_cfm_per_rack && r.facility.airflow_cfm_per_rack > *cooling.max_cfm_per_rack) {
      add_run_warning(run, s, "airflow-exceeds-cooling", pointer + "/onprem/cooling",
           fmt::format("plan \"{}\": a {:.1f} kW rack needs {:.0f} CFM of air, above the {:.0f} CFM the air cooling "
                       "delivers per rack; consider liquid cooling or fewer nodes per rack",
                       plan.name, r.facility.rack_peak_kw, r.facility.airflow_cfm_per_rack, *cooling.max_cfm_per_rack));
    }
    if (r.throttled_hours > 0) {
      add_run_warning(run, s, "thermal-throttling", pointer + "/onprem/ambient",
           fmt::format("plan \"{}\": on-prem GPUs are throttled in {} hours of the horizon", plan.name,
                       r.throttled_hours));
    }
  }
  if (r.gpu_hours.unserved > 1e-6 && !plan.venues.empty()) {
    add_run_warning(run, s, "demand-unserved", pointer + "/venues",
         fmt::format("plan \"{}\" cannot serve all its demand: {:.1f} GPU-hours of work that no venue took are "
                     "still waiting at the horizon's end (docs/model.md §3b)",
                     plan.name, r.gpu_hours.unserved));
  } else if (r.gpu_hours.unserved > 1e-6) {
    add_run_warning(run, s, "demand-unserved", pointer,
         fmt::format("plan \"{}\" cannot serve its demand: {:.0f} GPU-hours of work are still waiting at the "
                     "horizon's end (it does not burst to the cloud)",
                     plan.name, r.gpu_hours.unserved));
  }
}

}  // namespace

ScenarioRun run_deterministic(const Scenario& s) {
  ScenarioRun run;
  run.warnings = s.warnings;
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  for (double d : demand) {
    run.demand.gpu_hours += d;
    run.demand.peak_gpus = std::max(run.demand.peak_gpus, d);
  }
  run.demand.mean_gpus = demand.empty() ? 0.0 : run.demand.gpu_hours / demand.size();

  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    run.plans.push_back(evaluate_plan(s, s.plans[i], demand));
    add_plan_warnings(run, s, s.plans[i], run.plans.back(), static_cast<int>(i));
  }
  if (s.workload.tokens) {
    const TokenHours token_series = token_hours(*s.workload.tokens, s.horizon_hours(), s.calendar);
    for (std::size_t i = 0; i < s.plans.size(); ++i) {
      const TokenDemand& serving = s.plans[i].serving ? *s.plans[i].serving : *s.workload.tokens;
      run.tokens.push_back(plan_tokens(run.plans[i], serving, token_series, demand, s.plans[i].kind == Plan::Kind::api));
    }
    if (s.workload.requests)
      for (const Plan& plan : s.plans) run.latency.push_back(plan_latency(s, plan, token_series.tokens));
  }
  const Plan& baseline = s.plans[s.baseline_index];
  const PlanResult& base_result = run.plans[s.baseline_index];
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    if (static_cast<int>(i) == s.baseline_index) continue;
    run.comparisons.push_back(compare(s.plans[i].name, run.plans[i].ledger, baseline.name, base_result.ledger,
                                      s.discount_rate_per_year));
    run.price_breakevens.push_back(price_breakeven(s, s.plans[i], baseline, demand));
  }
  run.utilization_breakevens = scenario_utilization_breakevens(s);
  run.api_breakevens = api_breakevens(s, run.plans, demand);
  run.recommendation = recommend(s, run.plans, run.demand.gpu_hours, run.utilization_breakevens);
  run.recommended_comparisons = compare_with_recommended(s, run.plans, run.recommendation);
  const std::size_t chosen = run.recommendation.plan;
  if (static_cast<int>(chosen) != s.baseline_index) {
    for (std::size_t i = 0; i < s.plans.size(); ++i) {
      if (i == chosen) continue;
      if (static_cast<int>(i) == s.baseline_index) {
        // The baseline against the chosen plan is the chosen plan against the baseline with the
        // gap's sign turned: toms748 takes the same steps (negation is exact) to the same root.
        const auto mirror = std::find_if(run.price_breakevens.begin(), run.price_breakevens.end(),
                                         [&](const PriceBreakeven& b) { return b.plan == s.plans[chosen].name; });
        run.price_breakevens.push_back({baseline.name, s.plans[chosen].name, mirror->cloud_price_multiplier});
        continue;
      }
      run.price_breakevens.push_back(price_breakeven(s, s.plans[i], s.plans[chosen], demand));
    }
  }
  return run;
}

}  // namespace tco
