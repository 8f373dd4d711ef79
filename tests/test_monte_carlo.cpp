// The Monte Carlo runner and its report: determinism (threads, seeds), paired statistics
// (a plan against an identical copy of itself), the --target-ci-usd loop, and a golden
// report. Regenerate the golden file only on purpose:
//   TCO_UPDATE_GOLDEN=1 ./build/tests/tcosim_tests -tc="*golden*"
#include <cstdlib>

#include <doctest/doctest.h>

#include "des_support.hpp"

namespace tco {

namespace {

const std::string kFixture = "tests/fixtures/des/mc_small.json";
const std::string kGolden = "tests/fixtures/des/mc_small.report.json";

// Runs the fixture through the CLI; returns the report text with "run" removed and the
// scenario's path made relative to the source folder (it is absolute on the command line).
std::string fixture_report(const std::vector<std::string>& extra, const std::string& name) {
  const auto dir = test::scratch_dir(name);
  // A pinned day: the report records it and ages the figures on it (docs/cli.md, --today).
  std::vector<std::string> args = {"run", test::source_path(kFixture), "--out", (dir / "r.json").string(), "--quiet",
                                   "--today", "2026-11-28"};
  args.insert(args.end(), extra.begin(), extra.end());
  const test::CliResult r = test::run_cli(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  Json report = Json::parse(test::read_text_file(dir / "r.json"));
  report.erase("run");
  report["scenario"]["file"] = kFixture;
  return report.dump(2) + "\n";
}

}  // namespace

TEST_CASE("Monte Carlo: 1 and 2 threads give byte-identical reports, the same seed twice too") {
  const std::string one = fixture_report({"--threads", "1"}, "mc-threads-1");
  const std::string two = fixture_report({"--threads", "2"}, "mc-threads-2");
  CHECK(one == two);
  CHECK(fixture_report({"--threads", "2"}, "mc-threads-2b") == two);
  const std::string other = fixture_report({"--seed", "43"}, "mc-seed-43");
  CHECK(other != one);
}

TEST_CASE("Monte Carlo: a plan against an identical copy gives exactly 0 and P(cheaper) = 0") {
  const Scenario s = load_scenario(test::source_path(kFixture));
  MonteCarloOptions o;
  const MonteCarloRun mc = run_monte_carlo(s, o);
  CHECK(mc.paths == 8);
  const McComparisonStats* copy = nullptr;
  for (const auto& c : mc.comparisons)
    if (c.plan == "buy-2-burst-copy") copy = &c;
  REQUIRE(copy != nullptr);
  CHECK(copy->baseline == "buy-2-burst");
  CHECK(copy->npv_difference_usd.mean == 0.0);
  CHECK(copy->npv_difference_usd.max == 0.0);
  CHECK(copy->npv_difference_usd.min == 0.0);
  CHECK(copy->npv_difference_usd.stderr_ == 0.0);
  CHECK(copy->p_cheaper == 0.0);
  // The statistics agree with the per-path values they summarise.
  const auto& base = mc.npv_by_path[1];
  double sum = 0.0;
  for (double v : base) sum += v;
  CHECK(mc.plans[1].npv_usd.mean == doctest::Approx(sum / base.size()).epsilon(1e-12));
  // The mean path's ledger is the plans' "npv_usd" in the report: the mean of the paths' NPVs.
  CHECK(mc.run.plans[1].npv_usd == doctest::Approx(mc.plans[1].npv_usd.mean).epsilon(1e-9));
  // Something happened: preemptions, failures, bursts, waiting.
  CHECK(test::job_mean(mc.plans[1], "preemptions") > 0.0);
  CHECK(test::job_mean(mc.plans[1], "bursts") > 0.0);
  CHECK(test::job_mean(mc.plans[0], "completed") > 100.0);
  CHECK_FALSE(mc.checkpoint_advice.empty());
}

TEST_CASE("Monte Carlo: --target-ci-usd stops at the first batch that reaches it, or fails at the ceiling") {
  const auto dir = test::scratch_dir("mc-target");
  const std::string out = (dir / "r.json").string();
  const test::CliResult loose =
      test::run_cli({"run", test::source_path(kFixture), "--out", out, "--quiet", "--target-ci-usd", "1e9"});
  REQUIRE_MESSAGE(loose.exit_code == 0, loose.err);
  const Json report = Json::parse(test::read_text_file(out));
  CHECK(report.at("monte_carlo").at("paths") == 100);  // one batch
  CHECK(report.at("monte_carlo").at("max_comparison_ci95_half_width_usd").get<double>() <= 1e9);

  const test::CliResult tight = test::run_cli({"run", test::source_path(kFixture), "--out", (dir / "t.json").string(),
                                               "--target-ci-usd", "0.01", "--path-ceiling", "20"});
  CHECK(tight.exit_code == 1);
  CHECK(tight.err.find("the path ceiling 20 came first") != std::string::npos);
  CHECK(tight.err.find("half-width") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "t.json"));
}

TEST_CASE("Monte Carlo: the golden report of the fixture (8 paths, seed 42), byte for byte but the run block") {
  const std::string report = fixture_report({"--threads", "2"}, "mc-golden");
  const std::string golden_path = test::source_path(kGolden);
  if (const char* update = std::getenv("TCO_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(golden_path, std::ios::binary) << report;
    MESSAGE("golden report rewritten: " << golden_path);
  }
  REQUIRE_MESSAGE(std::filesystem::exists(golden_path), "no golden report; create it with TCO_UPDATE_GOLDEN=1");
  CHECK(report == test::read_text_file(golden_path));
}

TEST_CASE("tcosim run: a scenario without jobs keeps the deterministic hourly model as its headline") {
  const auto dir = test::scratch_dir("mc-deterministic");
  const Json doc = test::base_scenario_json();
  const std::string path = test::write_json_file(dir / "s.json", doc);
  const test::CliResult one = test::run_cli({"run", path, "--out", (dir / "one.json").string(), "--quiet", "--paths", "1"});
  const test::CliResult r = test::run_cli({"run", path, "--out", (dir / "r.json").string(), "--quiet", "--paths", "5"});
  REQUIRE(one.exit_code == 0);
  REQUIRE(r.exit_code == 0);
  const Json single = Json::parse(test::read_text_file(dir / "one.json"));
  const Json report = Json::parse(test::read_text_file(dir / "r.json"));
  CHECK(single.at("monte_carlo").at("mode") == "deterministic");
  // Five paths add the fluid model's statistics and leave the headline plans as they were.
  CHECK(report.at("plans") == single.at("plans"));
  CHECK(report.at("comparisons") == single.at("comparisons"));
  const Json& mc = report.at("monte_carlo");
  CHECK(mc.at("mode") == "fluid");
  CHECK(mc.at("paths") == 5);
  // No random input: every path is the deterministic run.
  for (std::size_t k = 0; k < mc.at("plans").size(); ++k) {
    const double det = single.at("plans").at(k).at("npv_usd").get<double>();
    CHECK(mc.at("plans").at(k).at("npv_usd").at("mean").get<double>() == doctest::Approx(det).epsilon(1e-9));
    CHECK(mc.at("plans").at(k).at("npv_usd").at("stderr").get<double>() < 1e-9 * std::fabs(det));
  }
  const test::CliResult target = test::run_cli({"run", path, "--quiet", "--target-ci-usd", "1000"});
  CHECK(target.exit_code == 0);
  CHECK(target.err.find("ignores --target-ci-usd") != std::string::npos);
}

}  // namespace tco
