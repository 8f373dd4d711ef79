// A job trace in one format (TCO_FUZZ_FORMAT: openb, dlrm, philly, pai, helios, slurm, k8s-pods, or canonical,
// the job CSV that scenarios read). An imported trace must read back: `trace stats` on what
// `trace import` wrote exits 0, else the importer wrote a file its own reader rejects.
// The canonical run also reads the input as a binary trace file (models/workload/trace_binary.hpp;
// fuzz/seeds/canonical/jobs.tcotrace seeds it), and a CSV that reads must survive the round
// trip through the binary file: written, reopened whole, the same rows; and it is run in a small
// scenario, whose limits (engine/des/trace_limits.hpp) it meets or is refused by with exit 2.
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "core/io/sha256.hpp"
#include "fuzz_support.hpp"
#include "models/workload/trace_binary.hpp"

namespace {

void read_as_binary(const std::string& input) {
  const tco::OpenedTraceBinary opened = tco::open_trace_binary(input, "");
  if (opened.status != tco::TraceBinaryStatus::ok) return;
  double total_h = 0.0;
  for (std::size_t i = 0; i < opened.table.rows(); ++i) total_h += opened.table.job(i).duration_h;
  if (!(total_h >= 0.0)) std::abort();
}

void binary_round_trip(const std::string& input) {
  const std::string bin = tco::fuzz::work_dir() + "/out/trace.tcotrace";
  const tco::TraceTable table = tco::read_trace_table(input);
  const std::string digest = tco::sha256_file_hex(input);
  tco::write_trace_binary(bin, table, digest);
  const tco::OpenedTraceBinary back = tco::open_trace_binary(bin, digest);
  if (back.status != tco::TraceBinaryStatus::ok || back.table.rows() != table.rows()) {
    std::fprintf(stderr, "FINDING: a CSV that reads did not survive the binary trace file (%s)\n", back.detail.c_str());
    std::abort();
  }
}

// A trace that reads, run in a scenario (engine/des/trace_limits.hpp): one month (730 h) and one
// onprem plan of 2 test-node-8 (16 GPUs), so that a job past the horizon or the fleet is refused.
void run_in_scenario(const std::string& input) {
  const std::string scenario = tco::fuzz::work_dir() + "/scenarios/trace-run.json";
  std::ofstream(scenario) << R"({"name": "fuzz", "start": "2026-01-05", "horizon_months": 1,
    "discount_rate_per_year": 0.0, "catalog_dir": "../catalog", "jobs": {"trace": ")"
                          << input << R"("},
    "onprem": {"server": "test-node-8", "power": {"region": "test-region"}, "cooling": "test-air",
               "colocation": "test-colo", "residual": {"enabled": false}},
    "plans": [{"name": "own-2", "kind": "onprem", "onprem_nodes": 2}], "baseline": "own-2"})";
  tco::fuzz::run_command({"run", scenario, "--paths", "1", "--out", tco::fuzz::work_dir() + "/out/trace-run.json",
                          "--quiet"});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tco::fuzz::run_command;
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "canonical");
  const std::string input = tco::fuzz::write_input("input.trace", data, size);
  if (format == "canonical") {
    read_as_binary(input);
    if (run_command({"trace", "stats", input}) == 0) {
      binary_round_trip(input);
      run_in_scenario(input);
    }
    return 0;
  }
  const std::string out = tco::fuzz::work_dir() + "/out/trace.csv";
  if (run_command({"trace", "import", "--format", format, input, "-o", out}) != 0) return 0;
  if (run_command({"trace", "stats", out}) != 0) {
    std::fprintf(stderr, "FINDING: trace import --format %s wrote a trace that trace stats rejects\n", format.c_str());
    std::abort();
  }
  return 0;
}
