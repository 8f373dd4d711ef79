// Everything a scenario's `uncertain` section gives a report (docs/decisions.md): one Monte
// Carlo over the inputs (engine/montecarlo/uncertain_paths.hpp) feeds the standardised regression
// coefficients (engine/decisions/sensitivity.hpp), the saving's distribution and the breakevens under
// uncertainty (engine/decisions/uncertain_breakevens.hpp); the tornado adds 2 x inputs evaluations.
// The analysed plan: `plan` when named, else the non-baseline plan with the largest NPV saving at
// the base values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/decisions/sensitivity.hpp"
#include "core/stats/statistics.hpp"
#include "engine/decisions/uncertain_breakevens.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"

namespace tco {

struct UncertainInputSummary {
  std::string name;
  Summary values;  // of the drawn values, as written
};

// One plan over the paths of the uncertain inputs (SPEC §7): its NPV and, for a plan that is
// not the baseline, the paired difference NPV(plan) - NPV(baseline) and P(difference < 0).
struct UncertainPlanStats {
  std::string name;
  Summary npv_usd;
  std::optional<Summary> npv_difference_usd;  // none for the baseline
  double p_cheaper = 0.0;
};

struct UncertaintyAnalysis {
  long paths = 0;
  std::uint64_t seed = 0;
  int plan = 0;
  std::string plan_name;
  std::string baseline;
  UncertainSpec spec;
  ScenarioOutcomes base;                            // every plan at the base values
  std::vector<UncertainInputSummary> inputs;        // per input
  std::vector<std::vector<double>> achieved_rank_correlation;  // Spearman of the drawn values
  std::vector<UncertainPlanStats> plans;            // every plan, over the paths
  Summary saving_usd;                               // of the analysed plan, over the paths
  double probability_saving = 0.0;                  // P(S > 0)
  Tornado tornado;
  SrcResult src;
  UncertainBreakevens breakevens;
  double seconds = 0.0;
};

// split_over_processes: under mpirun, the paths and the tornado's evaluations split over the
// ranks (engine/montecarlo/uncertain_paths.hpp, engine/decisions/sensitivity.hpp); rank 0 alone
// returns the analysis, the other ranks only its inputs (paths, seed, plan). Every rank must call.
UncertaintyAnalysis analyse_uncertainty(const UncertaintyInputs& in, const std::string& plan, int threads,
                                        ProgressCounter* progress = nullptr, bool split_over_processes = false);

}  // namespace tco
