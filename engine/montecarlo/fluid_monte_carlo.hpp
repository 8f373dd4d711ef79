// The Monte Carlo of a scenario without jobs (docs/model.md §10): every plan on `paths` paths of
// the sweep engine's hourly fluid model (engine/sweep/sweep_kernel.hpp, CPU backend), which draws the
// scenario's random inputs per path (spot availability, preemptions and prices, power price
// shocks, ambient noise, node failures, demand growth), on common random numbers. The report
// keeps the deterministic expected-value figures as its headline and adds these statistics.
// Example: 2 plans, 200 paths: 400 plan-paths of the hourly model, per-plan NPV statistics and
// the paired NPV difference of the non-baseline plan with P(cheaper).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/montecarlo/monte_carlo.hpp"
#include "models/scenario.hpp"

namespace tco {

struct FluidMonteCarloRun {
  long paths = 0;
  std::uint64_t seed = 0;
  std::vector<McPlanStats> plans;              // npv_usd and total_nominal_usd (no job counters)
  std::vector<McComparisonStats> comparisons;  // each plan but the baseline vs the baseline
  std::vector<std::vector<double>> npv_by_path;  // [plan][path], as MonteCarloRun's
  long paths_from_checkpoints = 0;               // read from checkpoint_dir instead of computed
};

// paths >= 1; threads as OpenMP's (0: all cores). The numbers do not depend on `threads`.
// `progress` (may be null) counts the paths done.
// split_over_processes: under mpirun, the paths split in contiguous blocks over the ranks and
// their NPV and nominal cost (16 bytes per plan-path) gathered to rank 0, which alone returns the
// statistics (the other ranks: only `paths` and `seed`). Every rank must call.
// checkpoint_dir (not empty): the paths run in batches of kFluidCheckpointBatchPaths, each written
// there by rank 0, atomically (engine/montecarlo/path_checkpoint.hpp); a batch found there under
// the same key (scenario, catalog, inputs, seed, paths) is read instead of computed. The values
// do not depend on the batches: the same bytes as an uninterrupted run.
inline constexpr long kFluidCheckpointBatchPaths = 100;
FluidMonteCarloRun run_fluid_monte_carlo(const Scenario& scenario, long paths, std::uint64_t seed, int threads,
                                         ProgressCounter* progress = nullptr, bool split_over_processes = false,
                                         const std::string& checkpoint_dir = std::string());

}  // namespace tco
