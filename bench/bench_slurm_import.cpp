// Speed and memory of `trace import --format slurm` (docs/performance.md, "Own-history import
// (issue 23)"): generates a sacct --parsable2 file of N rows (default 5,000,000) in the build's
// temporary folder, imports it with models/importers/slurm_import (America/New_York), and prints
// MB/s, rows/s and the peak resident memory, with the time of reading the lines alone (the
// block reader and the '|' split; what is left is the rows' parsing, the sort and the collector). Rows come in threes, as sacct writes them: the
// allocation (GPUs 1 to 8, one job in 10 a multi-node typed h100 one with Elapsed in days), its
// .batch and its .extern step; the steps are dropped, so a third of the rows are kept jobs.
//   bench_slurm_import [--rows N] [--keep-file]
// Run it from a Release build: build/bench/bench_slurm_import.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "core/memory/freed_memory_reuse.hpp"
#include "process_usage.hpp"
#include "core/io/block_lines.hpp"
#include "models/importers/jobs/slurm_import.hpp"

using tco::bench::peak_rss_mib;
using tco::bench::thread_cpu_s;

namespace {



// A year of submissions from 2024-01-01, one every ~6 s, as three rows per job.
void write_sacct(const std::string& path, long rows) {
  std::ofstream out(path, std::ios::binary);
  std::string buffer =
      "JobID|JobIDRaw|State|Submit|Start|End|Elapsed|NNodes|AllocTRES|ReqTRES|Partition|QOS|Account\n";
  for (long job = 0; 3 * job < rows; ++job) {
    const long t = job * 6;  // seconds after 2024-01-01 00:00
    const long day = t / 86400, second = t % 86400;
    const long month = std::min(12L, day / 31 + 1), mday = day % 28 + 1;
    const std::string submit =
        fmt::format("2024-{:02}-{:02}T{:02}:{:02}:{:02}", month, mday, second / 3600, second / 60 % 60, second % 60);
    const bool big = job % 10 == 0;
    const std::string elapsed = big ? "1-02:00:00" : fmt::format("{:02}:{:02}:00", job % 12, job % 60);
    const std::string tres = big ? "billing=64,cpu=64,gres/gpu:h100=16,mem=1024G,node=2"
                                 : fmt::format("billing=8,cpu=8,gres/gpu={},mem=64G,node=1", job % 8 + 1);
    const char* partition = job % 3 == 0 ? "gpu" : "gpu-long";
    fmt::format_to(std::back_inserter(buffer), "{0}|{0}|COMPLETED|{1}|{1}|{1}|{2}|{3}|{4}|{4}|{5}|normal|team{6}\n",
                   job, submit, elapsed, big ? 2 : 1, tres, partition, job % 17);
    for (const char* step : {"batch", "extern"})
      if (3 * job + (step[0] == 'b' ? 1 : 2) < rows)
        fmt::format_to(std::back_inserter(buffer), "{0}.{1}|{0}.{1}|COMPLETED|{2}|{2}|{2}|{3}|1|{4}||||team{5}\n", job,
                       step, submit, elapsed, tres, job % 17);
    if (buffer.size() > (1u << 20)) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

}  // namespace

int main(int argc, char** argv) {
  tco::keep_freed_memory_for_reuse();  // as tcosim does (cli/main.cpp)
  long rows = 5'000'000;
  bool keep_file = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rows") == 0 && i + 1 < argc) {
      rows = std::stol(argv[++i]);
    } else if (std::strcmp(argv[i], "--keep-file") == 0) {
      keep_file = true;
    } else {
      std::fprintf(stderr, "usage: bench_slurm_import [--rows N] [--keep-file]\n");
      return 2;
    }
  }
  const std::string path = (std::filesystem::temp_directory_path() / "tcosim-bench-sacct.txt").string();
  write_sacct(path, rows);
  const double file_mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  const double rss_before = peak_rss_mib();
  auto t_lines = std::chrono::steady_clock::now();
  const double c_lines = thread_cpu_s();
  {
    tco::BlockLineReader lines(path);
    std::string_view line;
    std::size_t fields = 0;
    while (lines.next(line)) fields += static_cast<std::size_t>(std::count(line.begin(), line.end(), '|')) + 1;
    if (fields == 0) std::fprintf(stderr, "no fields\n");
  }
  const double lines_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_lines).count();
  const double lines_cpu_s = thread_cpu_s() - c_lines;
  tco::SlurmImportOptions options;
  options.time_zone = "America/New_York";
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = thread_cpu_s();
  const tco::ImportResult result = tco::import_slurm(path, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu_s = thread_cpu_s() - c0;
  fmt::print("sacct file        {} rows, {:.1f} MB ({})\n", result.counts.rows, file_mb, path);
  fmt::print("kept jobs         {} (dropped {})\n", result.counts.jobs, result.counts.dropped_total());
  fmt::print("import            {:.2f} s: {:.1f} MB/s, {:.3g} rows/s; {:.2f} CPU-s: {:.1f} MB per CPU-second\n", seconds,
             file_mb / seconds, static_cast<double>(result.counts.rows) / seconds, cpu_s, file_mb / cpu_s);
  fmt::print("lines alone       {:.2f} s: {:.1f} MB/s; {:.2f} CPU-s: {:.1f} MB per CPU-second (the block reader and a "
             "count of the fields)\n",
             lines_s, file_mb / lines_s, lines_cpu_s, file_mb / lines_cpu_s);
  fmt::print("peak RSS          {:.0f} MiB ({:.0f} MiB before the import; {:.0f} bytes a kept job)\n", peak_rss_mib(),
             rss_before, (peak_rss_mib() - rss_before) * 1048576.0 / static_cast<double>(result.counts.jobs));
  if (!keep_file) std::filesystem::remove(path);
  return 0;
}
