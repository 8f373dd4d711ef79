#include "engine/montecarlo/fluid_monte_carlo.hpp"

#include <algorithm>
#include <optional>

#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"
#include "core/parallel/test_abort_hook.hpp"
#include "engine/montecarlo/path_checkpoint.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_prepare.hpp"

namespace tco {

namespace {

// This rank's block of paths as (NPV, nominal) per path and plan, in path order; gathered, on
// the root, every rank's blocks in rank order: the values of the batch's paths.
std::vector<double> path_values(const SweepChunk& chunk, const IndexBlock& mine, int threads, ProgressCounter* progress,
                                bool gather, bool test_hook_before_gather) {
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
  if (test_hook_before_gather) abort_if_test_asks_after_block();
  return gather_doubles(pairs);
}

}  // namespace

FluidMonteCarloRun run_fluid_monte_carlo(const Scenario& s, long paths, std::uint64_t seed, int threads,
                                         ProgressCounter* progress, bool split_over_processes,
                                         const std::string& checkpoint_dir) {
  const SweepChunk chunk = make_sweep_chunk({prepare_sweep_point(s, seed)});
  const SweepPointHeader& point = chunk.points.front();
  const auto plans = static_cast<std::size_t>(point.plan_count);
  progress_begin(progress, paths, "paths");
  // Split: more than one rank, or an index shard or its merge (core/parallel/index_shards.hpp).
  const bool split = split_over_processes && processes_split();
  const int ranks = split ? process_count() : 1;
  const int rank = split ? process_rank() : 0;
  const bool root = !split || is_root_process();
  const bool checkpointing = !checkpoint_dir.empty();
  MonteCarloOptions key_options;
  key_options.paths = paths;
  key_options.batch_paths = kFluidCheckpointBatchPaths;
  const std::string key = checkpointing && root ? path_checkpoint_key(s, seed, key_options) : std::string();
  const long batch = checkpointing ? kFluidCheckpointBatchPaths : std::max(paths, 1L);
  std::vector<double> pairs;  // on the root: every path's, in path order
  long from_checkpoints = 0;
  if (ranks > 1) fail_alone_if_test_asks();
  for (long done = 0; done < paths; done += batch) {
    const long end = std::min(paths, done + batch);
    std::optional<std::vector<double>> saved;
    if (checkpointing && root) saved = load_fluid_checkpoint(checkpoint_dir, key, done, end, plans);
    const bool from_checkpoint = checkpointing && (split ? broadcast_int(saved ? 1 : 0) == 1 : saved.has_value());
    if (from_checkpoint) {
      if (root) pairs.insert(pairs.end(), saved->begin(), saved->end());
      from_checkpoints += end - done;
      progress_add(progress, end - done);
      continue;
    }
    IndexBlock mine = index_block(end - done, rank, ranks);
    mine.begin += done;
    mine.end += done;
    const std::vector<double> values = path_values(chunk, mine, threads, progress, split, !checkpointing);
    if (checkpointing) {
      root_does([&] { save_fluid_checkpoint(checkpoint_dir, key, done, end, plans, values); }, split);
      if (split) abort_if_test_asks_after_block();  // the test hook: once the batch is on disk
    }
    if (root) pairs.insert(pairs.end(), values.begin(), values.end());
  }
  FluidMonteCarloRun run;
  run.paths = paths;
  run.seed = seed;
  run.paths_from_checkpoints = from_checkpoints;
  if (!root) return run;
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
