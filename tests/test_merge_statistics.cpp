// `tcosim merge` (issue 43, item 6): a shard missing a statistic is exit 2 naming the shard and
// the pointer (it was exit 3 with --csv), and a point's statistics must be those of one sample:
// finite, p5 <= p50 <= p95, the CVaR beyond its tail's quantile, the mean inside its ci95 (one
// statistic multiplied by 1e18 merged into a P50 of 2.55e25 beside a P5 of 2.2e7).
#include <filesystem>
#include <fstream>
#include <functional>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "test_sweep_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

namespace fs = std::filesystem;

using tco::test::contains;

// The two shards (1/2: points 0-3, 2/2: points 4-8) of the fixture's 9-point grid on 6 paths,
// written by `sweep --shard`; the tests edit the first.
struct Shards {
  fs::path dir;
  std::string second;
  Json first;
};

Shards sweep_shards(const std::string& name) {
  Shards s;
  s.dir = scratch_dir(name);
  const std::string scenario = write_json_file(s.dir / "scenario.json", random_sweep_json());
  std::ifstream grid_in(sweep_fixture("grid.json"), std::ios::binary);
  const std::string grid = write_json_file(s.dir / "grid.json", Json::parse(grid_in));
  for (const char* k : {"1", "2"}) {
    const std::string out = (s.dir / (std::string("shard") + k + ".json")).string();
    const CliResult r = run_cli({"sweep", scenario, "--grid", grid, "--paths", "6", "--backend", "cpu", "--shard",
                                 std::string(k) + "/2", "--out", out, "--quiet"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    if (std::string(k) == "1") s.first = Json::parse(read_text_file(out));
    else s.second = out;
  }
  REQUIRE(s.first.at("points").size() == 4);
  return s;
}

// merge --csv of the first shard edited by `edit` (written as bad.json) and the second.
CliResult merge_edited(const Shards& s, const std::function<void(Json&)>& edit) {
  Json doc = s.first;
  edit(doc);
  const std::string bad = write_json_file(s.dir / "bad.json", doc);
  return run_cli({"merge", bad, s.second, "--out", (s.dir / "merged.json").string(), "--csv",
                  (s.dir / "merged.csv").string()});
}

}  // namespace

TEST_CASE("merge: a shard missing a statistic, or with statistics out of order, is exit 2 naming the pointer") {
  const Shards s = sweep_shards("merge-statistics");
  // The unedited shard merges (every check holds for what sweep writes).
  const CliResult good = merge_edited(s, [](Json&) {});
  REQUIRE_MESSAGE(good.exit_code == 0, good.err);
  fs::remove(s.dir / "merged.json");
  fs::remove(s.dir / "merged.csv");
  const std::string bad = (s.dir / "bad.json").string();
  const Json& plan = s.first.at("points").at(3).at("plans").at(1);
  REQUIRE(plan.contains("saving_vs_baseline_usd"));  // plan 1 is not the baseline

  SUBCASE("a missing p5: exit 2 (was 3 with --csv), the shard and pointer named, nothing written") {
    const CliResult r = merge_edited(s, [](Json& d) { d["points"][3]["plans"][1]["npv_usd"].erase("p5"); });
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, bad + ": /points/3/plans/1/npv_usd/p5: expected this statistic, found nothing"));
    CHECK(!fs::exists(s.dir / "merged.csv"));
  }
  SUBCASE("a missing total_usd mean, a missing saving's probability") {
    CHECK(contains(merge_edited(s, [](Json& d) { d["points"][0]["plans"][0]["total_usd"].erase("mean"); }).err,
                   bad + ": /points/0/plans/0/total_usd/mean: expected this statistic"));
    const CliResult r = merge_edited(
        s, [](Json& d) { d["points"][2]["plans"][1]["saving_vs_baseline_usd"].erase("probability_positive"); });
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "/points/2/plans/1/saving_vs_baseline_usd/probability_positive"));
  }
  SUBCASE("p50 multiplied by 1e18 lies above p95") {
    const CliResult r = merge_edited(s, [](Json& d) {
      Json& npv = d["points"][3]["plans"][1]["npv_usd"];
      npv["p50"] = npv["p50"].get<double>() * 1e18;
    });
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, bad + ": /points/3/plans/1/npv_usd: the statistics are not those of one sample (expected "
                                "p5 <= p50 <= p95)"));
  }
  SUBCASE("a mean multiplied by 1e18 leaves its ci95; a stderr by 1e18 no longer spans it") {
    const CliResult mean = merge_edited(s, [](Json& d) {
      Json& npv = d["points"][2]["plans"][0]["npv_usd"];
      npv["mean"] = npv["mean"].get<double>() * 1e18;
    });
    CHECK(mean.exit_code == 2);
    CHECK(contains(mean.err, "/points/2/plans/0/npv_usd: the statistics are not those of one sample"));
    const CliResult stderr_ = merge_edited(s, [](Json& d) {
      Json& saving = d["points"][2]["plans"][1]["saving_vs_baseline_usd"];
      saving["stderr"] = saving["stderr"].get<double>() * 1e18;
    });
    CHECK(stderr_.exit_code == 2);
    CHECK(contains(stderr_.err, "/points/2/plans/1/saving_vs_baseline_usd: the statistics are not those of one sample "
                                "(expected the ci95 half-width between 1.96 and 12.71 stderr)"));
  }
  SUBCASE("a saving's CVaR above its P5 (the worst savings are the lowest); a probability of 2") {
    const CliResult r = merge_edited(s, [](Json& d) {
      Json& saving = d["points"][1]["plans"][1]["saving_vs_baseline_usd"];
      saving["cvar95"] = saving["p95"].get<double>() + 1.0;
    });
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "/points/1/plans/1/saving_vs_baseline_usd: the statistics are not those of one sample "
                          "(expected cvar95 <= p5"));
    const CliResult p = merge_edited(s, [](Json& d) {
      d["points"][1]["plans"][1]["saving_vs_baseline_usd"]["probability_positive"] = 2.0;
    });
    CHECK(p.exit_code == 2);
    CHECK(contains(p.err, "/points/1/plans/1/saving_vs_baseline_usd/probability_positive: expected a probability in "
                          "[0, 1], found 2"));
  }
  SUBCASE("a statistic that is an object, not a number") {
    const CliResult r =
        merge_edited(s, [](Json& d) { d["points"][1]["plans"][0]["npv_usd"]["p95"] = Json{{"x", 1}}; });
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "/points/1/plans/0/npv_usd/p95"));
  }
}

}  // namespace tco::test
