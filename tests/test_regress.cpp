// `tcosim regress` on a scratch project: the round-number fixture scenario and a copy of the
// fixture catalog; baselines created with --update, then a catalog price edited on purpose.
#include <doctest/doctest.h>

#include <fstream>

#include "cli_test_support.hpp"
#include "core/io/json_reader.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using tco::Json;

using tco::test::CliResult;
using tco::test::run_cli;

// scratch/project/{scenarios/simple.json, catalog/, baselines/}; returns scratch/project.
fs::path make_project(const std::string& name) {
  const fs::path project = tco::test::scratch_dir(name) / "project";
  fs::create_directories(project / "scenarios");
  fs::copy(tco::test::source_path("tests/fixtures/catalog"), project / "catalog", fs::copy_options::recursive);
  fs::copy_file(tco::test::source_path("tests/fixtures/scenarios/simple.json"), project / "scenarios" / "simple.json");
  return project;
}

void write_json(const fs::path& path, const Json& doc) { std::ofstream(path, std::ios::binary) << doc.dump(2); }

// A copy of the project's catalog with the 8-GPU offer's on-demand price changed.
fs::path edited_catalog(const fs::path& project, double on_demand_usd_per_hour) {
  const fs::path dir = project / "catalog-edited";
  fs::copy(project / "catalog", dir, fs::copy_options::recursive);
  Json offers = tco::read_json_file((dir / "cloud_offers.json").string());
  REQUIRE(offers.at("records")[0].at("id") == "test/gpu8/region-a");
  REQUIRE(offers.at("records")[0].at("on_demand_usd_per_hour") == 16.0);
  offers["records"][0]["on_demand_usd_per_hour"] = on_demand_usd_per_hour;
  write_json(dir / "cloud_offers.json", offers);
  return dir;
}

std::vector<std::string> regress_args(const fs::path& project, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"regress", (project / "scenarios").string(), "--baselines",
                                   (project / "baselines").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

using tco::test::contains;

}  // namespace

TEST_CASE("regress: a missing baseline fails and says to run with --update, --update writes it") {
  const fs::path project = make_project("regress-update");
  fs::create_directories(project / "baselines");

  const CliResult missing = run_cli(regress_args(project));
  INFO(missing.out << missing.err);
  CHECK(missing.exit_code == 1);
  CHECK(contains(missing.out, "| simple | | | | | **missing baseline**"));
  CHECK(contains(missing.out, "--update"));

  const CliResult update = run_cli(regress_args(project, {"--update"}));
  INFO(update.out << update.err);
  CHECK(update.exit_code == 0);
  CHECK(contains(update.out, "baseline created"));
  const Json baseline = tco::read_json_file((project / "baselines" / "simple.json").string());
  CHECK_FALSE(baseline.contains("run"));
  CHECK(baseline.at("schema_version") == "tcosim.report/1");
  CHECK(baseline.at("plans")[0].at("npv_usd").get<double>() == doctest::Approx(280320.0).epsilon(1e-12));

  const CliResult again = run_cli(regress_args(project));
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK(contains(again.out, "| simple | | | | | no change |"));
  CHECK(contains(again.out, "**OK**: 1 scenario: 0 regressed, 0 moved within tolerance, 1 unchanged"));

  // Updating with nothing changed leaves the file as it was.
  const CliResult unchanged = run_cli(regress_args(project, {"--update"}));
  CHECK(unchanged.exit_code == 0);
  CHECK(contains(unchanged.out, "baseline unchanged"));
}

TEST_CASE("regress: an edited catalog price fails the regression and the table shows the moved figures") {
  const fs::path project = make_project("regress-edited");
  REQUIRE(run_cli(regress_args(project, {"--update"})).exit_code == 0);
  // 16.0 -> 16.8 $/instance-hour (+5%): the cloud plan's 2 instances x 8,760 h cost
  // 2 x 8,760 x 16.8 = $294,336 instead of $280,320 (+$14,016); buy-2 serves all 16 GPUs
  // on-prem, so its NPV does not move, and its saving vs the cloud grows by $14,016.
  const fs::path catalog = edited_catalog(project, 16.8);
  const fs::path md = project / "regress.md";
  const CliResult r = run_cli(regress_args(project, {"--catalog", catalog.string(), "--md", md.string()}));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "| scenario | figure | base | new | change | verdict |"));
  CHECK(contains(r.out, "| simple | cloud: NPV | $280,320 | $294,336 | +$14,016 (+5.00%) | **beyond tolerance** |"));
  CHECK(contains(r.out, "| simple | buy-2: NPV saving vs cloud | -$199,960 | -$185,944 | +$14,016 (+7.01%) | "
                        "**beyond tolerance** |"));
  CHECK(contains(r.out, "buy-2: utilization breakeven vs test/gpu8/region-a on_demand (test-node-8)"));
  CHECK(contains(r.out, "buy-2: cloud price breakeven"));
  CHECK_FALSE(contains(r.out, "| simple | buy-2: NPV |"));  // did not move
  CHECK(contains(r.out, "**REGRESSION**: 1 scenario: 1 regressed"));
  CHECK(contains(r.out, "--update"));

  std::ifstream in(md);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(contains(written, "| simple | cloud: NPV | $280,320 | $294,336 | +$14,016 (+5.00%) | **beyond tolerance** |"));
  CHECK(written == r.out);

  SUBCASE("a move within a wider tolerance passes") {
    const CliResult wide = run_cli(regress_args(project, {"--catalog", catalog.string(), "--tolerance", "10%"}));
    CHECK(wide.exit_code == 0);
    CHECK(contains(wide.out, "within tolerance"));
  }
}

TEST_CASE("regress: input data absent outside the project is skipped, a missing path inside it is bad input") {
  const fs::path project = make_project("regress-skip");
  Json scenario = tco::read_json_file((project / "scenarios" / "simple.json").string());
  // project/scenarios/../../absent-shared-data/catalog lies outside project/ (like ../shared/data).
  scenario["catalog_dir"] = "../../absent-shared-data/catalog";
  scenario["name"] = "needs-shared-data";
  write_json(project / "scenarios" / "needs_shared_data.json", scenario);
  REQUIRE_FALSE(fs::exists(project.parent_path() / "absent-shared-data"));

  const CliResult r = run_cli(regress_args(project, {"--update"}));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "note: skipped"));
  CHECK(contains(r.out, "| needs_shared_data | | | | | skipped: input data outside the project is absent"));
  CHECK_FALSE(fs::exists(project / "baselines" / "needs_shared_data.json"));
  CHECK(run_cli(regress_args(project)).exit_code == 0);

  scenario["catalog_dir"] = "../catalgo";  // a typo inside the project
  scenario["name"] = "typo";
  write_json(project / "scenarios" / "typo.json", scenario);
  const CliResult typo = run_cli(regress_args(project));
  INFO(typo.out << typo.err);
  CHECK(typo.exit_code == 2);
  CHECK(contains(typo.out, "| typo | | | | | **bad input**"));
  CHECK(contains(typo.out, "/catalog_dir"));
}

TEST_CASE("regress: a Monte Carlo scenario's baseline is the report `tcosim run` writes, minus its run block") {
  const fs::path project = make_project("regress-mc");
  fs::copy_file(tco::test::source_path("tests/fixtures/des/mc_small.json"), project / "scenarios" / "mc_small.json");
  const CliResult update = run_cli(regress_args(project, {"--update", "--threads", "2"}));
  INFO(update.out << update.err);
  REQUIRE(update.exit_code == 0);

  const fs::path report_path = project / "run.json";
  REQUIRE(run_cli({"run", (project / "scenarios" / "mc_small.json").string(), "--out", report_path.string(), "--quiet"})
              .exit_code == 0);
  Json report = tco::read_json_file(report_path.string());
  REQUIRE(report.at("monte_carlo").contains("plans"));
  report.erase("run");
  const Json baseline = tco::read_json_file((project / "baselines" / "mc_small.json").string());
  CHECK(baseline == report);

  const CliResult again = run_cli(regress_args(project));
  CHECK(again.exit_code == 0);
  CHECK(contains(again.out, "| mc_small | | | | | no change |"));
}

TEST_CASE("regress: a missing scenarios or baselines folder is bad input") {
  const fs::path project = make_project("regress-folders");
  CHECK(run_cli({"regress", (project / "nope").string(), "--baselines", (project / "baselines").string()}).exit_code == 2);
  const CliResult r = run_cli(regress_args(project));  // project/baselines does not exist yet
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--update"));
}
