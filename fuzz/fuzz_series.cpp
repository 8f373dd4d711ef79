// An hourly demand series in one format (TCO_FUZZ_FORMAT: csv, helios_vc, philly_nodes), as
// `demand stats` reads it, or a monitoring answer (prometheus, opencost) that only `demand
// import` reads, or a FOCUS billing export (focus; its p5.48xlarge rows in Hours are GPU rows). A
// series that is not already hourly is imported, and the hourly CSV written must read back.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tco::fuzz::run_command;
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "csv");
  const std::string input = tco::fuzz::write_input("input.csv", data, size);
  const bool import_only = format == "prometheus" || format == "opencost" || format == "focus";
  if (!import_only) run_command({"demand", "stats", "--format", format, input});
  if (format == "csv") return 0;
  const std::string out = tco::fuzz::work_dir() + "/out/hourly.csv";
  std::vector<std::string> import = {"demand", "import", "--format", format, input, "-o", out};
  if (format == "focus") import.insert(import.end(), {"--gpus-per-instance", "p5.48xlarge=8"});
  if (run_command(import) != 0) return 0;
  if (run_command({"demand", "stats", "--format", "csv", out}) != 0) {
    std::fprintf(stderr, "FINDING: demand import --format %s wrote a series that demand stats rejects\n", format.c_str());
    std::abort();
  }
  return 0;
}
