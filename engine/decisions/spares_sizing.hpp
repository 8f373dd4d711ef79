// Sizing a plan's hot spares (`tcosim optimize --spares`, docs/decisions.md §1, issue #25 item 3).
// A spare earns nothing in the hourly fluid model (it is bought, racked and powered, and given no
// work): its worth is the failed node's place filled after swap_h instead of repair_h, which only
// the discrete-event replay sees. So the plan is replayed at each spare count S of the range, at
// its own node count, beside the baseline, in one Monte Carlo run: the same paths, the same jobs
// and the same node failures for every S (common random numbers). Per S, over the paths:
//   NPV statistics; saving = NPV_baseline - NPV_S, paired per path, and P(saving > 0); goodput
// and per risk measure the best S (the fewest spares on a tie) and the counts within 1% of it,
// as the node sizing does (engine/decisions/sizing.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "core/progress/progress_counter.hpp"
#include "core/stats/statistics.hpp"
#include "engine/decisions/sizing.hpp"

namespace tco {

struct SparesSizingOptions {
  std::string plan;                  // "" = the scenario's first plan that owns nodes
  IntRange spares{0, 4, 1};
  std::string risk = "mean";
  std::optional<long> paths;         // default: the scenario's monte_carlo.paths
  std::optional<std::uint64_t> seed;
  int threads = 0;
  ProgressCounter* progress = nullptr;
  bool split_over_processes = false;  // as MonteCarloOptions: rank 0 alone returns the points
};

struct SparesPoint {
  long spares = 0;
  Summary npv_usd;
  Summary saving_usd;                 // vs the baseline, paired per path
  double probability_saving = 0.0;
  std::optional<Summary> goodput;     // per path (absent when the replay saw no owned pool)
  double unserved_gpu_hours = 0.0;    // mean per path: work left at the horizon, priced only by
                                      // waiting_usd_per_gpu_hour (an NPV without it ignores it)
};

struct SparesSizingResult {
  std::string plan;
  std::string baseline;
  std::string risk;
  long nodes = 0;
  bool waiting_priced = false;        // waiting_usd_per_gpu_hour > 0: the NPVs price unserved work
  long paths = 0;
  std::uint64_t seed = 0;
  std::vector<SparesPoint> points;
  std::vector<SizingBest> best;       // mean, p90, cvar95
};

// Sizes the spares of a plan of a scenario document (loaded by load_scenario_json). Input errors
// (no jobs, no onprem.spares to vary, a plan without nodes) name the option or the plan.
SparesSizingResult optimize_spares(const Json& document, const std::string& file, const std::string& dir,
                                   const std::string& catalog_dir, const SparesSizingOptions& options);

}  // namespace tco
