// Monte Carlo over the discrete-event replay (SPEC §7). Path p of plan k is a pure function of
// (scenario, seed, p): its jobs, spot draws, failures, prices and weather come from Philox
// counters (p, source, entity, draw), with entities that do not depend on the plan (job ids,
// node indices, months), so plans differing only in fleet size see the same randomness
// (common random numbers) and their paired difference is far less noisy than either cost.
// Paths run in parallel in fixed batches; results are stored by path index and reduced in
// path order, so the report does not depend on the thread count.
// Per plan:        NPV and nominal cost: mean, stderr, 95% CI (Student t), P5/P50/P95, CVaR95
// Per comparison:  the same on d_p = cost_plan(p) - cost_baseline(p), and P(d_p < 0)
// --target-ci-usd: batches until every comparison's NPV half-width t x stderr <= X, or the
//                  path ceiling, which is an error naming the half-width reached.
// Example: 2 plans, 1,000 paths, 2 threads: 10 batches of 100 paths, each split over threads.
// Under mpirun -n 2 (split_over_processes): each batch's paths 0-49 on rank 0, 50-99 on rank 1.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/des/simulator.hpp"
#include "engine/scenario_run.hpp"
#include "core/stats/statistics.hpp"
#include "core/progress/progress_counter.hpp"
#include "models/scenario.hpp"

namespace tco {

struct MonteCarloOptions {
  std::optional<long> paths;           // default: the scenario's monte_carlo.paths
  // Paths first_path .. first_path + paths - 1 (stored from 0): one path of a world drawn per
  // path (a sizing that draws the `uncertain` section, engine/decisions/replay_sizing.hpp).
  long first_path = 0;
  std::optional<std::uint64_t> seed;   // default: the scenario's monte_carlo.seed
  int threads = 1;
  std::optional<double> target_ci_usd;
  long path_ceiling = 100000;
  long batch_paths = 100;
  ProgressCounter* progress = nullptr;  // counts the paths done (may be null); nothing reads it back
  // Under mpirun (core/parallel/process_group.hpp): each batch's paths split in contiguous
  // blocks over the ranks, the outcomes gathered to rank 0, which alone returns the statistics
  // (the other ranks return a run with only `paths` and `seed` set). Every rank must call.
  bool split_over_processes = false;
  // When not empty: each finished batch's path outcomes are written here, and a batch already
  // written by a run of the same key is read instead of computed (engine/montecarlo/
  // path_checkpoint.hpp; rank 0 alone reads and writes). The folder must exist.
  std::string checkpoint_dir;
};

struct McPlanStats {
  std::string name;
  Summary npv_usd;
  Summary total_nominal_usd;
  std::vector<double> job_means;  // the JobCounters fields, averaged, in job_counter_names() order
  double events_per_path = 0.0;
  std::optional<Summary> goodput;  // per path, for a plan with onprem.spares (engine/ledger/goodput.hpp)
};

struct McComparisonStats {
  std::string plan;
  std::string baseline;
  Summary npv_difference_usd;       // plan - baseline (negative: the plan is cheaper)
  Summary nominal_difference_usd;
  double p_cheaper = 0.0;           // P(NPV difference < 0)
};

struct CheckpointAdvice {
  std::string plan;
  std::string job_class;
  double mean_gpus = 0.0;
  int instances = 0;
  double preemptions_per_hour = 0.0;  // instances x the per-instance rate
  double checkpoint_write_h = 0.0;
  double young_interval_h = 0.0;      // sqrt(2 write_h / rate)
};

struct MonteCarloRun {
  std::uint64_t seed = 0;
  long paths = 0;
  long batch_paths = 0;
  std::optional<double> target_ci_usd;
  double max_comparison_half_width_usd = 0.0;
  ScenarioRun run;  // per-plan means (ledgers, GPU-hours, energy) and comparisons of the means
  std::vector<McPlanStats> plans;
  std::vector<McComparisonStats> comparisons;
  std::vector<CheckpointAdvice> checkpoint_advice;
  std::vector<std::vector<double>> npv_by_path;  // [plan][path]
  long total_events = 0;
  long jobs_per_path = 0;  // path 0
  // Split over MPI ranks, on the root (the run block of the report): the bytes of path outcomes
  // gathered; the seconds it waited, its own block of each batch done, for the last rank's
  // (the ranks' imbalance); and the seconds then spent gathering, reducing and computing the
  // statistics.
  std::size_t gathered_bytes = 0;
  double root_wait_for_ranks_s = 0.0;
  double root_gather_and_statistics_s = 0.0;
  long paths_from_checkpoints = 0;  // with checkpoint_dir: the paths read, not computed
};

const std::vector<std::string>& job_counter_names();
std::size_t job_counter_index(std::string_view name);

// Thrown when --target-ci-usd is not reached within the path ceiling.
class TargetNotReached : public std::runtime_error {
 public:
  TargetNotReached(const std::string& message, double half_width_usd)
      : std::runtime_error(message), half_width_usd_(half_width_usd) {}
  double half_width_usd() const { return half_width_usd_; }

 private:
  double half_width_usd_;
};

// Each plan but the baseline against the baseline, path by path (common random numbers):
// difference = plan - baseline, [plan][path] inputs.
std::vector<McComparisonStats> paired_comparisons(const Scenario& scenario,
                                                  const std::vector<std::vector<double>>& npv_by_path,
                                                  const std::vector<std::vector<double>>& nominal_by_path);

// Runs the scenario's jobs through every plan. Requires scenario.jobs.
MonteCarloRun run_monte_carlo(const Scenario& scenario, const MonteCarloOptions& options);

}  // namespace tco
