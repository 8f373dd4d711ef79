// `tcosim sweep` and `tcosim merge`: thread counts and shards give the same bytes, --resume
// keeps finished blocks, grid errors name the pointer (exit 2), merge refuses shards that do
// not belong together.
#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <doctest/doctest.h>

#include "engine/sweep/sweep_run.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

namespace {

namespace fs = std::filesystem;

struct SweepFiles {
  fs::path dir;
  std::string scenario;
  std::string grid;
};

SweepFiles sweep_files(const std::string& name, const Json& scenario, const Json& grid) {
  SweepFiles f;
  f.dir = scratch_dir(name);
  f.scenario = write_json_file(f.dir / "scenario.json", scenario);
  f.grid = write_json_file(f.dir / "grid.json", grid);
  return f;
}

Json fixture_grid() {
  std::ifstream in(sweep_fixture("grid.json"), std::ios::binary);
  return Json::parse(in);
}

// The fixture's 9 points on 6 paths, on the CPU, in blocks of 2 points, written to f.dir/out.
SweepOptions blocks_of_two(const SweepFiles& f, const std::string& out) {
  SweepOptions o;
  o.scenario_file = f.scenario;
  o.grid_file = f.grid;
  o.paths = 6;
  o.backend = SweepBackend::cpu;
  o.block_points = 2;
  o.out = (f.dir / out).string();
  return o;
}

std::vector<std::string> sweep_args(const SweepFiles& f, const std::string& out, std::vector<std::string> extra) {
  std::vector<std::string> args = {"sweep", f.scenario, "--grid", f.grid, "--paths", "6", "--backend", "cpu",
                                   "--out", out, "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

CliResult sweep_with_grid(const std::string& name, const Json& grid) {
  const SweepFiles f = sweep_files(name, random_sweep_json(), grid);
  return run_cli(sweep_args(f, (f.dir / "out.json").string(), {}));
}

}  // namespace

TEST_CASE("sweep cli: the document holds every point's statistics and best plan, in grid order") {
  const SweepFiles f = sweep_files("sweep-doc", rich_sweep_json(), fixture_grid());
  const std::string out = (f.dir / "sweep.json").string();
  const std::string csv = (f.dir / "sweep.csv").string();
  auto args = sweep_args(f, out, {"--csv", csv});
  const CliResult r = run_cli(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const Json doc = Json::parse(read_text_file(out));
  CHECK(doc.at("schema") == kSweepSchema);
  CHECK(doc.at("grid").at("points") == 9);
  REQUIRE(doc.at("points").size() == 9);
  // Point 4 = (2 nodes, 0.10 USD/kWh): first field slowest; ranges are tidy decimals.
  const Json& p4 = doc.at("points").at(4);
  CHECK(p4.at("index") == 4);
  CHECK(p4.at("values") == Json({2, 0.1}));
  CHECK(p4.at("values").at(0).is_number_integer());  // a node count stays an integer
  CHECK(doc.at("grid").at("fields").at(1).at("values") == Json({0.08, 0.1, 0.12}));
  // No random input in the rich fixture: every path is the deterministic result.
  for (const auto& plan : p4.at("plans")) {
    const double det = plan.at("deterministic_npv_usd").get<double>();
    CHECK(plan.at("npv_usd").at("mean").get<double>() == doctest::Approx(det).epsilon(1e-12));
    CHECK(plan.at("npv_usd").at("p5").get<double>() == doctest::Approx(det).epsilon(1e-12));
    CHECK(plan.at("npv_usd").at("cvar95").get<double>() == doctest::Approx(det).epsilon(1e-12));
    CHECK(std::fabs(plan.at("npv_usd").at("stderr").get<double>()) < 1e-6 * std::fabs(det));
  }
  CHECK_FALSE(p4.at("plans").at(0).contains("saving_vs_baseline_usd"));  // the baseline
  const Json& saving = p4.at("plans").at(1).at("saving_vs_baseline_usd");
  const double expected = p4.at("plans").at(0).at("deterministic_npv_usd").get<double>() -
                          p4.at("plans").at(1).at("deterministic_npv_usd").get<double>();
  CHECK(saving.at("mean").get<double>() == doctest::Approx(expected).epsilon(1e-9));
  CHECK(saving.at("probability_positive") == (expected > 0 ? 1.0 : 0.0));
  // The best plan has the lowest mean NPV.
  double lowest = 1e300;
  std::string best;
  for (const auto& plan : p4.at("plans")) {
    if (plan.at("npv_usd").at("mean").get<double>() < lowest) {
      lowest = plan.at("npv_usd").at("mean").get<double>();
      best = plan.at("name").get<std::string>();
    }
  }
  CHECK(p4.at("best_plan") == best);
  const std::string csv_text = read_text_file(csv);
  CHECK(csv_text.rfind("point,/plans/1/onprem_nodes,/onprem/power/tariff/usd_per_kwh,plan,", 0) == 0);
  CHECK(csv_text.find(",npv_p95_usd,npv_cvar95_usd,total_mean_usd,") != std::string::npos);
  CHECK(csv_text.find(",saving_p95_usd,saving_cvar95_usd,probability_saving,") != std::string::npos);
  CHECK(std::count(csv_text.begin(), csv_text.end(), '\n') == 1 + 9 * 3);
  CHECK_FALSE(fs::exists(out + ".parts"));
}

TEST_CASE("sweep cli: the estimate comes before any point is prepared, and more points than --max-points need --yes") {
  // Issue 43: 8,000 points at 4 paths ran 346 s unannounced. The fixture's grid: 9 points x 6 paths
  // x 8,760 hours (12 months of 730 h) = 473,040 path-hours; at 2.5e8 path-hours/s a thread,
  // 0.00189 s on 1 thread; preparing, 9 x 8,760 / 1.6e7 = 0.00493 s; 3 plans.
  const SweepFiles f = sweep_files("sweep-max-points", rich_sweep_json(), fixture_grid());
  const std::string out = (f.dir / "out.json").string();
  std::vector<std::string> args = {"sweep", f.scenario, "--grid",    f.grid, "--paths", "6",
                                   "--backend", "cpu",  "--threads", "1",    "--out",   out};
  SUBCASE("within the cap: the estimate on stderr, then the sweep") {
    const CliResult r = run_cli(args);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err.find("sweep: estimate: 9 points x 6 paths x 8760 hours = 473040 path-hours (3 plans): about "
                     "0.00189 s on 1 thread, after 0.00493 s preparing the points") != std::string::npos);
    CHECK(fs::exists(out));
  }
  SUBCASE("past --max-points: exit 2 with the estimate and nothing written, unless --yes") {
    args.insert(args.end(), {"--max-points", "8"});
    const CliResult r = run_cli(args);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("the sweep has 9 points, more than --max-points 8 (9 points x 6 paths") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(fs::exists(out + ".parts"));
    args.push_back("--yes");
    const CliResult yes = run_cli(args);
    CHECK_MESSAGE(yes.exit_code == 0, yes.err);
  }
  SUBCASE("the default cap is 5,000 points, checked before any point is prepared") {
    Json values = Json::array();
    for (int i = 0; i <= 5000; ++i) values.push_back(i * 1e-5);  // 5,001 discount rates
    const SweepFiles big = sweep_files("sweep-max-points-default", rich_sweep_json(),
                                       {{"fields", {{{"pointer", "/discount_rate_per_year"}, {"values", values}}}}});
    const CliResult r = run_cli(sweep_args(big, (big.dir / "out.json").string(), {}));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("the sweep has 5001 points, more than --max-points 5000") != std::string::npos);
  }
}

TEST_CASE("sweep cli: 1 and 2 threads write the same bytes") {
  const SweepFiles f = sweep_files("sweep-threads", random_sweep_json(), fixture_grid());
  const std::string a = (f.dir / "one.json").string();
  const std::string b = (f.dir / "two.json").string();
  REQUIRE(run_cli(sweep_args(f, a, {"--threads", "1"})).exit_code == 0);
  REQUIRE(run_cli(sweep_args(f, b, {"--threads", "2"})).exit_code == 0);
  CHECK(read_text_file(a) == read_text_file(b));
}

TEST_CASE("sweep cli: shards 1/3 + 2/3 + 3/3 merged equal the unsplit run byte for byte") {
  const SweepFiles f = sweep_files("sweep-shards", random_sweep_json(), fixture_grid());
  const std::string whole = (f.dir / "whole.json").string();
  const std::string whole_csv = (f.dir / "whole.csv").string();
  REQUIRE(run_cli(sweep_args(f, whole, {"--csv", whole_csv})).exit_code == 0);
  std::vector<std::string> shards;
  for (int k = 1; k <= 3; ++k) {
    shards.push_back((f.dir / ("shard" + std::to_string(k) + ".json")).string());
    const CliResult r = run_cli(sweep_args(f, shards.back(), {"--shard", std::to_string(k) + "/3", "--threads", "1"}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Json shard = Json::parse(read_text_file(shards.back()));
    CHECK(shard.at("schema") == kSweepShardSchema);
    CHECK(shard.at("points").size() == 3);
  }
  const std::string merged = (f.dir / "merged.json").string();
  const std::string merged_csv = (f.dir / "merged.csv").string();
  // Shards may come in any order.
  const CliResult m =
      run_cli({"merge", shards[2], shards[0], shards[1], "--out", merged, "--csv", merged_csv, "--quiet"});
  REQUIRE_MESSAGE(m.exit_code == 0, m.err);
  CHECK(read_text_file(merged) == read_text_file(whole));
  CHECK(read_text_file(merged_csv) == read_text_file(whole_csv));

  SUBCASE("a missing shard is a gap, named") {
    const CliResult r = run_cli({"merge", shards[0], shards[2], "--out", merged});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(shards[2]) != std::string::npos);
    CHECK(r.err.find("points 3-6") != std::string::npos);
  }
  SUBCASE("the same shard twice overlaps, named") {
    const CliResult r = run_cli({"merge", shards[0], shards[1], shards[1], shards[2], "--out", merged});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("overlap") != std::string::npos);
  }
  SUBCASE("a shard of another seed does not belong") {
    const std::string other = (f.dir / "other.json").string();
    REQUIRE(run_cli(sweep_args(f, other, {"--shard", "2/3", "--seed", "8"})).exit_code == 0);
    const CliResult r = run_cli({"merge", shards[0], other, shards[2], "--out", merged});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(other) != std::string::npos);
    CHECK(r.err.find("monte_carlo") != std::string::npos);
  }
  SUBCASE("a finished sweep is not a shard") {
    const CliResult r = run_cli({"merge", whole, "--out", merged});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/schema") != std::string::npos);
  }
}

TEST_CASE("sweep: blocks of two points write the bytes of one block of nine") {
  // One block: the check's prepared points serve it. Blocks of two: they serve the first block,
  // and the four blocks after it prepare their points again.
  const SweepFiles f = sweep_files("sweep-blocks", random_sweep_json(), fixture_grid());
  SweepOptions o = blocks_of_two(f, "twos.json");
  run_sweep(o);
  o.block_points = 0;
  o.out = (f.dir / "one.json").string();
  run_sweep(o);
  CHECK(read_text_file(o.out) == read_text_file((f.dir / "twos.json").string()));
}

TEST_CASE("sweep: --resume keeps the blocks an interrupted run wrote and gives the same bytes") {
  const SweepFiles f = sweep_files("sweep-resume", random_sweep_json(), fixture_grid());
  SweepOptions o = blocks_of_two(f, "fresh.json");
  const SweepRunSummary fresh = run_sweep(o);
  CHECK(fresh.points_computed == 9);

  // Interrupted after its second block (points 0-4 written).
  o.out = (f.dir / "resumed.json").string();
  // (The hook is called between blocks with the points done so far; it throws there, never
  // from inside the backend's parallel loop.)
  struct Interrupt {};
  const auto stop_after_two = [](long points_done) {
    if (points_done >= 4) throw Interrupt{};
  };
  o.block_written = stop_after_two;
  CHECK_THROWS_AS(run_sweep(o), Interrupt);
  o.block_written = nullptr;
  CHECK_FALSE(fs::exists(o.out));
  CHECK(fs::exists(o.out + ".parts/points-0-2.json"));
  CHECK(fs::exists(o.out + ".parts/points-2-4.json"));

  o.resume = true;
  const SweepRunSummary resumed = run_sweep(o);
  CHECK(resumed.points_resumed == 4);
  CHECK(resumed.points_computed == 5);
  CHECK(read_text_file(o.out) == read_text_file((f.dir / "fresh.json").string()));
  CHECK_FALSE(fs::exists(o.out + ".parts"));

  // Resuming a finished sweep does nothing.
  const SweepRunSummary again = run_sweep(o);
  CHECK(again.already_complete);
  CHECK(again.points_computed == 0);

  // A block of another sweep (another seed) is recomputed, not trusted.
  o.out = (f.dir / "reseeded.json").string();
  o.resume = false;
  o.block_written = stop_after_two;
  CHECK_THROWS_AS(run_sweep(o), Interrupt);
  o.block_written = nullptr;
  o.seed = 99;
  o.resume = true;
  const SweepRunSummary reseeded = run_sweep(o);
  CHECK(reseeded.points_resumed == 0);
  CHECK(reseeded.points_computed == 9);

  // A block whose header holds numbers of the wrong type (a damaged file) is recomputed: its
  // schema, first_point and end_point were read as a string and integers (json's type_error, an
  // internal error).
  o.out = (f.dir / "damaged.json").string();
  o.resume = false;
  o.block_written = stop_after_two;
  CHECK_THROWS_AS(run_sweep(o), Interrupt);
  o.block_written = nullptr;
  const fs::path block = o.out + ".parts/points-0-2.json";
  Json damaged = Json::parse(read_text_file(block.string()));
  damaged["schema"] = 2;
  damaged["first_point"] = "0";
  write_text(block, damaged.dump());
  o.resume = true;
  const SweepRunSummary repaired = run_sweep(o);
  CHECK(repaired.points_resumed == 2);
  CHECK(repaired.points_computed == 7);
  CHECK(read_text_file(o.out) == read_text_file((f.dir / "reseeded.json").string()));
}

TEST_CASE("sweep cli: grid errors exit 2 and name the pointer") {
  SUBCASE("a pointer that does not exist") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-missing", Json::parse(R"({"fields": [{"pointer": "/plans/7/onprem_nodes", "values": [1, 2]}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/plans/7/onprem_nodes") != std::string::npos);
    CHECK(r.err.find("does not exist") != std::string::npos);
    CHECK(r.err.find("grid.json") != std::string::npos);
  }
  SUBCASE("a field that is not a number") {
    const CliResult r =
        sweep_with_grid("sweep-grid-text", Json::parse(R"({"fields": [{"pointer": "/plans/0/name", "values": [1]}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/plans/0/name") != std::string::npos);
    CHECK(r.err.find("not a numeric field") != std::string::npos);
  }
  SUBCASE("an empty range") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-empty",
        Json::parse(R"({"fields": [{"pointer": "/discount_rate_per_year", "range": {"from": 0.1, "to": 0.05, "step": 0.01}}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/discount_rate_per_year") != std::string::npos);
    CHECK(r.err.find("empty") != std::string::npos);
  }
  SUBCASE("an empty list") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-empty-list", Json::parse(R"({"fields": [{"pointer": "/discount_rate_per_year", "values": []}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/discount_rate_per_year") != std::string::npos);
  }
  SUBCASE("a step of zero") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-step",
        Json::parse(R"({"fields": [{"pointer": "/discount_rate_per_year", "range": {"from": 0, "to": 0.1, "step": 0}}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/discount_rate_per_year") != std::string::npos);
    CHECK(r.err.find("step > 0") != std::string::npos);
  }
  SUBCASE("a fractional node count") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-fraction", Json::parse(R"({"fields": [{"pointer": "/plans/1/onprem_nodes", "values": [1.5]}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/plans/1/onprem_nodes") != std::string::npos);
  }
  SUBCASE("a listed value that is not a number names its index in the list") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-string", Json::parse(R"({"fields": [{"pointer": "/discount_rate_per_year", "values": [0.05, "x"]}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/fields/0/values/1") != std::string::npos);
    CHECK(r.err.find("found string \"x\"") != std::string::npos);
  }
  SUBCASE("a real field the scenario writes 1 (not 1.0) is swept over fractions") {
    // Issue 43, item 7: `"waiting_usd_per_gpu_hour": 1` was taken for an integer field, and 0.5
    // refused with "is an integer in the scenario".
    Json scenario = random_sweep_json();
    scenario["waiting_usd_per_gpu_hour"] = 1;
    scenario["plans"][1]["onprem_nodes"] = 2.0;  // a count written 2.0 is still a count
    const SweepFiles f = sweep_files(
        "sweep-grid-integer-literal", scenario,
        Json::parse(R"({"fields": [{"pointer": "/waiting_usd_per_gpu_hour", "values": [0.5, 1.5]},
                                   {"pointer": "/plans/1/onprem_nodes", "values": [1, 3]}]})"));
    const std::string out = (f.dir / "out.json").string();
    const CliResult r = run_cli(sweep_args(f, out, {}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const Json doc = Json::parse(read_text_file(out));
    CHECK(doc.at("grid").at("fields").at(0).at("values") == Json({0.5, 1.5}));
    CHECK(doc.at("points").at(3).at("values") == Json({1.5, 3}));
    CHECK(doc.at("points").at(3).at("values").at(1).is_number_integer());
    const CliResult fraction = sweep_with_grid(
        "sweep-grid-integer-literal-count",
        Json::parse(R"({"fields": [{"pointer": "/plans/1/onprem_nodes", "values": [2.5]}]})"));
    CHECK(fraction.exit_code == 2);
    CHECK(fraction.err.find("is an integer field of the scenario (a count), found the value 2.5") != std::string::npos);
  }
  SUBCASE("a node count too large for an integer is refused, not wrapped around") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-huge", Json::parse(R"({"fields": [{"pointer": "/plans/1/onprem_nodes", "values": [1e308]}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("is an integer field of the scenario (a count), found the value 1e+308") != std::string::npos);
  }
  SUBCASE("a value the scenario rejects names the grid point") {
    const CliResult r = sweep_with_grid(
        "sweep-grid-invalid", Json::parse(R"({"fields": [{"pointer": "/plans/1/spot_share", "values": [0.5, 1.5]}]})"));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("grid point 1") != std::string::npos);
    CHECK(r.err.find("/plans/1/spot_share") != std::string::npos);
  }
}

TEST_CASE("sweep cli: the example sweep in scenarios/sweeps runs") {
  const auto dir = scratch_dir("sweep-example");
  const std::string out = (dir / "example.json").string();
  const CliResult r = run_cli({"sweep", source_path("scenarios/sweeps/hybrid-uncertain.json"), "--grid",
                               source_path("scenarios/sweeps/hybrid-uncertain.grid.json"), "--paths", "3", "--shard",
                               "2/4", "--backend", "cpu", "--out", out});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  // No progress bar unless stderr is a terminal: stderr holds the estimate alone (shard 2/4 of 20
  // points is points 5-9).
  CHECK(r.err.rfind("sweep: estimate: 5 points x 3 paths x ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  const Json shard = Json::parse(read_text_file(out));
  CHECK(shard.at("grid").at("points") == 20);
  CHECK(shard.at("points").size() == 5);
  CHECK(r.out.find("best plan") != std::string::npos);
}

TEST_CASE("sweep cli: --backend cuda without a device is a clear error") {
  if (sweep_cuda_devices() > 0) return;  // a machine with a GPU runs tests/cuda instead
  const SweepFiles f = sweep_files("sweep-cuda", rich_sweep_json(), fixture_grid());
  auto args = sweep_args(f, (f.dir / "out.json").string(), {});
  args[7] = "cuda";
  const CliResult r = run_cli(args);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cuda") != std::string::npos);
}

TEST_CASE("sweep cli: --out - writes the document alone to the standard output, the bytes of --out FILE") {
  const SweepFiles f = sweep_files("sweep-stdout", random_sweep_json(), fixture_grid());
  const std::string file = (f.dir / "file.json").string();
  REQUIRE(run_cli(sweep_args(f, file, {"--threads", "1"})).exit_code == 0);
  // Not --quiet: the summary lines would follow the document, and do not.
  const CliResult r = run_cli({"sweep", f.scenario, "--grid", f.grid, "--paths", "6", "--backend", "cpu", "--threads", "1",
                               "--out", "-"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out == read_text_file(file));
  CHECK(Json::parse(r.out).at("points").size() == 9);  // the fixture's 3 x 3 grid
  CHECK_FALSE(fs::exists("-.parts"));  // its blocks stay in memory
  CHECK_FALSE(fs::exists(f.dir / "-.parts"));
  // The blocks a resume or a merge would need are not written: both need a file.
  const CliResult resume = run_cli(sweep_args(f, "-", {"--resume"}));
  CHECK(resume.exit_code == 2);
  CHECK(resume.err.find("--resume") != std::string::npos);
  CHECK(resume.out.empty());
  const CliResult shard = run_cli(sweep_args(f, "-", {"--shard", "1/3"}));
  CHECK(shard.exit_code == 2);
  CHECK(shard.err.find("expected a file for the shard") != std::string::npos);
  CHECK(shard.out.empty());
}

TEST_CASE("sweep cli: a bad --shard is a usage error") {
  const SweepFiles f = sweep_files("sweep-shard-arg", rich_sweep_json(), fixture_grid());
  CHECK(run_cli(sweep_args(f, (f.dir / "o.json").string(), {"--shard", "4/3"})).exit_code == 2);
  CHECK(run_cli(sweep_args(f, (f.dir / "o.json").string(), {"--shard", "two"})).exit_code == 2);
}

TEST_CASE("progress: the sweep counts points x paths, resumed blocks included") {
  const SweepFiles f = sweep_files("sweep-progress", random_sweep_json(), fixture_grid());
  SweepOptions o = blocks_of_two(f, "swept.json");
  ProgressCounter counter;
  run_sweep(o, &counter);
  // The fixture grid's 9 points x 6 paths = 54 items; the last block's stage counts from the 8
  // points x 6 paths = 48 items of the blocks before it.
  const ProgressCounter::Snapshot s = counter.snapshot();
  CHECK(s.total == 54);
  CHECK(s.done == 54);
  CHECK(s.done_at_start == 48);
  CHECK(s.stage == "points x paths");
}

}  // namespace tco::test
