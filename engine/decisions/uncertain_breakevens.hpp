// Breakevens under uncertainty (SPEC §8; docs/decisions.md), from the per-path deterministic
// evaluations of engine/montecarlo/uncertain_paths.hpp (common random numbers: every plan and every trial
// value sees the same input draws on a path).
// Payback month: per path, comparison::payback_month of the plan vs the baseline (SPEC §12.14);
//   "never" (no month within the horizon) counts as +infinity: P10/P50/P90 by linear
//   interpolation between order statistics (SPEC §12.11), null ("never") where the interpolation
//   touches a never; P(payback within the horizon) = share of paths with a payback month.
//   Example: months {3, 5, never, never} -> P10 = 3.6, P50 = never, P(within) = 0.5.
// Cloud price multiplier on the common-random-number mean: the hourly routing does not depend on
//   prices, so a plan's NPV at multiplier k is NPV + (k - 1) C exactly (C = the NPV of its
//   on-demand, spot and reserved categories); k* solves
//   mean_p [NPV_plan,p - NPV_base,p + (k - 1)(C_plan,p - C_base,p)] = 0
//   by toms748 on (0, 1000], as engine/ledger/breakeven.cpp's price_breakeven does for one scenario.
// Simulated utilization breakeven of a plan with N nodes of G GPUs: the workload replaced by a
//   steady demand of D reference GPUs every hour, D* solves
//   mean_p [NPV_base,p(D) - NPV_plan,p(D)] = 0 on [0, N G perf] (toms748), and u_sim is the plan's
//   on-prem utilization (busy / installed GPU-hours) at D* with the inputs at their base values.
//   Beside it, the closed form u* (engine/ledger/breakeven.hpp) against the baseline's on-demand price.
//   They differ by what the closed form leaves out on purpose: the horizon instead of the node's
//   life, instance rounding, fixed FTEs, whole racks, throttling; on the closed form's own
//   premises (one node, horizon = life, 1-GPU instances) they agree (a test).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/montecarlo/uncertain_paths.hpp"

namespace tco {

struct PaybackDistribution {
  std::string plan;
  std::string baseline;
  long paths = 0;
  long never_paths = 0;
  double probability_within_horizon = 0.0;
  std::optional<double> p10_month, p50_month, p90_month;  // null: never
  std::optional<int> base_payback_month;                  // with the inputs at their base values
};

// The distribution of per-path payback months (nullopt = never).
PaybackDistribution payback_distribution(const std::vector<std::optional<int>>& months);

struct UncertainPriceBreakeven {
  std::string plan;
  std::string baseline;
  std::optional<double> crn_mean_multiplier;  // null: no k in (0, 1000] breaks even
  double probability_cheaper_at_1 = 0.0;      // share of paths where the plan's NPV < the baseline's
};

// k* on the mean over paths of the affine gap; the vectors are per path.
std::optional<double> crn_price_multiplier(const std::vector<double>& plan_npv, const std::vector<double>& plan_cloud_npv,
                                           const std::vector<double>& base_npv, const std::vector<double>& base_cloud_npv);

struct SimulatedUtilizationBreakeven {
  std::string plan;
  std::string baseline;
  std::string status;                        // "ok", "never" (loses even at full load), "always"
                                             // (saves even with no demand), "no_onprem_nodes",
                                             // "buys_tokens" (the plan or the baseline pays an API)
  double capacity_gpus = 0.0;                // N G perf: the steady demand that fills the nodes
  std::optional<double> steady_demand_gpus;  // D*
  std::optional<double> utilization;         // u_sim
  std::optional<double> closed_form_utilization;  // u* vs the baseline's on-demand price
  long paths = 0;
};

// Loads the paths' scenarios again (values from run_uncertain_paths) and root-finds on their mean.
SimulatedUtilizationBreakeven simulated_utilization_breakeven(const UncertaintyInputs& in,
                                                              const std::vector<std::vector<double>>& values, int plan,
                                                              int threads, ProgressCounter* progress = nullptr);

struct UncertainBreakevens {
  std::vector<PaybackDistribution> payback;          // each non-baseline plan
  std::vector<UncertainPriceBreakeven> price;        // each non-baseline plan
  SimulatedUtilizationBreakeven utilization;         // the analysed plan
};

UncertainBreakevens uncertain_breakevens(const UncertaintyInputs& in, const UncertainPaths& paths,
                                         const ScenarioOutcomes& base, int plan, int threads,
                                         ProgressCounter* progress = nullptr);

}  // namespace tco
