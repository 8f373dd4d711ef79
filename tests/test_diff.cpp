// `tcosim diff` (reports/diff/report_diff.hpp): reports built in the test, compared through the
// command line (exit codes, what is named) and through diff_reports (verdicts).
#include <doctest/doctest.h>

#include <fstream>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "reports/diff/report_diff.hpp"
#include "test_support.hpp"

namespace {

using tco::Json;

using tco::test::CliResult;
using tco::test::run_cli;

// A deterministic report of two plans: the cloud baseline and a plan buying 2 nodes.
Json report(double cloud_npv_usd, double buy_npv_usd) {
  const Json payback = buy_npv_usd <= cloud_npv_usd ? Json(14) : Json(nullptr);
  return {{"schema_version", "tcosim.report/1"},
          {"tool", {{"name", "tcosim"}, {"version", "0.1.0"}}},
          {"run", {{"command", "run"}, {"threads", 1}}},
          {"scenario", {{"name", "simple"}, {"baseline", "cloud"}}},
          {"monte_carlo", {{"seed", nullptr}, {"paths", 1}, {"mode", "deterministic"}}},
          {"plans",
           {{{"name", "cloud"},
             {"npv_usd", cloud_npv_usd},
             {"breakdown_npv_usd", {{"cloud_on_demand", cloud_npv_usd}, {"capex", 0.0}}}},
            {{"name", "buy-2"},
             {"npv_usd", buy_npv_usd},
             {"breakdown_npv_usd", {{"cloud_on_demand", 0.0}, {"capex", buy_npv_usd}}}}}},
          {"comparisons",
           {{{"plan", "buy-2"},
             {"baseline", "cloud"},
             {"npv_saving_usd", cloud_npv_usd - buy_npv_usd},
             {"payback_month", payback}}}},
          {"breakevens",
           {{"utilization",
             {{{"server", "test-node-8"}, {"plan", "buy-2"}, {"price_basis", "on_demand"}, {"utilization", 0.525}}}},
            {"cloud_price_multiplier", {{{"plan", "buy-2"}, {"baseline", "cloud"}, {"cloud_price_multiplier", 1.713}}}}}}};
}

// Monte Carlo statistics of a plan's NPV, as the report's monte_carlo block carries them.
Json with_statistics(Json r, const std::string& plan, double mean, double stderr_usd) {
  r["monte_carlo"]["seed"] = 7;
  r["monte_carlo"]["paths"] = 1000;
  r["monte_carlo"]["mode"] = "monte_carlo";
  Json stats = {{"mean", mean}, {"stderr", stderr_usd}, {"p50", mean}, {"p90", mean + 50000.0}};
  if (!r["monte_carlo"].contains("plans")) r["monte_carlo"]["plans"] = Json::array();
  r["monte_carlo"]["plans"].push_back({{"name", plan}, {"npv_usd", stats}});
  return r;
}

std::string write(const std::filesystem::path& dir, const std::string& file, const Json& report) {
  const auto path = dir / file;
  std::ofstream(path, std::ios::binary) << report.dump(2);
  return path.string();
}

// In a scratch folder of the test process (removed when it exits).
CliResult diff(const std::string& name, const Json& base, const Json& next, std::vector<std::string> extra = {}) {
  const auto dir = tco::test::scratch_dir(name);
  std::vector<std::string> args = {"diff", write(dir, "base.json", base), write(dir, "new.json", next)};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("diff: identical reports exit 0 with \"no change\"") {
  const CliResult r = diff("diff-identical", report(280320.0, 480280.0), report(280320.0, 480280.0));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("no change") != std::string::npos);
  SUBCASE("the run block (threads) is not compared") {
    Json other = report(280320.0, 480280.0);
    other["run"]["threads"] = 16;
    const CliResult s = diff("diff-identical-run", report(280320.0, 480280.0), other);
    CHECK(s.exit_code == 0);
    CHECK(s.out.find("no change") != std::string::npos);
  }
}

TEST_CASE("diff: identical reports of a real run exit 0 with \"no change\"") {
  const auto dir = tco::test::scratch_dir("diff-real");
  const std::string a = (dir / "a.json").string(), b = (dir / "b.json").string();
  const std::string scenario = tco::test::source_path("tests/fixtures/scenarios/simple.json");
  REQUIRE(run_cli({"run", scenario, "--out", a, "--quiet"}).exit_code == 0);
  REQUIRE(run_cli({"run", scenario, "--out", b, "--quiet"}).exit_code == 0);
  const CliResult r = run_cli({"diff", a, b});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("no change") != std::string::npos);
}

TEST_CASE("diff: a 1% NPV move with 0.5% tolerance exits 1 and names the figure") {
  // $480,280 x 1.01 = $485,082.80: +$4,802.80 > max(0.5% x 480,280 = $2,401.40, $1,000).
  Json next = report(280320.0, 480280.0);
  next["plans"][1]["npv_usd"] = 480280.0 * 1.01;
  for (const char* tolerance : {"0.5%", "0.005"}) {
    CAPTURE(tolerance);
    const CliResult r = diff("diff-1pct", report(280320.0, 480280.0), next, {"--tolerance", tolerance});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("buy-2: NPV") != std::string::npos);
    CHECK(r.out.find("+$4,803 (+1.00%)") != std::string::npos);
    CHECK(r.out.find("beyond tolerance") != std::string::npos);
  }
  SUBCASE("with 2% it is within tolerance: exit 0, still shown") {
    const CliResult r = diff("diff-1pct-2", report(280320.0, 480280.0), next, {"--tolerance", "2%"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("buy-2: NPV") != std::string::npos);
    CHECK(r.out.find("within tolerance") != std::string::npos);
  }
  SUBCASE("markdown and json name it too") {
    const CliResult md = diff("diff-1pct-md", report(280320.0, 480280.0), next, {"--format", "md"});
    CHECK(md.exit_code == 1);
    CHECK(md.out.find("| buy-2: NPV | $480,280 | $485,083 | +$4,803 (+1.00%) | **beyond tolerance** |") !=
          std::string::npos);
    const CliResult js = diff("diff-1pct-json", report(280320.0, 480280.0), next, {"--format", "json"});
    CHECK(js.exit_code == 1);
    const Json parsed = Json::parse(js.out);
    CHECK(parsed.at("result") == "regression");
    REQUIRE(parsed.at("changes").size() >= 1);
    CHECK(parsed.at("changes")[0].at("figure") == "buy-2: NPV");
    CHECK(parsed.at("changes")[0].at("change").get<double>() == doctest::Approx(4802.8).epsilon(1e-12));
  }
}

TEST_CASE("diff: a move must exceed both the relative and the absolute tolerance") {
  // A plan of $50,000 moving 1% = $500: above 0.5% ($250) but not above $1,000.
  Json base = report(280320.0, 50000.0), next = base;
  next["plans"][1]["npv_usd"] = 50500.0;
  next["plans"][1]["breakdown_npv_usd"]["capex"] = 50500.0;
  const tco::DiffTolerance tolerance{0.005, 1000.0};
  const tco::ReportDiff d = tco::diff_reports(base, next, tolerance);
  REQUIRE(d.changes.size() == 2);
  CHECK(d.changes[0].figure == "buy-2: NPV");
  CHECK(d.changes[0].verdict == tco::Verdict::within_tolerance);
  CHECK_FALSE(d.fails());
  const tco::ReportDiff strict = tco::diff_reports(base, next, tco::DiffTolerance{0.005, 100.0});
  CHECK(strict.changes[0].verdict == tco::Verdict::beyond_tolerance);
  CHECK(strict.fails());
  CHECK(diff("diff-abs", base, next, {"--abs-tolerance-usd", "100"}).exit_code == 1);
  CHECK(diff("diff-abs-default", base, next).exit_code == 0);
}

TEST_CASE("diff: the per-category breakdown is shown but does not fail") {
  Json next = report(280320.0, 480280.0);
  next["plans"][1]["breakdown_npv_usd"]["capex"] = 400000.0;
  next["plans"][1]["breakdown_npv_usd"]["cloud_on_demand"] = 80280.0;
  const tco::ReportDiff d = tco::diff_reports(report(280320.0, 480280.0), next, {});
  REQUIRE(d.changes.size() == 2);
  CHECK(d.changes[0].figure == "buy-2: capex (NPV)");
  CHECK(d.changes[0].verdict == tco::Verdict::breakdown_moved);
  CHECK_FALSE(d.fails());
}

TEST_CASE("diff: a changed best plan is flagged first") {
  // buy-2 drops from $480,280 to $270,000, below the cloud's $280,320.
  const CliResult r = diff("diff-best", report(280320.0, 480280.0), report(280320.0, 270000.0));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  const auto decision = r.out.find("DECISION CHANGED: cheapest plan: cloud -> buy-2");
  REQUIRE(decision != std::string::npos);
  CHECK(decision < r.out.find("buy-2: NPV"));
  // The payback appearing is a decision too.
  CHECK(r.out.find("DECISION CHANGED: buy-2: payback month vs cloud: never -> month 14") != std::string::npos);

  const tco::ReportDiff d = tco::diff_reports(report(280320.0, 480280.0), report(280320.0, 270000.0), {});
  REQUIRE(!d.changes.empty());
  CHECK(d.changes[0].figure == "cheapest plan");
  CHECK(d.changes[0].verdict == tco::Verdict::decision_changed);
  CHECK(d.count(tco::Verdict::decision_changed) == 2);

  const CliResult md = diff("diff-best-md", report(280320.0, 480280.0), report(280320.0, 270000.0), {"--format", "md"});
  CHECK(md.out.find("**Decision changed: cheapest plan: cloud → buy-2**") != std::string::npos);
}

TEST_CASE("diff: a best N in the sizing section that changes is a decision") {
  Json base = report(280320.0, 480280.0), next = base;
  base["sizing"] = {{"best", {{"mean", {{"nodes", 3}}}, {"p90", {{"nodes", 2}}}}}};
  next["sizing"] = {{"best", {{"mean", {{"nodes", 4}}}, {"p90", {{"nodes", 2}}}}}};
  const tco::ReportDiff d = tco::diff_reports(base, next, {});
  REQUIRE(d.changes.size() == 1);
  CHECK(d.changes[0].figure == "best N (mean)");
  CHECK(d.changes[0].verdict == tco::Verdict::decision_changed);
  CHECK(d.fails());
}

TEST_CASE("diff: Monte Carlo noise within 3 combined standard errors is not flagged") {
  // stderr $2,000 in both reports: 3 x sqrt(2,000^2 + 2,000^2) = $8,485.28.
  const Json base = with_statistics(report(280320.0, 1000000.0), "buy-2", 1000000.0, 2000.0);
  SUBCASE("mean +$8,000 (0.8%, beyond 0.5% and $1,000 but within noise): exit 0") {
    const Json next = with_statistics(report(280320.0, 1000000.0), "buy-2", 1008000.0, 2000.0);
    const tco::ReportDiff d = tco::diff_reports(base, next, {});
    REQUIRE(d.changes.size() >= 1);
    CHECK(d.changes[0].figure == "buy-2: NPV (mean)");
    CHECK(d.changes[0].verdict == tco::Verdict::noise);
    REQUIRE(d.changes[0].next_stderr.has_value());
    CHECK(*d.changes[0].next_stderr == doctest::Approx(2000.0).epsilon(1e-12));
    CHECK_FALSE(d.fails());
    const CliResult r = diff("diff-mc-noise", base, next);
    INFO(r.out);
    CHECK(r.exit_code == 0);
  }
  SUBCASE("mean +$9,000 (beyond 3 combined standard errors): exit 1") {
    const Json next = with_statistics(report(280320.0, 1000000.0), "buy-2", 1009000.0, 2000.0);
    const tco::ReportDiff d = tco::diff_reports(base, next, {});
    REQUIRE(d.changes.size() >= 1);
    CHECK(d.changes[0].figure == "buy-2: NPV (mean)");
    CHECK(d.changes[0].verdict == tco::Verdict::beyond_tolerance);
    const CliResult r = diff("diff-mc-moved", base, next);
    CHECK(r.exit_code == 1);
  }
  SUBCASE("P90 noise is wider than the mean's: x 1.7094 (normal theory)") {
    // P90 moves $14,000: within 3 x 2,828.43 x 1.7094 = $14,504.6, beyond the mean's $8,485.
    Json next = with_statistics(report(280320.0, 1000000.0), "buy-2", 1000000.0, 2000.0);
    next["monte_carlo"]["plans"][0]["npv_usd"]["p90"] = 1050000.0 + 14000.0;
    const tco::ReportDiff d = tco::diff_reports(base, next, {});
    REQUIRE(d.changes.size() == 1);
    CHECK(d.changes[0].figure == "buy-2: NPV P90");
    CHECK(d.changes[0].verdict == tco::Verdict::noise);
    CHECK(*d.changes[0].base_stderr == doctest::Approx(2000.0 * 1.7094).epsilon(1e-4));
  }
  SUBCASE("a swap of the cheapest plan between two plans within noise is not a decision") {
    // cloud 1,000,000 +/- 2,000; buy-2 1,001,000 -> 999,000: the 1,000 gap is within noise.
    Json b = with_statistics(with_statistics(report(1000000.0, 1001000.0), "cloud", 1000000.0, 2000.0), "buy-2",
                             1001000.0, 2000.0);
    Json n = with_statistics(with_statistics(report(1000000.0, 999000.0), "cloud", 1000000.0, 2000.0), "buy-2",
                             999000.0, 2000.0);
    n["comparisons"][0]["payback_month"] = nullptr;
    // The saving -$1,000 -> +$1,000 is within 3 x sqrt(500^2 + 500^2) = $2,121.32.
    b["monte_carlo"]["comparisons"] = {{{"plan", "buy-2"}, {"npv_saving_usd", {{"mean", -1000.0}, {"stderr", 500.0}}}}};
    n["monte_carlo"]["comparisons"] = {{{"plan", "buy-2"}, {"npv_saving_usd", {{"mean", 1000.0}, {"stderr", 500.0}}}}};
    const tco::ReportDiff d = tco::diff_reports(b, n, {});
    REQUIRE(!d.changes.empty());
    CHECK(d.changes[0].figure == "cheapest plan");
    CHECK(d.changes[0].verdict == tco::Verdict::noise);
    CHECK_FALSE(d.fails());
  }
}

TEST_CASE("diff: a Monte Carlo saving compares as the paired difference plan - baseline, negated") {
  // The report's monte_carlo.comparisons carry npv_difference_usd = plan - baseline per path.
  auto with_difference = [](Json r, double mean, double stderr_usd) {
    r["monte_carlo"]["comparisons"] = {
        {{"plan", "buy-2"}, {"baseline", "cloud"}, {"npv_difference_usd", {{"mean", mean}, {"stderr", stderr_usd}}}}};
    return r;
  };
  // Saving 199,960 -> 196,960: -3,000 is beyond 0.5% ($999.80) and $1,000; paired stderr
  // $400 in both: 3 x 565.69 = $1,697.06 < $3,000, so it moved.
  const Json base = with_difference(report(280320.0, 480280.0), -199960.0, 400.0);
  const Json next = with_difference(report(280320.0, 480280.0), -196960.0, 400.0);
  const tco::ReportDiff d = tco::diff_reports(base, next, {});
  REQUIRE(d.changes.size() == 1);
  CHECK(d.changes[0].figure == "buy-2: NPV saving vs cloud (mean)");
  CHECK(d.changes[0].base.get<double>() == doctest::Approx(199960.0).epsilon(1e-12));
  CHECK(d.changes[0].next.get<double>() == doctest::Approx(196960.0).epsilon(1e-12));
  CHECK(d.changes[0].verdict == tco::Verdict::beyond_tolerance);
  // With stderr $800: 3 x 1,131.37 = $3,394.11 > $3,000: noise.
  const tco::ReportDiff noisy = tco::diff_reports(with_difference(report(280320.0, 480280.0), -199960.0, 800.0),
                                                  with_difference(report(280320.0, 480280.0), -196960.0, 800.0), {});
  REQUIRE(noisy.changes.size() == 1);
  CHECK(noisy.changes[0].verdict == tco::Verdict::noise);
}

TEST_CASE("diff: a plan added or removed fails") {
  Json next = report(280320.0, 480280.0);
  next["plans"].push_back({{"name", "buy-4"}, {"npv_usd", 900000.0}});
  const tco::ReportDiff d = tco::diff_reports(report(280320.0, 480280.0), next, {});
  REQUIRE(d.changes.size() == 1);
  CHECK(d.changes[0].note == "plan added");
  CHECK(d.fails());
}

TEST_CASE("diff: mismatched schema versions or scenarios exit 2 and say so") {
  Json next = report(280320.0, 480280.0);
  next["schema_version"] = "tcosim.report/2";
  const CliResult r = diff("diff-schema", report(280320.0, 480280.0), next);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("different schema versions") != std::string::npos);
  CHECK(r.err.find("tcosim.report/2") != std::string::npos);

  Json other = report(280320.0, 480280.0);
  other["scenario"]["name"] = "h100-colo";
  const CliResult s = diff("diff-scenario", report(280320.0, 480280.0), other);
  CHECK(s.exit_code == 2);
  CHECK(s.err.find("different scenarios") != std::string::npos);

  const CliResult bad = diff("diff-not-report", report(280320.0, 480280.0), Json{{"plans", 3}});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("/schema_version") != std::string::npos);
}

TEST_CASE("diff: tolerances parse as a percentage or a fraction, anything else is bad input") {
  CHECK(tco::parse_relative_tolerance("0.5%") == doctest::Approx(0.005).epsilon(1e-15));
  CHECK(tco::parse_relative_tolerance("0.005") == doctest::Approx(0.005).epsilon(1e-15));
  CHECK(tco::parse_relative_tolerance("0") == 0.0);
  CHECK_THROWS_AS(tco::parse_relative_tolerance("half"), tco::InputError);
  CHECK_THROWS_AS(tco::parse_relative_tolerance("-1%"), tco::InputError);
  CHECK_THROWS_AS(tco::parse_relative_tolerance("150%"), tco::InputError);
  CHECK_THROWS_AS(tco::parse_relative_tolerance("%"), tco::InputError);
  const CliResult r = diff("diff-bad-tolerance", report(1.0, 2.0), report(1.0, 2.0), {"--tolerance", "abc"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--tolerance") != std::string::npos);
}
