// A whole sweep (docs/sweep.md): the scenario and grid checked, the points of a shard evaluated
// block by block on a backend, each block written atomically (so --resume skips what is done),
// and the per-point statistics assembled into a shard document; merging shard documents gives
// the sweep document. The unsplit run is the merge of its one shard, so shards 1/N..N/N merged
// and the unsplit run are the same bytes. Per point and plan, over the paths:
//   NPV: mean, stderr, P5, P50, P95 (core/stats/statistics.hpp); nominal total: mean
//   saving vs baseline = NPV(baseline) - NPV(plan), per path (common random numbers):
//   mean, stderr, P5, P50, P95, P(saving > 0)
//   best plan: the lowest mean NPV (the first in the scenario's order on a tie)
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_grid.hpp"
#include "engine/sweep/sweep_parity_probe.hpp"
#include "engine/sweep/sweep_size.hpp"
#include "models/scenario.hpp"

namespace tco {

inline constexpr const char* kSweepSchema = "tcosim.sweep/2";
inline constexpr const char* kSweepShardSchema = "tcosim.sweep-shard/2";

enum class SweepBackend { automatic, cpu, cuda };

struct SweepOptions {
  std::string scenario_file;
  std::string grid_file;
  std::string catalog_dir;          // replaces the scenario's catalog_dir when not empty
  std::optional<long> paths;        // default: the scenario's monte_carlo.paths
  std::optional<std::uint64_t> seed;  // default: the scenario's monte_carlo.seed
  int threads = 0;                  // 0: all cores
  SweepBackend backend = SweepBackend::automatic;
  int shard_index = 1;              // k of k/N, 1-based
  int shard_count = 1;
  long block_points = 0;            // points per resumable block; 0: about 8e9 path-hours each
  std::string out;                  // the sweep (or shard) document; "-": standard_output
  std::ostream* standard_output = nullptr;  // receives the document when out is "-" (else refused)
  std::string csv;                  // also one CSV row per point and plan, when not empty
  bool resume = false;
  // Work priced before it starts: the estimate is handed to `estimated` (the command prints it)
  // before any point is prepared, and a range of more than `max_points` points is refused
  // (InputError on --max-points, exit 2) unless `yes`.
  long max_points = kDefaultMaxSweepPoints;
  bool yes = false;
  std::function<void(const SweepSize&)> estimated;
  // Called after each computed block is written, with the shard's points done so far (resumed
  // ones included); a test interrupts a run here.
  std::function<void(long points_done)> block_written;
  // Under mpirun (docs/cluster.md): rank 0 checks the inputs and the blocks already written, each
  // block's points split over the ranks (engine/sweep/sweep_over_ranks.hpp), and rank 0 alone
  // writes the blocks and the outputs. Every rank calls run_sweep; the others return a summary
  // without a document.
  bool split_over_processes = false;
  // The device auto and cuda may use, after its parity probe (tests replace it).
  SweepDevice device = cuda_sweep_device();
};

// The checked inputs of a sweep.
struct SweepInputs {
  std::string scenario_file;
  std::string scenario_dir;
  std::string catalog_dir;
  Json scenario_doc;
  Scenario base;  // the scenario as written (validated)
  std::set<std::string> integer_pointers;  // base's integer fields: a grid keeps their values whole
  SweepGrid grid;
  std::string scenario_digest_sha256;
  long paths = 1;
  std::uint64_t seed = 0;
};

SweepInputs load_sweep_inputs(const SweepOptions& options);

// Contiguous point blocks: shard k of N holds points [floor(P (k-1) / N), floor(P k / N)).
struct PointRange {
  long first = 0;
  long end = 0;
  bool operator==(const PointRange&) const = default;
};
PointRange shard_point_range(long points, int shard_index, int shard_count);

// Loads and prepares a grid point (InputError naming the point and its values when its
// scenario is invalid).
SweepPoint prepare_grid_point(const SweepInputs& inputs, long index);

// Per-path values of points [first, end) on a backend, as the statistics see them. `progress`
// (may be null) gets two stages: the points prepared, then the (point, path) items evaluated,
// counted from items_done of items_total (0: of this call's points x paths alone).
struct SweepPointValues {
  long index = 0;
  std::vector<double> grid_values;
  std::vector<double> deterministic_npv_usd;    // per plan
  std::vector<std::vector<double>> npv_usd;     // [plan][path]
  std::vector<std::vector<double>> total_usd;   // [plan][path]
  std::vector<std::vector<double>> tokens_served;  // [plan][path]; empty without a token workload
  std::optional<SweepDeviceMoments> device;     // means and stderrs reduced on the device (CUDA)
};
std::vector<SweepPointValues> evaluate_grid_points(const SweepInputs& inputs, PointRange range, SweepBackend backend,
                                                   int threads, ProgressCounter* progress = nullptr,
                                                   std::int64_t items_total = 0, std::int64_t items_done = 0);

// The host's half of evaluate_grid_points: the points of `range` prepared on `threads` host
// threads and packed into the chunk a backend reads (`progress`: the first stage). run_sweep
// prepares the next block this way, uncounted, while the device evaluates the current one.
struct PreparedGridPoints {
  PointRange range;
  SweepChunk chunk;
  std::vector<std::vector<double>> deterministic_npv_usd;  // [point of the range][plan]
};
PreparedGridPoints prepare_grid_points(const SweepInputs& inputs, PointRange range, int threads,
                                       ProgressCounter* progress = nullptr);
// Points already prepared (points[i] is point range.first + i) packed the same way.
PreparedGridPoints pack_grid_points(PointRange range, const std::vector<SweepPoint>& points);
std::vector<SweepPointValues> evaluate_prepared_points(const SweepInputs& inputs, const PreparedGridPoints& prepared,
                                                       SweepBackend backend, int threads,
                                                       ProgressCounter* progress = nullptr,
                                                       std::int64_t items_total = 0, std::int64_t items_done = 0);
// The prepared points on paths first_path .. first_path + paths - 1 only, on the CPU (a rank's
// block of paths under mpirun): each point's npv_usd and total_usd hold those paths.
std::vector<SweepPointValues> evaluate_prepared_paths_cpu(const SweepInputs& inputs, const PreparedGridPoints& prepared,
                                                          long first_path, long paths, int threads,
                                                          ProgressCounter* progress = nullptr);

// The backend for a request (docs/sweep.md "Parity probe"): cpu -> cpu; automatic -> cuda when a
// device is visible and passes the parity probe (run_parity_probe, its scenarios loaded against
// `catalog_dir`), else cpu; cuda -> InputError without a device, DeviceError when the probe
// fails. `probe` is set whenever the probe ran.
struct SweepBackendChoice {
  SweepBackend backend = SweepBackend::cpu;
  std::optional<ParityProbeResult> probe;
};
SweepBackendChoice choose_sweep_backend(SweepBackend requested, const SweepDevice& device,
                                        const std::string& catalog_dir, int threads);
std::string to_string(SweepBackend backend);

// One point's statistics as the sweep document records them.
Json sweep_point_json(const SweepInputs& inputs, const SweepPointValues& values);

// The identity of a sweep: what every shard of it must share.
Json sweep_identity(const SweepInputs& inputs);
// Everything of a sweep or shard document but its schema, shard and points: what a resumed
// output and each merged shard must match (sweep_identity's, as written).
Json sweep_document_identity(const Json& document);

struct SweepRunSummary {
  Json document;            // the sweep document, or the shard document with --shard
  long points_computed = 0;
  long points_resumed = 0;
  double path_hours = 0.0;  // computed in this run
  double seconds = 0.0;
  SweepBackend backend = SweepBackend::cpu;
  std::optional<ParityProbeResult> probe;  // when a device was visible to auto or cuda
  bool already_complete = false;  // --resume found the output already written
};
// `progress` (may be null) counts (point, path) items over the shard's points, resumed ones
// included, with a stage per block: its points' preparation, then their paths.
SweepRunSummary run_sweep(const SweepOptions& options, ProgressCounter* progress = nullptr);

// What run_sweep checks before its first path: the scenario and grid load, every grid point's
// scenario is built and valid, and the size is within its caps (engine/sweep_size.hpp). Throws
// InputError otherwise; `tcosim validate` checks a grid with this.
void check_sweep(const SweepOptions& options);

// Merges shard documents (name, document) into the sweep document. Throws InputError naming the
// file when they do not belong together or their point ranges overlap or leave a gap.
Json merge_sweep_shards(const std::vector<std::pair<std::string, Json>>& shards);

// The document as written: 2-space indentation, keys sorted, a final newline.
std::string sweep_text(const Json& document);
// One row per point and plan.
std::string sweep_csv(const Json& document);

}  // namespace tco
