// Inputs the fuzzers (fuzz/, docs/testing.md) or the campaigns found, kept as files in
// tests/fixtures/fuzz/: each must give exit 0, 1 or 2, never an internal error.
#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "test_support.hpp"

using tco::test::run_cli;
using tco::test::scratch_dir;
using tco::test::source_path;

TEST_CASE("fuzz regressions: merge of a file that is not a JSON object is bad input, not an internal error") {
  const auto dir = scratch_dir("fuzz-regressions-merge");
  for (const char* name : {"merge-null.json", "merge-array.json"}) {
    CAPTURE(name);
    const tco::test::CliResult r =
        run_cli({"merge", source_path(std::string("tests/fixtures/fuzz/") + name), "--out", (dir / "m.json").string()});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(name) != std::string::npos);
    CHECK(r.err.find("expected a sweep shard") != std::string::npos);
  }
}
