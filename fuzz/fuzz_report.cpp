// A JSON report, as the commands that read one see it: `report` (every human format), `diff`
// (the report against itself) and `merge` (the report as a sweep shard); `report --focus` on its own,
// so a report the FOCUS export refuses still reaches the other formats.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tco::fuzz::run_command;
  const std::string report = tco::fuzz::write_input("input.json", data, size);
  const std::string out = tco::fuzz::work_dir() + "/out/";
  run_command({"report", report, "--html", out + "r.html", "--md", out + "r.md", "--csv", out + "csv"});
  run_command({"report", report, "--focus", out + "focus.csv"});
  run_command({"diff", report, report});
  run_command({"merge", report, "--out", out + "merged.json", "--csv", out + "merged.csv"});
  return 0;
}
