#include "engine/montecarlo/fluid_monte_carlo.hpp"

#include "core/parallel/process_group.hpp"
#include "core/parallel/test_abort_hook.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_prepare.hpp"

namespace tco {

namespace {

// This rank's block of paths as (NPV, nominal) per path and plan, in path order; on the root,
// every rank's blocks in rank order: the values of paths 0 .. paths - 1.
std::vector<double> path_values(const SweepChunk& chunk, const IndexBlock& mine, int threads, ProgressCounter* progress,
                                bool gather) {
  const SweepPointHeader& point = chunk.points.front();
  const SweepPathValues values = run_sweep_cpu(chunk, mine.size(), threads, progress, mine.begin);
  std::vector<double> pairs;
  pairs.reserve(static_cast<std::size_t>(mine.size() * point.plan_count * 2));
  for (long k = 0; k < mine.size(); ++k)
    for (int j = 0; j < point.plan_count; ++j) {
      pairs.push_back(values.npv_usd[values.index(point, k, j)]);
      pairs.push_back(values.total_usd[values.index(point, k, j)]);
    }
  if (!gather) return pairs;
  abort_if_test_asks_after_block();
  return gather_doubles(pairs);
}

}  // namespace

FluidMonteCarloRun run_fluid_monte_carlo(const Scenario& s, long paths, std::uint64_t seed, int threads,
                                         ProgressCounter* progress, bool split_over_processes) {
  const SweepChunk chunk = make_sweep_chunk({prepare_sweep_point(s, seed)});
  progress_begin(progress, paths, "paths");
  const int ranks = split_over_processes ? process_count() : 1;
  const int rank = split_over_processes ? process_rank() : 0;
  const std::vector<double> pairs = path_values(chunk, index_block(paths, rank, ranks), threads, progress, ranks > 1);
  FluidMonteCarloRun run;
  run.paths = paths;
  run.seed = seed;
  if (rank != 0) return run;
  const SweepPointHeader& point = chunk.points.front();
  std::vector<std::vector<double>> npv_by_path(point.plan_count, std::vector<double>(paths));
  std::vector<std::vector<double>> nominal_by_path = npv_by_path;
  for (long k = 0; k < paths; ++k)
    for (int j = 0; j < point.plan_count; ++j) {
      const std::size_t at = static_cast<std::size_t>((k * point.plan_count + j) * 2);
      npv_by_path[j][k] = pairs[at];
      nominal_by_path[j][k] = pairs[at + 1];
    }
  for (int j = 0; j < point.plan_count; ++j) {
    McPlanStats st;
    st.name = s.plans[j].name;
    st.npv_usd = summarize(npv_by_path[j]);
    st.total_nominal_usd = summarize(nominal_by_path[j]);
    run.plans.push_back(std::move(st));
  }
  run.comparisons = paired_comparisons(s, npv_by_path, nominal_by_path);
  run.npv_by_path = std::move(npv_by_path);
  return run;
}

}  // namespace tco
