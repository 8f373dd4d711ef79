// A plan's own serving profile (issue 46 item 4; docs/tokens.md §5): H100, H200 and B200 plans
// each serve the scenario's token demand with their own measured throughput. The workload counts
// its GPUs with the scenario's profile S (models/serving/token_demand.hpp); a plan whose GPUs serve
// with profile P does the work of
//   perf_P = tokens/s per GPU of P at the slo / tokens/s per GPU of S at the slo x perf_relative(S's GPU)
// reference GPUs per GPU-hour, which replaces the perf_relative of the plan's GPUs of P's model
// (owned and rented alike), so every model (hourly, sweep, replay, breakevens) serves it so.
// Example: S 1,466.7 tokens/s per GPU on a GPU of perf 1, P 2,933.3 on the plan's GPU: perf_P = 2,
// the plan needs half the GPUs. Whole replicas are counted with S (its rounding, not P's).
#pragma once

#include <memory>
#include <string>

#include "core/io/json_reader.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

class Catalog;
struct Plan;

// Reads plans[i].serving_profile (an id, an id with overrides, or a record inline) when given:
// resolves it, reads its replica at the scenario's slo, and sets the plan's GPU perf. InputErrors
// at `pointer`/serving_profile: no workload.tokens, a profile whose GPU the plan does not use, a
// target the profile cannot meet, a plan with venues or a refresh (not served with a profile yet).
// Returns the plan's token demand (the scenario's with the plan's profile), or null without one.
std::shared_ptr<const TokenDemand> apply_plan_serving_profile(Plan& plan, const Json& plan_json,
                                                              const TokenDemand* scenario_tokens,
                                                              const Catalog& catalog, const std::string& file,
                                                              const std::string& pointer);

}  // namespace tco
