#include "engine/montecarlo/fluid_monte_carlo.hpp"

#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_prepare.hpp"

namespace tco {

FluidMonteCarloRun run_fluid_monte_carlo(const Scenario& s, long paths, std::uint64_t seed, int threads,
                                         ProgressCounter* progress) {
  const SweepChunk chunk = make_sweep_chunk({prepare_sweep_point(s, seed)});
  progress_begin(progress, paths, "paths");
  const SweepPathValues values = run_sweep_cpu(chunk, paths, threads, progress);
  const SweepPointHeader& point = chunk.points.front();
  std::vector<std::vector<double>> npv_by_path(point.plan_count, std::vector<double>(paths));
  std::vector<std::vector<double>> nominal_by_path = npv_by_path;
  for (int j = 0; j < point.plan_count; ++j)
    for (long k = 0; k < paths; ++k) {
      npv_by_path[j][k] = values.npv_usd[values.index(point, k, j)];
      nominal_by_path[j][k] = values.total_usd[values.index(point, k, j)];
    }
  FluidMonteCarloRun run;
  run.paths = paths;
  run.seed = seed;
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
