// Base-load sizing (SPEC §8; docs/decisions.md): how many on-prem nodes N (and, optionally, how
// many reserved instances R) a hybrid plan should have. Every N of the range is a point of a
// sweep grid over /plans/<k>/onprem_nodes (and /plans/<k>/reserved_instances) evaluated by the
// sweep engine (engine/sweep/sweep_run.hpp: evaluate_grid_points, the Monte Carlo hourly fluid model)
// on the same paths: common random numbers, so the curve's differences between N are paired.
// The grid's scenario holds the sized plan alone (its NPV on a path does not depend on the other
// plans: no draw depends on the plan); the baseline is evaluated once on the same paths.
// Per point, over the paths:
//   NPV: mean, stderr, P10, P50, P90, CVaR95 (the mean of the worst ceil(0.05 n) paths)
//   saving S_p = NPV_baseline,p - NPV_N,p: mean, P10, P90, P(S > 0)
//   NPV_N,p - NPV_best,p against the best point by mean: mean and stderr (paired: how sure the
//   curve is that N is worse than the best)
// Risk measures of a point's NPV (lower is better): mean, p90, cvar95. Per measure:
//   best      = the point with the lowest value (the fewest nodes, then the fewest reserved
//               instances, on a tie)
//   within 1% = every point whose value <= best + 0.01 |best|
// Example: NPVs 10.0, 9.0, 9.05, 9.5 M$ at N = 0..3: best N = 1; within 1 % (<= 9.09): N = 1, 2.
// A site power cap (onprem.site.power_cap_mw) bounds the range: node counts whose fleet, hot
// spares included, draws more than the cap are not evaluated (a range with none that fits is
// an input error naming --nodes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/stats/statistics.hpp"
#include "engine/decisions/sizing_tokens.hpp"
#include "engine/sweep/sweep_run.hpp"

namespace tco {

struct IntRange {
  long from = 0;
  long to = 0;
  long step = 1;

  std::vector<long> values() const;
};

// The largest node or reserved-instance count a sizing range may reach (a scenario's limit too).
inline constexpr long kMaxSizingCount = 100000;

// "A:B" or "A:B:S" of whole numbers (0 <= A <= B <= kMaxSizingCount, S >= 1). Throws
// InputError naming `option`.
IntRange parse_int_range(const std::string& text, const std::string& option);

// A commitment of the sized plan sized jointly with N (`--commitment NAME=FROM:TO[:STEP]`): its
// size field, by kind: a capacity block's `instances`, a take-or-pay's `gpus`, a savings plan's
// `usd_per_hour` (whole dollars). FROM >= 1: each value is a valid commitment (compare with
// no commitment through a plan without it).
struct CommitmentRange {
  std::string name;
  IntRange sizes;
};

// "NAME=FROM:TO[:STEP]". Throws InputError naming `option`.
CommitmentRange parse_commitment_range(const std::string& text, const std::string& option);

struct SizingOptions {
  std::string plan;                 // "" = the first hybrid plan
  IntRange nodes{0, 64, 1};
  // A serving plan's range in owned replicas instead of nodes (`--replicas`): the node counts
  // ceil(R x GPUs per replica / GPUs per node), each once (nodes_for_replicas).
  std::optional<IntRange> replicas;
  std::optional<IntRange> reserved; // reserved instances, jointly with N
  std::optional<CommitmentRange> commitment;  // jointly with N (and R)
  // The refresh's months_after_arrival (`--refresh-months`), jointly with the rest; "never" (no
  // refresh inside the horizon) is evaluated beside the range, on the same paths.
  std::optional<IntRange> refresh_months;
  std::string risk = "mean";        // the measure the recommendation uses: mean, p90, cvar95
  // A scenario of jobs (the discrete-event replay, engine/decisions/replay_sizing.hpp): "all"
  // evaluates every node count, "bracket" searches (engine/decisions/sizing_search.hpp), "auto"
  // searches when the range holds more than kFullGridNodeCounts counts and nothing is sized jointly.
  std::string search = "auto";
  std::optional<long> paths;        // default: the scenario's monte_carlo.paths
  std::optional<std::uint64_t> seed;
  int threads = 0;                  // 0: all cores
  SweepBackend backend = SweepBackend::cpu;
  SweepDevice device = cuda_sweep_device();  // what auto and cuda may use, after its parity probe
  ProgressCounter* progress = nullptr;  // counts (node count, path) items (may be null)
  // Under mpirun (docs/cluster.md): the node counts split in contiguous blocks over the ranks,
  // their per-path values gathered to rank 0 (engine/sweep/sweep_over_ranks.hpp), which alone
  // returns the result; the other ranks return it without points. Every rank must call.
  bool split_over_processes = false;
};

// Per point of a replay sizing, the means per path of the jobs' service, and the limits test
// (engine/decisions/replay_sizing.hpp): no more deadline misses than the baseline's on the same
// paths, for a plan that shifts time none added by shifting (deadline_misses <= its twin's
// without shifting) and, for a plan that never bursts, the mean first wait within its
// scheduling.max_wait_h.
struct ReplayService {
  double waited_gpu_hours = 0.0;
  double mean_first_wait_h = 0.0;
  double unserved_gpu_hours = 0.0;
  double deadline_misses = 0.0;
  double bursts = 0.0;
  bool meets_limits = true;
  // A plan that shifts time only: its twin's misses (the same point, time_shift off, same paths)
  // and deadline_misses minus them.
  std::optional<double> deadline_misses_without_shifting;
  std::optional<double> deadline_misses_added_by_shifting;
};

struct SizingPoint {
  long nodes = 0;
  long reserved_instances = 0;
  long commitment_size = 0;         // with --commitment: the value of its size field
  std::optional<long> refresh_months_after_arrival;  // with --refresh-months: k, nullopt = never
  double deterministic_npv_usd = 0.0;
  Summary npv_usd;
  Summary saving_usd;               // vs the baseline, paired per path
  double probability_saving = 0.0;  // P(S > 0)
  Summary minus_best_mean_usd;      // NPV_N,p - NPV_best,p (best by mean), paired per path
  std::vector<double> npv_by_path_usd;
  std::vector<double> total_by_path_usd;  // nominal, per path (a serving plan's $/M tokens over the paths)
  std::vector<double> tokens_by_path;     // tokens served, per path (a serving plan; the sweep kernel's)
  // The replay only: the service the jobs got at this point (means per path), whether it meets
  // the scenario's limits, and the paired difference from the previous point of the curve.
  std::optional<ReplayService> service;
  std::optional<Summary> minus_previous_usd;  // NPV_N,p - NPV_N_prev,p (previous evaluated N)
  // A serving scenario (workload.tokens): the point's owned replicas and $/M tokens
  // (engine/decisions/sizing_tokens.hpp).
  std::optional<SizingTokens> tokens;
};

struct SizingBest {
  std::string measure;
  std::size_t point = 0;            // index into points
  double value_usd = 0.0;
  std::vector<std::size_t> within_1pct;  // indices into points, in point order
};

struct SizingResult {
  std::string plan;
  int plan_index = 0;               // in the scenario
  std::string baseline;
  std::string risk;
  long paths = 0;
  std::uint64_t seed = 0;
  SweepBackend backend = SweepBackend::cpu;
  std::optional<ParityProbeResult> backend_probe;  // when a device was visible to auto or cuda
  std::vector<long> node_values;      // the range's counts that fit the site (below)
  std::vector<long> replica_values;    // with --replicas: the range asked for, in replicas
  std::optional<long> site_cap_max_nodes;  // with onprem.site.power_cap_mw: floor(cap / peak kW) - spares
  std::vector<long> reserved_values;  // empty without --reserved
  std::string commitment;             // with --commitment: its name, size field, pointer and values
  std::string commitment_field;
  std::string commitment_pointer;
  std::vector<long> commitment_values;
  std::string refresh_pointer;                // with --refresh-months: the plan's months_after_arrival
  std::vector<long> refresh_values;           // k, then the horizon's months for "never"
  std::vector<SizingPoint> points;    // N slowest, then R
  Summary baseline_npv_usd;
  std::vector<SizingBest> best;       // mean, p90, cvar95
  // Mean NPV against CVaR95: the points no other point beats on both (among those that meet the
  // limits), by mean ascending (so CVaR95 descending).
  std::vector<std::size_t> frontier;
  double seconds = 0.0;
  std::string model = "monte_carlo_hourly_fluid";  // or "monte_carlo_discrete_event" (a scenario of jobs)
  std::vector<std::string> randomness;  // the sources of randomness the curve drew, in words
  // The replay only: the limits the best points were chosen under, whether none met them, and
  // the points the best were then chosen among: "meets_limits", else (a plan that shifts time)
  // "no_misses_added_by_shifting" where shifting adds no miss, else "all" (the report says so).
  double max_wait_h = 0.0;
  double baseline_deadline_misses = 0.0;
  bool weighs_misses_added_by_shifting = false;  // the plan shifts time: each point has its twin
  bool limits_met_by_none = false;
  std::string best_chosen_among = "all";
  std::string search = "all";         // "all" or "bracket"
  std::vector<long> evaluated_order;  // node counts in the order they were evaluated
  long search_rounds = 1;

  const SizingBest& best_for(const std::string& measure) const;
};

// The value of a risk measure on a summary of NPVs.
double risk_value(const Summary& npv, const std::string& measure);
inline const char* const kRiskMeasures[] = {"mean", "p90", "cvar95"};

// Per risk measure, the best of the points' NPVs (the first on a tie) and those within 1% of it,
// among the eligible points (all when `eligible` is empty).
std::vector<SizingBest> best_per_measure(const std::vector<Summary>& npv_by_point,
                                         const std::vector<bool>& eligible = {});

// The efficient frontier of mean against CVaR95: indices of the eligible points (all when
// `eligible` is empty) that no other eligible point beats on both, by mean ascending (then CVaR95,
// then index). Example: (mean, CVaR95) = (10, 20), (11, 15), (12, 16), (13, 14): 0, 1, 3.
std::vector<std::size_t> efficient_frontier(const std::vector<Summary>& npv_by_point,
                                            const std::vector<bool>& eligible = {});

// The sizing's frame before anything is evaluated: the plan, its index, the baseline, the paths,
// the seed and the ranges (node counts that fit the site, reserved, commitment and refresh
// values, with their pointers). Input errors name the option.
SizingResult sizing_frame(const Scenario& scenario, const SizingOptions& options);

// The node counts holding R replicas of the plan's serving profile for each R of `replicas`:
// ceil(R x GPUs per replica / GPUs per node), a count met twice kept once. Example: 2-GPU
// replicas on 8-GPU nodes, R = 0..12 step 2: 0, 1, 1, 2, 2, 3, 3 -> 0, 1, 2, 3. Throws InputError
// naming --replicas for a scenario without token demand or a plan that owns no nodes.
std::vector<long> nodes_for_replicas(const Scenario& scenario, const Plan& plan, const IntRange& replicas);

// Sizes a plan of a scenario document (loaded by load_scenario_json; `file` and `dir` as there).
SizingResult optimize_sizing(const Json& document, const std::string& file, const std::string& dir,
                             const std::string& catalog_dir, const SizingOptions& options);

}  // namespace tco
