// The token figures of a plan that serves a token demand with its own GPUs (docs/tokens.md §6),
// from its evaluated result (models/serving/token_figures.hpp gives the formulas):
//   served tokens   the fluid model serves waiting work first in, first out, so the GPU-hours still
//                   waiting at the horizon's end (unserved) are the last hours' demand; hour h's
//                   unserved share u(h) = its GPU-hours among them / demand GPUs(h), and
//                   served tokens = sum_h tokens(h) x (1 - u(h))
//                   (= tokens(h) x served GPUs(h) / demanded GPUs(h), hour by hour)
//   busy cost       the whole nominal cost less what idle capacity cost:
//                     idle = owned costs (capex, interest, lease, maintenance, facility, energy,
//                            staff, carbon, repair) x (1 - on-prem utilization)
//                          + reserved instances' bill x unused / paid reserved GPU-hours
//                          + each commitment's unused dollars + the waiting penalty
//                   (credits, the residual and the tax shield, stay whole on both bases)
//   on-prem tokens  served tokens x on-prem work / useful work
//   tokens per MWh  on-prem tokens / facility MWh (IT x PUE, the on-prem model's)
//   tokens/s per MW on-prem tokens / horizon seconds / peak facility MW
//   replicas at peak  ceil(peak hour's tokens / (3,600 x replica tokens/s))
// Example (tests/test_plan_tokens.cpp): demand 10, 10, 10 GPUs of 1e6, 1e6, 2e6 tokens and 15
// GPU-hours unserved: hour 2 wholly (2e6 tokens), hour 1 half (5e5): 1.5e6 of 4e6 served.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/ledger/plan_evaluator.hpp"
#include "models/serving/token_demand.hpp"
#include "models/serving/token_figures.hpp"

namespace tco {

struct PlanTokens {
  PlanTokenFigures figures;
  std::string serving_profile;  // its id ("" for an inline profile or an api plan)
  int gpus_per_replica = 1;     // 0 for an api plan (no replica: it buys every token)
  double replicas_at_peak = 0.0;
  // A plan that owns nodes (and served on them); absent otherwise.
  std::optional<double> tokens_per_facility_mwh;
  std::optional<double> tokens_per_s_per_peak_facility_mw;
};

// Tokens served of `tokens` (per hour) when `unserved_gpu_hours` of `demand_gpus` (per hour) are
// left waiting at the end, first in first out.
double served_tokens(const std::vector<double>& tokens, const std::vector<double>& demand_gpus,
                     double unserved_gpu_hours);

// The cost of a plan's busy GPU-hours (above).
double busy_cost_usd(const PlanResult& result);

PlanTokens plan_tokens(const PlanResult& result, const TokenDemand& demand, const TokenHours& hours,
                       const std::vector<double>& demand_gpus, bool buys_every_token = false);

}  // namespace tco
