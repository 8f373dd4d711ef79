// Speed and memory of reading the canonical job trace (docs/performance.md, "Trace ingest
// (issue 26)"). Generates a trace of N jobs (bench/generated_trace.hpp; default 2,000,000, about
// 98 MB) in the temporary folder, then measures:
//   1. CSV ingest: every job through TraceReader::next (the streaming reader the run uses),
//      in MB/s of CSV and rows/s, best of --repeat passes, and the peak resident memory;
//   2. the binary column file (models/workload/trace_binary.hpp): the CSV's SHA-256, the
//      parse into columns, the write, and the map with its check of every value, each timed;
//      then the load a run does (load_trace) with an empty cache and with the file cached;
//   3. the replay from the mapped file: one hybrid plan (as bench_des's measurement 3), the
//      Monte Carlo run (catalog included) with 1 path and with --paths N, so the per-path time
//      is (T_N - T_1) / (N - 1), against the load alone.
//   bench_trace_ingest [--jobs N] [--repeat N] [--paths N] [--skip 123] [--keep-file]
// Run it from the repository root of a Release build: build/bench/bench_trace_ingest.
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "core/memory/freed_memory_reuse.hpp"
#include "core/parallel_for_index.hpp"

#include "process_usage.hpp"
#include "core/io/sha256.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "models/scenario.hpp"
#include "models/workload/trace_binary.hpp"
#include "models/workload/trace_cache.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/workload/trace_table.hpp"

#include "generated_trace.hpp"

using tco::bench::peak_rss_mib;
using tco::bench::thread_cpu_s;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }



// Seconds of the fastest of `repeat` passes of the streaming reader; `rows` gets the job count,
// cpu_s the CPU seconds of the pass with the least.
double csv_ingest_s(const std::string& path, int repeat, long& rows, double& cpu_s) {
  double best_s = 1e300;
  cpu_s = 1e300;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = Clock::now();
    const double c0 = thread_cpu_s();
    tco::TraceReader reader(path);
    tco::Job job;
    long n = 0;
    double checksum_h = 0.0;  // uses every job, so the loop cannot be dropped
    while (reader.next(job)) {
      ++n;
      checksum_h += job.duration_h;
    }
    best_s = std::min(best_s, seconds_since(t0));
    cpu_s = std::min(cpu_s, thread_cpu_s() - c0);
    rows = n;
    if (checksum_h < 0.0) std::printf("impossible\n");
  }
  return best_s;
}

struct ParseTiming {
  double first_s = 0.0, best_s = 1e300, best_cpu_s = 1e300;
  tco::TraceTable table;
};

// read_trace_table on `threads` threads, `repeat` times; the last pass's table is kept.
ParseTiming parse_into_columns(const std::string& csv, int threads, int repeat) {
  ParseTiming t;
  for (int r = 0; r < repeat; ++r) {
    t.table = tco::TraceTable();
    const auto t0 = Clock::now();
    const double c0 = tco::bench::process_cpu_s();
    t.table = tco::read_trace_table(csv, threads);
    const double s = seconds_since(t0);
    if (r == 0) t.first_s = s;
    t.best_s = std::min(t.best_s, s);
    t.best_cpu_s = std::min(t.best_cpu_s, tco::bench::process_cpu_s() - c0);
  }
  return t;
}

void binary_file(const std::string& csv, const std::string& dir, double csv_mb, int repeat) {
  auto t0 = Clock::now();
  double c0 = thread_cpu_s();
  const std::string digest = tco::sha256_file_hex(csv);
  const double hash_s = seconds_since(t0), hash_cpu_s = thread_cpu_s() - c0;
  // Parse into columns on one thread, then in parts on every core (models/workload/trace_table.cpp).
  // The first pass fills memory the process never touched (on this VM the host backs such pages
  // at the first touch, which costs more than the parse: docs/performance.md); the best of
  // `repeat` passes is the parse's own speed.
  const int cores = tco::resolved_thread_count(0);
  const ParseTiming one = parse_into_columns(csv, 1, repeat);
  const ParseTiming parts = parse_into_columns(csv, cores, repeat);
  if (parts.table.rows() != one.table.rows()) throw std::runtime_error("the parts gave another row count");
  const auto line = [&](const ParseTiming& t) {
    return fmt::format("first {:.3f} s ({:.0f} MB/s), best of {} {:.3f} s ({:.0f} MB/s wall; {:.0f} MB per CPU-second)",
                       t.first_s, csv_mb / t.first_s, repeat, t.best_s, csv_mb / t.best_s, csv_mb / t.best_cpu_s);
  };
  fmt::print("2. parse in parts 1 thread: {}\n                  {} threads: {}\n", line(one), cores, line(parts));
  const tco::TraceTable& table = parts.table;
  const std::string bin = dir + "/trace.tcotrace";
  t0 = Clock::now();
  tco::write_trace_binary(bin, table, digest);
  const double write_s = seconds_since(t0);
  t0 = Clock::now();
  const tco::OpenedTraceBinary opened = tco::open_trace_binary(bin, digest);
  const double open_s = seconds_since(t0);
  if (opened.status != tco::TraceBinaryStatus::ok) throw std::runtime_error("the binary trace did not open");
  fmt::print("   binary file    {:.1f} MB for {} jobs; SHA-256 of the CSV {:.3f} s ({:.0f} MB/s; {:.0f} MB per "
             "CPU-second), write {:.3f} s, map and check {:.3f} s\n",
             static_cast<double>(std::filesystem::file_size(bin)) / 1e6, table.rows(), hash_s, csv_mb / hash_s,
             csv_mb / hash_cpu_s, write_s, open_s);
  std::filesystem::remove(bin);
  tco::TraceCacheOptions cache;
  cache.cache_dir = dir + "/cache";
  t0 = Clock::now();
  const tco::LoadedTrace cold = tco::load_trace(csv, cache);
  const double cold_s = seconds_since(t0);
  t0 = Clock::now();
  const tco::LoadedTrace warm = tco::load_trace(csv, cache);
  const double warm_s = seconds_since(t0);
  fmt::print("   load_trace     first run (hash, parse, write the cache) {:.3f} s; next runs (hash, map, check) {:.3f} s "
             "[{}]\n",
             cold_s, warm_s, warm.origin == tco::TraceOrigin::cache ? "mapped from the cache" : "NOT from the cache");
}

// One hybrid plan over the trace (not tiled), from the mapped cache file written by measurement 2.
void replay(const std::string& dir, long paths) {
  tco::Json doc = tco::Json::parse(R"({
    "name": "bench-trace-replay", "start": "2026-01-01", "horizon_months": 36, "discount_rate_per_year": 0.08,
    "jobs": {"trace": "trace.csv", "tile": false},
    "cloud": {"offer": "aws/p5.48xlarge/us-east-1", "spot": {"preemptions_per_instance_hour": 0.05}},
    "onprem": {"server": "hgx-h100-8", "power": {"region": "us-virginia"}, "cooling": "rear-door"},
    "plans": [{"name": "buy-300-burst", "kind": "hybrid", "onprem_nodes": 300, "spot_share": 1.0}]
  })");
  doc["catalog_dir"] = std::filesystem::absolute("pricing-data").string();
  const tco::Scenario s = tco::load_scenario_json(doc, dir + "/bench.json", dir);
  ::setenv("TCOSIM_CACHE_DIR", (dir + "/cache").c_str(), 1);
  double seconds[2] = {0.0, 0.0};
  long events[2] = {0, 0};
  const long runs[2] = {1, paths};
  for (int k = 0; k < 2; ++k) {
    tco::MonteCarloOptions o;
    o.paths = runs[k];
    o.threads = 1;
    const auto t0 = Clock::now();
    const tco::MonteCarloRun mc = tco::run_monte_carlo(s, o);
    seconds[k] = seconds_since(t0);
    events[k] = mc.total_events;
  }
  const double per_path_s = paths > 1 ? (seconds[1] - seconds[0]) / static_cast<double>(paths - 1) : seconds[0];
  fmt::print("3. replay         1 path {:.3f} s ({} events), {} paths {:.3f} s: {:.3f} s a path, one thread; the load "
             "(mapped) is {:.1f}% of a 100-path run\n",
             seconds[0], events[0], paths, seconds[1], per_path_s,
             100.0 * (seconds[0] - per_path_s) / ((seconds[0] - per_path_s) + 100.0 * per_path_s));
}

}  // namespace

int main(int argc, char** argv) {
  tco::keep_freed_memory_for_reuse();  // as tcosim does (cli/main.cpp)
  long jobs = 2'000'000;
  int repeat = 3;
  long paths = 3;
  std::string skip;
  bool keep_file = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = std::atol(argv[++i]);
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--paths") && i + 1 < argc) paths = std::max(1L, std::atol(argv[++i]));
    else if (!std::strcmp(argv[i], "--skip") && i + 1 < argc) skip = argv[++i];
    else if (!std::strcmp(argv[i], "--keep-file")) keep_file = true;
    else {
      std::fprintf(stderr, "usage: bench_trace_ingest [--jobs N] [--repeat N] [--paths N] [--skip 123] [--keep-file]\n");
      return 2;
    }
  }
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "tcosim-bench-ingest";
  fs::create_directories(dir);
  const std::string csv = (dir / "trace.csv").string();
  auto t0 = Clock::now();
  tco::bench::write_generated_trace(csv, jobs);
  const double write_s = seconds_since(t0);
  const double csv_mb = static_cast<double>(fs::file_size(csv)) / 1e6;
  fmt::print("trace             {} jobs, {:.1f} MB CSV (written in {:.1f} s, {})\n", jobs, csv_mb, write_s, csv);

  if (skip.find('1') == std::string::npos) {
    long rows = 0;
    double cpu_s = 0.0;
    const double ingest_s = csv_ingest_s(csv, repeat, rows, cpu_s);
    fmt::print("1. CSV ingest     {:.3f} s (best of {}): {:.0f} MB/s, {:.3g} rows/s; {:.3f} CPU-s: {:.0f} MB and {:.3g} "
               "rows per CPU-second; peak RSS {:.0f} MiB\n",
               ingest_s, repeat, csv_mb / ingest_s, static_cast<double>(rows) / ingest_s, cpu_s, csv_mb / cpu_s,
               static_cast<double>(rows) / cpu_s, peak_rss_mib());
  }
  if (skip.find('2') == std::string::npos) binary_file(csv, dir.string(), csv_mb, repeat);
  if (skip.find('3') == std::string::npos) replay(dir.string(), paths);
  fmt::print("peak RSS          {:.0f} MiB\n", peak_rss_mib());

  if (!keep_file) fs::remove_all(dir);
  return 0;
}
