// Index shards (`--shard k/N` on run, optimize, sensitivity and calibrate, then `tcosim merge`;
// docs/cluster.md): N in {1, 3, 7} shards merged in a shuffled order write the unsplit
// command's report byte for byte, its "run" block aside (it records N); merge refuses shards of
// another seed, a missing or repeated k, a file cut short and another version, with exit 2
// naming the file.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "test_support.hpp"

namespace {

using tco::test::CliResult;
using tco::test::run_cli;

std::string shard_test_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The report without its top-level "run" block (threads, ranks, gathered bytes: run metadata).
std::string without_run_block(std::string text) {
  const std::size_t begin = text.find("\n  \"run\": {\n");
  if (begin == std::string::npos) return text;
  const std::size_t close = text.find("\n  }", begin + 1);
  if (close == std::string::npos) return text;
  const std::size_t line_end = text.find('\n', close + 1);
  text.erase(begin + 1, (line_end == std::string::npos ? text.size() : line_end + 1) - (begin + 1));
  return text;
}

struct ShardedCommand {
  std::string name;
  std::vector<std::string> args;  // after the command: the scenario and options
  bool has_run_block = true;      // calibrate's output has none: all of it must match
};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// Runs `c` unsplit and as N shards for N in {1, 3, 7}, merges each set in a shuffled order and
// compares with the unsplit report.
void check_shards_merge_to_unsplit(const ShardedCommand& c, const std::string& dir_name) {
  const auto dir = tco::test::scratch_dir(dir_name);
  std::vector<std::string> base = with({c.name}, c.args);
  const std::string whole = (dir / "whole.json").string();
  const CliResult w = run_cli(with(base, {"--threads", "1", "-q", "--out", whole}));
  REQUIRE_MESSAGE(w.exit_code == 0, w.err);
  const std::string expected = c.has_run_block ? without_run_block(shard_test_text(whole)) : shard_test_text(whole);
  if (c.has_run_block) CHECK(expected.size() < shard_test_text(whole).size());  // the block was found
  std::mt19937 shuffle(50);
  for (const int n : {1, 3, 7}) {
    std::vector<std::string> shards;
    for (int k = 1; k <= n; ++k) {
      shards.push_back((dir / (std::to_string(k) + "-of-" + std::to_string(n) + ".shard")).string());
      const CliResult r =
          run_cli(with(base, {"--threads", "1", "--shard", std::to_string(k) + "/" + std::to_string(n), "--out", shards.back()}));
      REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
    std::shuffle(shards.begin(), shards.end(), shuffle);
    const std::string merged = (dir / ("merged-" + std::to_string(n) + ".json")).string();
    const CliResult m = run_cli(with(with({"merge"}, shards), {"-q", "--out", merged}));
    REQUIRE_MESSAGE(m.exit_code == 0, m.err);
    const std::string text = shard_test_text(merged);
    INFO(c.name << ": " << n << " shard(s)");
    CHECK((c.has_run_block ? without_run_block(text) : text) == expected);
  }
}

// A shipped scenario of 36 months over 12 (its hourly model then takes a third of the time: each
// check runs the command 15 times), written beside the test's output; read with --catalog.
std::string twelve_month_copy(const std::string& name) {
  std::string text = shard_test_text(tco::test::source_path("scenarios/" + name + ".json"));
  const std::size_t at = text.find("\"horizon_months\": 36");
  REQUIRE(at != std::string::npos);
  text.replace(at, 20, "\"horizon_months\": 12");
  return tco::test::write_text(tco::test::scratch_dir("shards-input-" + name) / "s.json", text);
}

}  // namespace

TEST_CASE("index shards: run of a scenario of jobs (the replay), 1, 3 and 7 shards merge to the unsplit report") {
  TCO_REQUIRE_SHARED_DATA();  // deadline-campaign-spot-policies replays a spot trace from ../shared/data
  check_shards_merge_to_unsplit(
      {"run", {tco::test::source_path("scenarios/deadline-campaign-spot-policies.json"), "--paths", "9", "--today", "2026-06-01"}},
      "shards-run-replay");
}

TEST_CASE("index shards: run of the fluid model's paths, 1, 3 and 7 shards merge to the unsplit report") {
  check_shards_merge_to_unsplit(
      {"run",
       {twelve_month_copy("base-load-and-burst"), "--catalog", tco::test::source_path("pricing-data"), "--paths", "8",
        "--today", "2026-06-01"}},
      "shards-run-fluid");
}

TEST_CASE("index shards: sensitivity (paths and tornado), 1, 3 and 7 shards merge to the unsplit report") {
  check_shards_merge_to_unsplit({"sensitivity",
                                 {twelve_month_copy("base-load-and-burst-uncertain"), "--catalog",
                                  tco::test::source_path("pricing-data"), "--paths", "10", "--today", "2026-06-01"}},
                                "shards-sensitivity");
}

TEST_CASE("index shards: optimize (node counts and the report's paths), 1, 3 and 7 shards merge to the unsplit report") {
  check_shards_merge_to_unsplit({"optimize",
                                 {twelve_month_copy("base-load-and-burst"), "--catalog",
                                  tco::test::source_path("pricing-data"), "--nodes", "0:4", "--paths", "6", "--today",
                                  "2026-06-01"}},
                                "shards-optimize");
}

TEST_CASE("index shards: calibrate (the replay's paths), 1, 3 and 7 shards merge to the unsplit output") {
  TCO_REQUIRE_SHARED_DATA();  // deadline-campaign-spot-policies replays a spot trace from ../shared/data
  check_shards_merge_to_unsplit({"calibrate",
                                 {tco::test::source_path("scenarios/deadline-campaign-spot-policies.json"), "--paths",
                                  "7", "--today", "2026-06-01"},
                                 false},
                                "shards-calibrate");
}

TEST_CASE("index shards: a shard under --quiet prints nothing and writes its shard file") {
  const auto dir = tco::test::scratch_dir("shards-quiet");
  const std::string loud = (dir / "loud.shard").string(), quiet = (dir / "quiet.shard").string();
  const std::vector<std::string> args = {"run",      tco::test::source_path("tests/fixtures/scenarios/simple.json"),
                                         "--paths",  "4", "--threads", "1", "--today", "2026-06-01",
                                         "--shard",  "1/2"};
  const CliResult a = run_cli(with(args, {"--out", loud}));
  REQUIRE_MESSAGE(a.exit_code == 0, a.err);
  CHECK(a.out.rfind("run: shard 1 of 2 (", 0) == 0);  // its one summary line, without --quiet
  CHECK(a.out.find(" bytes -> " + loud + "\n") != std::string::npos);
  const CliResult q = run_cli(with(args, {"--out", quiet, "--quiet"}));
  REQUIRE_MESSAGE(q.exit_code == 0, q.err);
  CHECK(q.out.empty());
  CHECK(q.err.empty());
  // The same shard, its header's command line (which merge replays) holding --quiet too, and its
  // last line the bytes before it ("end 525" / "end 535": 10 more for ,"--quiet").
  std::string text = shard_test_text(quiet), loud_text = shard_test_text(loud);
  const std::size_t at = text.find(",\"--quiet\"]");
  REQUIRE(at != std::string::npos);
  text.erase(at, 10);
  const std::size_t end = text.rfind("end "), loud_end = loud_text.rfind("end ");
  REQUIRE(end != std::string::npos);
  REQUIRE(loud_end != std::string::npos);
  CHECK(text.substr(0, end) == loud_text.substr(0, loud_end));
  CHECK(std::stol(text.substr(end + 4)) == std::stol(loud_text.substr(loud_end + 4)) + 10);
  CHECK(text.rfind("tcosim-shard 1\n", 0) == 0);
}

TEST_CASE("index shards: merge refuses another seed, a missing or repeated shard, a cut file, another version (exit 2, the file named)") {
  TCO_REQUIRE_SHARED_DATA();  // deadline-campaign-spot-policies replays a spot trace from ../shared/data
  const auto dir = tco::test::scratch_dir("shards-refusals");
  // The replay of a scenario of jobs: its runs take milliseconds (doctest runs this body once per subcase).
  const std::vector<std::string> base = {"run", tco::test::source_path("scenarios/deadline-campaign-spot-policies.json"),
                                         "--paths", "6", "--threads", "1", "--today", "2026-06-01"};
  std::vector<std::string> shards;
  for (int k = 1; k <= 3; ++k) {
    shards.push_back((dir / (std::to_string(k) + ".shard")).string());
    REQUIRE(run_cli(with(base, {"--shard", std::to_string(k) + "/3", "--out", shards.back()})).exit_code == 0);
  }
  const std::string merged = (dir / "merged.json").string();
  const auto merge = [&](const std::vector<std::string>& files) { return run_cli(with(with({"merge"}, files), {"--out", merged})); };
  REQUIRE(merge(shards).exit_code == 0);

  SUBCASE("a shard of another seed") {
    const std::string other = (dir / "seed-8.shard").string();
    REQUIRE(run_cli(with(base, {"--seed", "8", "--shard", "2/3", "--out", other})).exit_code == 0);
    const CliResult r = merge({shards[0], other, shards[2]});
    CHECK(r.exit_code == 2);
    CHECK(tco::test::contains(r.err, other));
    CHECK(tco::test::contains(r.err, "another run"));
  }
  SUBCASE("a missing shard") {
    const CliResult r = merge({shards[2], shards[0]});
    CHECK(r.exit_code == 2);
    CHECK(tco::test::contains(r.err, "shard 2 of 3 is missing"));
    CHECK(tco::test::contains(r.err, shards[2]));  // the first file given: the set it names
  }
  SUBCASE("a shard given twice") {
    const CliResult r = merge({shards[0], shards[1], shards[2], shards[1]});
    CHECK(r.exit_code == 2);
    CHECK(tco::test::contains(r.err, "shard 2 of 3 is given twice"));
    CHECK(tco::test::contains(r.err, shards[1]));
  }
  SUBCASE("a shard file cut short") {
    const std::string whole = shard_test_text(shards[1]);
    const std::string cut = tco::test::write_text(dir / "cut.shard", whole.substr(0, whole.size() - 20));
    const CliResult r = merge({shards[0], cut, shards[2]});
    CHECK(r.exit_code == 2);
    CHECK(tco::test::contains(r.err, cut));
    CHECK(tco::test::contains(r.err, "truncated"));
  }
  SUBCASE("a shard of another version") {
    std::string text = shard_test_text(shards[1]);
    const std::string version = std::string("\"version\":\"") + TCO_VERSION + "\"";
    REQUIRE(text.find(version) != std::string::npos);
    // Another version of the same length, so that the file's byte count still holds.
    std::string other_version = TCO_VERSION;
    std::replace_if(other_version.begin(), other_version.end(), [](char ch) { return ch >= '0' && ch <= '9'; }, '9');
    REQUIRE(other_version != TCO_VERSION);
    text.replace(text.find(version), version.size(), "\"version\":\"" + other_version + "\"");
    const std::string old = tco::test::write_text(dir / "old.shard", text);
    const CliResult r = merge({shards[0], old, shards[2]});
    CHECK(r.exit_code == 2);
    CHECK(tco::test::contains(r.err, old));
    CHECK(tco::test::contains(r.err, "written by tcosim " + other_version));
  }
  SUBCASE("a target half-width needs every shard's paths: refused") {
    const CliResult r = run_cli({"run", tco::test::source_path("scenarios/deadline-campaign-spot-policies.json"),
                                 "--target-ci-usd", "1000", "--shard", "1/2", "--out", (dir / "t.shard").string()});
    CHECK(r.exit_code == 2);
    CHECK(tco::test::contains(r.err, "--shard"));
  }
}

TEST_CASE("index shards: merge refuses a scenario edited since the shards ran (exit 2, the scenario named), and writes nothing") {
  const auto dir = tco::test::scratch_dir("shards-digest");
  const std::string scenario = (dir / "s.json").string();
  std::filesystem::copy_file(tco::test::source_path("scenarios/base-load-and-burst.json"), scenario,
                             std::filesystem::copy_options::overwrite_existing);
  std::vector<std::string> shards;
  for (int k = 1; k <= 2; ++k) {
    shards.push_back((dir / (std::to_string(k) + ".shard")).string());
    const CliResult r = run_cli({"run", scenario, "--catalog", tco::test::source_path("pricing-data"), "--paths", "2",
                                 "--today", "2026-06-01", "--shard", std::to_string(k) + "/2", "--out", shards.back()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  std::string text = shard_test_text(scenario);
  const std::size_t at = text.find("\"base-load-and-burst\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 21, "\"edited-load-and-burst\"");
  tco::test::write_text(scenario, text);
  const std::string merged = (dir / "merged.json").string();
  const CliResult r = run_cli({"merge", shards[1], shards[0], "--out", merged});
  CHECK(r.exit_code == 2);
  CHECK(tco::test::contains(r.err, scenario));
  CHECK(tco::test::contains(r.err, "not the one the shards ran"));
  CHECK(!std::filesystem::exists(merged));
}
