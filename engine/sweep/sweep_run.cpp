#include "engine/sweep/sweep_run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/parallel_for_index.hpp"
#include "core/io/input_snapshot.hpp"
#include "core/io/integer_fields.hpp"
#include "core/parallel/shared_inputs.hpp"
#include "core/io/sha256.hpp"
#include "core/stats/statistics.hpp"
#include "core/io/atomic_file.hpp"
#include "engine/sweep/sweep_shard_check.hpp"
#include "engine/sweep/sweep_size.hpp"
#include "core/io/finite_figures.hpp"
#include "models/scenario_inputs.hpp"
#include "core/io/output_set.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"
#include "core/parallel/test_abort_hook.hpp"
#include "engine/sweep/sweep_over_ranks.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot read the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string describe_values(const SweepGrid& grid, const std::vector<double>& values) {
  std::string out;
  for (std::size_t k = 0; k < values.size(); ++k)
    out += fmt::format("{}{} = {}", k ? ", " : "", grid.fields[k].pointer, values[k]);
  return out;
}

Json read_json_or_null(const std::string& path) {
  try {
    return parse_json_text(read_bytes(path), path);
  } catch (const std::exception&) {
    return Json();
  }
}


}  // namespace

std::string to_string(SweepBackend backend) {
  switch (backend) {
    case SweepBackend::automatic: return "auto";
    case SweepBackend::cpu: return "cpu";
    case SweepBackend::cuda: return "cuda";
  }
  return "?";
}

SweepBackendChoice choose_sweep_backend(SweepBackend requested, const SweepDevice& device,
                                        const std::string& catalog_dir, int threads) {
  SweepBackendChoice choice;
  if (requested == SweepBackend::cpu) return choice;
  std::string why;
  const int devices = device.count(&why);
  if (devices == 0) {
    if (requested == SweepBackend::automatic) return choice;
    throw InputError("--backend", "", "cuda was asked for, but " + why + "; use --backend cpu or auto");
  }
  choice.probe = run_parity_probe(catalog_dir, device, threads);
  if (choice.probe->passed) {
    choice.backend = SweepBackend::cuda;
    return choice;
  }
  if (requested == SweepBackend::cuda)
    throw DeviceError("--backend cuda: the device differs from the CPU on the parity probe (docs/sweep.md), " +
                      parity_probe_words(*choice.probe) + "; use --backend cpu");
  return choice;
}

SweepInputs load_sweep_inputs(const SweepOptions& o) {
  SweepInputs in;
  in.scenario_file = o.scenario_file;
  const std::string dir = fs::path(o.scenario_file).parent_path().string();
  in.scenario_dir = dir.empty() ? "." : dir;
  in.catalog_dir = o.catalog_dir;
  in.scenario_doc = read_json_file(o.scenario_file);
  in.scenario_digest_sha256 = sha256_hex(read_input_file(o.scenario_file).value_or(std::string()));
  {
    IntegerFieldRecorder integer_fields(o.scenario_file);
    in.base = load_scenario_json(in.scenario_doc, o.scenario_file, in.scenario_dir, o.catalog_dir);
    in.integer_pointers = integer_fields.pointers();
  }
  in.paths = o.paths.value_or(in.base.monte_carlo.paths);
  if (in.paths < 1 || in.paths > 100000000)
    throw InputError("--paths", "", fmt::format("expected 1 to 100,000,000 paths, found {}", in.paths));
  in.seed = o.seed.value_or(in.base.monte_carlo.seed);
  in.grid = read_sweep_grid(o.grid_file, in.scenario_doc, o.scenario_file, in.integer_pointers);
  return in;
}

PointRange shard_point_range(long points, int k, int n) {
  // points <= 1e9 and i <= N < 2^31: the product fits in 64 bits.
  const auto at = [&](int i) { return points * static_cast<long>(i) / n; };
  return {at(k - 1), at(k)};
}

SweepPoint prepare_grid_point(const SweepInputs& in, long index) {
  const Json doc = grid_point_document(in.grid, in.scenario_doc, index);
  try {
    const Scenario s = load_scenario_json(doc, in.scenario_file, in.scenario_dir, in.catalog_dir);
    return prepare_sweep_point(s, in.seed);
  } catch (const InputError& e) {
    throw InputError(in.grid.file, "",
                     fmt::format("grid point {} ({}) is not a valid scenario: {}", index,
                                 describe_values(in.grid, in.grid.point_values(index)), e.what()));
  } catch (const ModelError& e) {
    throw InputError(in.grid.file, "",
                     fmt::format("grid point {} ({}) cannot be evaluated: {}", index,
                                 describe_values(in.grid, in.grid.point_values(index)), e.what()));
  }
}

namespace {

double prepared_point_bytes(const SweepPoint& p) {
  return static_cast<double>(p.data.size() * sizeof(double) + p.plans.size() * sizeof(SweepPlanParams));
}

// What checking a range found: the points per block, and the first block's points prepared when
// the check could keep them all.
struct CheckedRange {
  long block_points = 0;
  std::optional<PreparedGridPoints> first_block;
};

// Every point of the range is built and validated before the first path runs (the failing point
// with the lowest index is the one reported), and the size is checked against its caps with the
// largest prepared point's bytes. The points are kept while they fit in half a block's memory cap
// (the other half is their chunk), so that the first block, often the only one, is not prepared
// a second time (`perf`: nearly half of an 8-point sweep's time on one path went to preparing
// its points twice).
CheckedRange checked_block_points(const SweepInputs& in, PointRange range, long requested_block, int threads,
                                  bool keep_first_block, ProgressCounter* progress = nullptr) {
  const auto size = [&](long block, double bytes_per_point) {
    return estimate_sweep_size(range.end - range.first, in.paths, static_cast<int>(in.base.plans.size()),
                               in.base.horizon_hours(), block, bytes_per_point);
  };
  check_sweep_size(size(1, 0.0), in.grid.file);  // points and path-hours, before preparing any point
  const long count = range.end - range.first;
  std::vector<double> bytes(static_cast<std::size_t>(std::max(0L, count)));
  std::vector<std::optional<SweepPoint>> kept(bytes.size());
  std::atomic<double> kept_bytes{0.0};
  // Counted, so that the bar moves within a second (49,500 points once took 40 s here, silent).
  progress_begin(progress, count, "points checked");
  parallel_for_index(
      count, threads,
      [&](long i) {
        SweepPoint p = prepare_grid_point(in, range.first + i);
        bytes[i] = prepared_point_bytes(p);
        if (keep_first_block && kept_bytes.fetch_add(bytes[i]) + bytes[i] <= kMaxSweepBlockBytes / 2.0)
          kept[i] = std::move(p);
      },
      progress);
  const double bytes_per_point = bytes.empty() ? 0.0 : *std::max_element(bytes.begin(), bytes.end());
  const double path_hours_per_point = static_cast<double>(in.paths) * static_cast<double>(in.base.horizon_hours());
  CheckedRange checked;
  checked.block_points =
      requested_block > 0 ? requested_block : default_block_points(path_hours_per_point, bytes_per_point);
  check_sweep_size(size(checked.block_points, bytes_per_point), in.grid.file);

  const long first_block = std::min(count, checked.block_points);
  const auto is_kept = [](const std::optional<SweepPoint>& p) { return p.has_value(); };
  if (keep_first_block && std::all_of(kept.begin(), kept.begin() + first_block, is_kept)) {
    std::vector<SweepPoint> points;
    points.reserve(static_cast<std::size_t>(first_block));
    for (long i = 0; i < first_block; ++i) points.push_back(std::move(*kept[i]));
    kept.clear();
    checked.first_block = pack_grid_points({range.first, range.first + first_block}, points);
  }
  return checked;
}

}  // namespace

namespace {

// Work priced before it starts (issue 43): the estimate from points x paths x hours, before any
// point is prepared, and the --max-points refusal.
void price_sweep(const SweepOptions& o, const SweepInputs& in, PointRange range) {
  const long count = range.end - range.first;
  const long horizon_h = in.base.horizon_hours();
  const double bytes_per_point = typical_prepared_point_bytes(horizon_h);
  const long block = o.block_points > 0 ? o.block_points
                                        : default_block_points(static_cast<double>(in.paths) * static_cast<double>(horizon_h),
                                                               bytes_per_point);
  const SweepSize estimate =
      estimate_sweep_size(count, in.paths, static_cast<int>(in.base.plans.size()), horizon_h, block, bytes_per_point);
  if (o.estimated) o.estimated(estimate);
  if (count > o.max_points && !o.yes)
    throw InputError("--max-points", "",
                     fmt::format("the sweep has {} points, more than --max-points {} ({}); run it with --yes, or a "
                                 "larger --max-points, or split it with --shard",
                                 count, o.max_points, sweep_size_words(estimate, resolved_thread_count(o.threads))));
}

}  // namespace

void check_sweep(const SweepOptions& options) {
  const SweepInputs in = load_sweep_inputs(options);
  checked_block_points(in, {0, in.grid.points()}, options.block_points, options.threads, false);
}

PreparedGridPoints pack_grid_points(PointRange range, const std::vector<SweepPoint>& points) {
  PreparedGridPoints prepared;
  prepared.range = range;
  prepared.chunk = make_sweep_chunk(points);
  prepared.deterministic_npv_usd.reserve(points.size());
  for (const SweepPoint& p : points) prepared.deterministic_npv_usd.push_back(p.deterministic_npv_usd);
  return prepared;
}

PreparedGridPoints prepare_grid_points(const SweepInputs& in, PointRange range, int threads, ProgressCounter* progress) {
  const long count = range.end - range.first;
  std::vector<SweepPoint> points(static_cast<std::size_t>(std::max(0L, count)));
  // Points are prepared in parallel; the failing point with the lowest index is the one reported.
  progress_begin(progress, count, "points prepared");
  parallel_for_index(count, threads, [&](long i) { points[i] = prepare_grid_point(in, range.first + i); }, progress);
  return pack_grid_points(range, points);
}

std::vector<SweepPointValues> evaluate_grid_points(const SweepInputs& in, PointRange range, SweepBackend backend,
                                                   int threads, ProgressCounter* progress, std::int64_t items_total,
                                                   std::int64_t items_done) {
  return evaluate_prepared_points(in, prepare_grid_points(in, range, threads, progress), backend, threads, progress,
                                  items_total, items_done);
}

namespace {

// Each prepared point's values from the backend's: `values` holds values.paths paths.
std::vector<SweepPointValues> point_values(const SweepInputs& in, const PreparedGridPoints& prepared,
                                           const SweepPathValues& values, const SweepDeviceMoments* moments) {
  const SweepChunk& chunk = prepared.chunk;
  std::vector<SweepPointValues> out;
  out.reserve(chunk.points.size());
  for (std::size_t i = 0; i < chunk.points.size(); ++i) {
    const SweepPointHeader& pt = chunk.points[i];
    SweepPointValues v;
    v.index = prepared.range.first + static_cast<long>(i);
    v.grid_values = in.grid.point_values(v.index);
    v.deterministic_npv_usd = prepared.deterministic_npv_usd[i];
    v.npv_usd.assign(pt.plan_count, std::vector<double>(values.paths));
    v.total_usd.assign(pt.plan_count, std::vector<double>(values.paths));
    const bool tokens = pt.tokens_offset >= 0 && !values.tokens_served.empty();
    if (tokens) v.tokens_served.assign(pt.plan_count, std::vector<double>(values.paths));
    for (int j = 0; j < pt.plan_count; ++j) {
      for (long k = 0; k < values.paths; ++k) {
        v.npv_usd[j][k] = values.npv_usd[values.index(pt, k, j)];
        v.total_usd[j][k] = values.total_usd[values.index(pt, k, j)];
        if (tokens) v.tokens_served[j][k] = values.tokens_served[values.index(pt, k, j)];
      }
    }
    if (moments != nullptr) {
      SweepDeviceMoments d;
      const auto slice = [&](const std::vector<double>& all) {
        return std::vector<double>(all.begin() + pt.first_plan, all.begin() + pt.first_plan + pt.plan_count);
      };
      d.npv_mean_usd = slice(moments->npv_mean_usd);
      d.npv_stderr_usd = slice(moments->npv_stderr_usd);
      d.saving_mean_usd = slice(moments->saving_mean_usd);
      d.saving_stderr_usd = slice(moments->saving_stderr_usd);
      v.device = std::move(d);
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

std::vector<SweepPointValues> evaluate_prepared_points(const SweepInputs& in, const PreparedGridPoints& prepared,
                                                       SweepBackend backend, int threads, ProgressCounter* progress,
                                                       std::int64_t items_total, std::int64_t items_done) {
  const long count = prepared.range.end - prepared.range.first;
  progress_begin(progress, items_total > 0 ? items_total : static_cast<std::int64_t>(count) * in.paths,
                 "points x paths", items_done);
  if (backend != SweepBackend::cuda)
    return point_values(in, prepared, run_sweep_cpu(prepared.chunk, in.paths, threads, progress), nullptr);
  SweepDeviceMoments moments;
  return point_values(in, prepared, run_sweep_cuda(prepared.chunk, in.paths, &moments, progress), &moments);
}

std::vector<SweepPointValues> evaluate_prepared_paths_cpu(const SweepInputs& in, const PreparedGridPoints& prepared,
                                                          long first_path, long paths, int threads,
                                                          ProgressCounter* progress) {
  progress_begin(progress, static_cast<std::int64_t>(prepared.range.end - prepared.range.first) * paths,
                 "points x paths");
  return point_values(in, prepared, run_sweep_cpu(prepared.chunk, paths, threads, progress, first_path), nullptr);
}


namespace {

// A block of points and its file in OUT.parts/; `points` holds them once computed or resumed.
struct SweepBlock {
  PointRange range;
  fs::path file;
  Json points;
};

// A failure before the first block is written leaves no folder that this run created; blocks
// already written stay for --resume (a run stopped half-way is what they are for).
struct RemovePartsIfEmpty {
  fs::path path;
  bool armed = false;
  ~RemovePartsIfEmpty() {
    std::error_code ignored;
    if (armed && fs::is_empty(path, ignored)) fs::remove(path, ignored);
  }
};

}  // namespace

SweepRunSummary run_sweep(const SweepOptions& o, ProgressCounter* progress) {
  const auto started = std::chrono::steady_clock::now();
  const bool split = o.split_over_processes && process_count() > 1;
  const bool root = !split || is_root_process();
  SweepRunSummary summary;
  // The document and the CSV are written together, or neither (the blocks in OUT.parts/ stay
  // for --resume).
  // "-" (--out -): the document goes to the standard output, and the blocks are kept in memory
  // only (no OUT.parts/ folder, so no --resume and no shard).
  const bool to_stdout = OutputSet::is_stdout(o.out);
  OutputSet outputs = o.standard_output ? OutputSet(*o.standard_output) : OutputSet();
  SweepInputs in;
  Json identity, shard_meta;
  PointRange range;
  bool whole = true;
  long block = 0;
  std::optional<PreparedGridPoints> ready;  // the first block's points, when the root's check kept them
  std::vector<SweepBlock> blocks;
  const fs::path parts = to_stdout ? fs::path() : fs::path(o.out + ".parts");
  RemovePartsIfEmpty remove_parts_on_error{parts};

  // Everything checked before the first path, by the root alone: the options, the inputs, every
  // point of the range, the caps, the blocks already written (--resume). The other ranks learn
  // the blocks to compute; "complete" when --resume found the output already written. The input
  // files the root read are then shared, and the other ranks load them from memory.
  InputRecording recording;
  const std::string schedule = root_computes(
      [&]() -> std::string {
        if (o.shard_count < 1 || o.shard_index < 1 || o.shard_index > o.shard_count)
          throw InputError("--shard", "",
                           fmt::format("expected k/N with 1 <= k <= N, found {}/{}", o.shard_index, o.shard_count));
        if (o.out.empty()) throw InputError("--out", "", "expected a file to write the sweep to");
        if (to_stdout && o.shard_count > 1)
          throw InputError("--out", "", "expected a file for the shard (--shard writes its part there for tcosim merge)");
        if (to_stdout && o.resume)
          throw InputError("--resume", "", "expected --out FILE: a sweep written to the standard output keeps no blocks "
                                           "to resume");
        outputs.add_file("--out", o.out, true);
        outputs.add_file("--csv", o.csv);
        outputs.add_input("the grid", o.grid_file);
        in = load_sweep_inputs(o);
        add_scenario_inputs(outputs, in.base);
        identity = sweep_identity(in);
        const long points = in.grid.points();
        if (o.shard_count > points)
          throw InputError("--shard", "", fmt::format("expected at most as many shards as grid points ({}), found {}",
                                                      points, o.shard_count));
        range = shard_point_range(points, o.shard_index, o.shard_count);
        shard_meta = {{"index", o.shard_index}, {"count", o.shard_count}, {"first_point", range.first},
                      {"end_point", range.end}};
        whole = o.shard_count == 1;

        if (o.resume && fs::exists(o.out)) {
          const Json done = read_json_or_null(o.out);
          if (done.is_object() && sweep_document_identity(done) == identity &&
              (whole ? done.value("schema", Json()) == Json(kSweepSchema)
                     : done.value("schema", Json()) == Json(kSweepShardSchema) &&
                           done.value("shard", Json()) == shard_meta)) {
            summary.document = done;
            if (!o.csv.empty()) outputs.stage(o.csv, sweep_csv(done));
            outputs.commit();
            summary.already_complete = true;
            summary.points_resumed = range.end - range.first;
            return "complete";
          }
        }

        price_sweep(o, in, range);
        CheckedRange checked = checked_block_points(in, range, o.block_points, o.threads, true, progress);
        block = checked.block_points;
        ready = std::move(checked.first_block);
        // Every input checked: a device is trusted only after its parity probe. Under mpirun the
        // root's choice holds for every rank (the blocks split by points on CUDA, by paths on the CPU).
        const SweepBackendChoice choice = choose_sweep_backend(o.backend, o.device, in.base.catalog_dir, o.threads);
        summary.backend = choice.backend;
        summary.probe = choice.probe;
        if (!to_stdout) {
          if (!o.resume) fs::remove_all(parts);
          std::error_code ec;
          remove_parts_on_error.armed = !fs::exists(parts, ec);
          fs::create_directories(parts, ec);
          if (ec) throw InputError(parts.string(), "", "cannot create the folder for the sweep's blocks: " + ec.message());
        }

        // Blocks already written (--resume) are kept when they belong to this very sweep.
        Json to_compute = Json::array();
        for (long b = range.first; b < range.end; b += block) {
          const long e = std::min(range.end, b + block);
          SweepBlock blk{{b, e}, to_stdout ? fs::path() : parts / fmt::format("points-{}-{}.json", b, e), Json()};
          if (o.resume && fs::exists(blk.file)) {
            const Json saved = read_json_or_null(blk.file.string());
            if (saved.is_object() && saved.value("schema", Json()) == Json(kSweepSchema) &&
                saved.value("identity", Json()) == identity && saved.value("first_point", Json()) == Json(b) &&
                saved.value("end_point", Json()) == Json(e) && saved.contains("points") && saved["points"].is_array() &&
                static_cast<long>(saved["points"].size()) == e - b)
              blk.points = saved["points"];
          }
          if (blk.points.is_null()) to_compute.push_back({b, e});
          else summary.points_resumed += e - b;
          blocks.push_back(std::move(blk));
        }
        if (ready && (blocks.empty() || !blocks.front().points.is_null())) ready.reset();  // resumed
        return Json{{"backend", to_string(summary.backend)}, {"blocks", to_compute}}.dump();
      },
      split);
  if (split) share_root_inputs(recording);
  if (schedule == "complete") return summary;
  if (!root) {
    // Rank 0 found the inputs good: this rank loads them too (the bytes rank 0 read,
    // docs/cluster.md) and computes its share of the blocks rank 0 listed.
    in = load_sweep_inputs(o);
    const Json plan = parse_json_text(schedule, "the sweep's schedule");
    summary.backend = plan.at("backend") == "cuda" ? SweepBackend::cuda : SweepBackend::cpu;
    for (const Json& r : plan.at("blocks"))
      blocks.push_back({{r.at(0).get<long>(), r.at(1).get<long>()}, fs::path(), Json()});
  }
  const double path_hours_per_point = static_cast<double>(in.paths) * static_cast<double>(in.base.horizon_hours());
  const std::int64_t items_total = static_cast<std::int64_t>(range.end - range.first) * in.paths;
  std::int64_t items_done = static_cast<std::int64_t>(summary.points_resumed) * in.paths;
  double path_hours_done = 0.0;

  // With the CUDA backend the host prepares the next block on its cores while the device
  // evaluates this one (the preparation is 40 to 60% of a whole command otherwise;
  // docs/performance.md). On the CPU both would compete for the same cores; over MPI ranks,
  // each rank prepares its share of a block in turn.
  const bool overlap = summary.backend == SweepBackend::cuda && !split;
  std::future<PreparedGridPoints> next_prepared;
  const auto kept_by_check = [&](PointRange r) { return ready && ready->range == r; };
  const auto start_preparing_after = [&](std::size_t done) {
    for (std::size_t b = done; b < blocks.size(); ++b)
      if (blocks[b].points.is_null() && !kept_by_check(blocks[b].range)) {
        next_prepared = std::async(std::launch::async, prepare_grid_points, std::cref(in), blocks[b].range, o.threads,
                                   nullptr);
        return;
      }
  };
  if (overlap) start_preparing_after(0);

  bool first_block = true;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    SweepBlock& blk = blocks[b];
    if (!blk.points.is_null()) continue;
    const long n = blk.range.end - blk.range.first;
    std::vector<SweepPointValues> values;
    const PreparedGridPoints* kept = kept_by_check(blk.range) ? &*ready : nullptr;
    if (overlap) {
      const PreparedGridPoints prepared = kept ? std::move(*ready) : next_prepared.get();
      if (!kept) start_preparing_after(b + 1);
      values = evaluate_prepared_points(in, prepared, summary.backend, o.threads, progress, items_total, items_done);
    } else {
      values = evaluate_grid_points_over_ranks(in, blk.range, summary.backend, o.threads, split, progress,
                                               split ? 0 : items_total, items_done, kept);
    }
    if (kept) ready.reset();
    // The root computes the points' statistics and writes the block; the other ranks go on once
    // it is on disk (or end with the root's exit code when it is not).
    root_does([&] {
      blk.points = Json::array();
      for (const auto& v : values) blk.points.push_back(sweep_point_json(in, v));
      require_finite_figures(blk.points, in.scenario_file);
      const Json saved = {{"schema", kSweepSchema},
                          {"identity", identity},
                          {"first_point", blk.range.first},
                          {"end_point", blk.range.end},
                          {"points", blk.points}};
      if (!blk.file.empty()) write_file_atomically(blk.file.string(), sweep_text(saved));
    }, split);
    summary.points_computed += n;
    path_hours_done += static_cast<double>(n) * path_hours_per_point;
    items_done += static_cast<std::int64_t>(n) * in.paths;
    if (o.block_written) o.block_written(static_cast<long>(items_done / in.paths));
    if (split && first_block) abort_if_test_asks_after_block();
    first_block = false;
  }
  summary.path_hours = path_hours_done;
  if (!root) return summary;

  Json all_points = Json::array();
  for (SweepBlock& blk : blocks)
    for (auto& p : blk.points) all_points.push_back(std::move(p));
  Json shard = identity;
  shard["schema"] = kSweepShardSchema;
  shard["shard"] = shard_meta;
  shard["points"] = std::move(all_points);
  summary.document = whole ? merge_sweep_shards({{o.out, shard}}) : shard;
  outputs.stage(o.out, sweep_text(summary.document));
  if (!o.csv.empty()) outputs.stage(o.csv, sweep_csv(summary.document));
  outputs.commit();
  remove_parts_on_error.armed = false;
  std::error_code ec;
  if (!to_stdout) fs::remove_all(parts, ec);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

}  // namespace tco
