// A deterministic run of a whole scenario: every plan evaluated over the same demand, each
// compared with the baseline, the breakevens, and the warnings a reviewer must see.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/ledger/api_breakeven.hpp"
#include "engine/ledger/breakeven.hpp"
#include "engine/ledger/comparison.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "engine/des/serving/plan_latency.hpp"
#include "engine/ledger/plan_tokens.hpp"
#include "engine/ledger/recommendation.hpp"
#include "models/finding.hpp"
#include "models/scenario.hpp"

namespace tco {

struct DemandSummary {
  double gpu_hours = 0.0;
  double mean_gpus = 0.0;
  double peak_gpus = 0.0;
};

struct ScenarioRun {
  DemandSummary demand;
  std::vector<PlanResult> plans;             // in the scenario's order
  std::vector<PlanTokens> tokens;            // one per plan when the workload has tokens; else none
  // One per plan when the workload has requests (null for a plan that buys every token); else none.
  std::vector<std::optional<PlanLatency>> latency;
  std::vector<Comparison> comparisons;       // each non-baseline plan vs the baseline
  std::vector<UtilizationBreakeven> utilization_breakevens;
  std::vector<PriceBreakeven> price_breakevens;  // each non-baseline plan vs the baseline, then each other plan
                                                 // vs the recommended plan (when that is not the baseline)
  std::vector<ApiBreakeven> api_breakevens;    // each self-hosting plan vs each plan of kind api
  Recommendation recommendation;
  std::vector<Comparison> recommended_comparisons;  // each other plan vs the recommended one (none when it is the baseline)
  std::vector<Finding> warnings;             // the scenario's, then the run's
};

ScenarioRun run_deterministic(const Scenario& scenario);

// A warning of the run about the scenario's file at `where` (a JSON pointer); one definition for
// every engine file (two copies in anonymous namespaces clashed when a unity batch held both).
void add_run_warning(ScenarioRun& run, const Scenario& s, std::string code, std::string where, std::string message);

}  // namespace tco
