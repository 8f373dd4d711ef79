// A job trace in one format (TCO_FUZZ_FORMAT: openb, dlrm, philly, pai, helios, slurm, k8s-pods, or canonical,
// the job CSV that scenarios read). An imported trace must read back: `trace stats` on what
// `trace import` wrote exits 0, else the importer wrote a file its own reader rejects.
#include <cstdio>
#include <cstdlib>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tco::fuzz::run_command;
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "canonical");
  const std::string input = tco::fuzz::write_input("input.trace", data, size);
  if (format == "canonical") {
    run_command({"trace", "stats", input});
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
