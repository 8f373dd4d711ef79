// A write to the standard output that fails (issue 43, item 1: `tcosim run S --out - > /dev/full`
// exited 0 and the report was lost) is exit 2 with a message naming the standard output, for
// every command that writes there. The real /dev/full is the ctest
// standard_output_full_exits_2 (tests/CMakeLists.txt); here a stream that refuses every byte.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli/app.hpp"
#include "test_support.hpp"

namespace {

// Every byte refused, as by a full disk.
class FullBuffer : public std::streambuf {
 protected:
  int overflow(int) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

struct Outcome {
  int exit_code;
  std::string err;
};

Outcome run_into_full_stdout(const std::vector<std::string>& args) {
  FullBuffer full;
  std::ostream out(&full);
  std::ostringstream err;
  const int code = tco::cli::run_main(args, out, err);
  return {code, err.str()};
}

using tco::test::contains;

}  // namespace

TEST_CASE("standard output full: run, validate, diff, trace stats, demand stats and help exit 2 naming it") {
  const auto dir = tco::test::scratch_dir("stdout-full");
  const std::string scenario = tco::test::source_path("tests/fixtures/scenarios/simple.json");
  const std::string report = tco::test::source_path("tests/fixtures/des/mc_small.report.json");
  const std::string trace = tco::test::source_path("tests/fixtures/own-history/jobs.csv");
  const std::string series = (dir / "s.csv").string();
  std::ofstream(series) << "time_h,gpus\n0,1\n1,2\n";
  const std::vector<std::vector<std::string>> commands = {
      {"run", scenario, "--out", "-"},  {"validate", scenario},    {"diff", report, report},
      {"trace", "stats", trace},        {"demand", "stats", series}, {"--help"},
  };
  for (const auto& args : commands) {
    CAPTURE(args.front());
    const Outcome r = run_into_full_stdout(args);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "tcosim: error: writing to the standard output failed"));
  }
}

TEST_CASE("standard output full: a command that failed already keeps its own exit code") {
  // A missing scenario is exit 2 with its own message, before anything is written to the
  // standard output: the output check adds no second one.
  const Outcome r = run_into_full_stdout({"run", "no-such-file.json", "--out", "-"});
  CHECK(r.exit_code == 2);
  CHECK(!contains(r.err, "standard output"));
}
