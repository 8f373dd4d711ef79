// An hourly demand series in one format (TCO_FUZZ_FORMAT: csv, helios_vc, philly_nodes), as
// `demand stats` reads it, or a monitoring answer (prometheus, opencost) that only `demand
// import` reads. A series that is not already hourly is imported, and the hourly CSV written
// must read back.
#include <cstdio>
#include <cstdlib>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tco::fuzz::run_command;
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "csv");
  const std::string input = tco::fuzz::write_input("input.csv", data, size);
  const bool monitoring = format == "prometheus" || format == "opencost";
  if (!monitoring) run_command({"demand", "stats", "--format", format, input});
  if (format == "csv") return 0;
  const std::string out = tco::fuzz::work_dir() + "/out/hourly.csv";
  if (run_command({"demand", "import", "--format", format, input, "-o", out}) != 0) return 0;
  if (run_command({"demand", "stats", "--format", "csv", out}) != 0) {
    std::fprintf(stderr, "FINDING: demand import --format %s wrote a series that demand stats rejects\n", format.c_str());
    std::abort();
  }
  return 0;
}
