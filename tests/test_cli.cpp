// The command line in-process (cli::run_main): help for the program and every subcommand,
// the report `tcosim run` writes (schema version and the documented keys), and that two runs
// of the same scenario write byte-identical reports.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

using tco::test::contains;

// The subcommand names CLI11 (2.1) lists under "Subcommands:" in a help text, one a line.
std::vector<std::string> listed_subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  std::string line;
  bool in_list = false;
  while (std::getline(in, line)) {
    if (line.rfind("Subcommands:", 0) == 0 || line.rfind("SUBCOMMANDS:", 0) == 0) {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    if (line.empty() || line[0] != ' ') break;
    std::istringstream words(line);
    std::string name;
    if (words >> name) names.push_back(name);
  }
  return names;
}

void check_has_keys(const Json& object, const std::vector<std::string>& keys, const std::string& what) {
  for (const auto& key : keys) CHECK_MESSAGE(object.contains(key), what << " has no \"" << key << "\"");
}

}  // namespace

TEST_CASE("cli: --help lists the subcommands and exits 0") {
  const CliResult r = run_cli({"--help"});
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "run"));
  CHECK(contains(r.out, "demand"));
  const std::vector<std::string> subcommands = listed_subcommands(r.out);
  CHECK(subcommands.size() >= 2);
  // Every listed subcommand answers --help with its own usage, exit 0.
  for (const auto& name : subcommands) {
    CAPTURE(name);
    const CliResult sub = run_cli({name, "--help"});
    CHECK(sub.exit_code == 0);
    CHECK(contains(sub.out, name));
    CHECK(contains(sub.out, "--help"));
  }
}

TEST_CASE("cli: docs/cli.md's pricing import section has a usage line for every format and names every option") {
  const CliResult help = run_cli({"pricing", "import", "--help"});
  REQUIRE(help.exit_code == 0);
  // "--format TEXT:{skypilot,price-index,...}" and one "  -o,--out TEXT ..." line per option.
  const std::size_t open = help.out.find("--format TEXT:{");
  REQUIRE(open != std::string::npos);
  const std::string list = help.out.substr(open + 15, help.out.find('}', open) - open - 15);
  std::vector<std::string> formats;
  std::istringstream names(list);
  for (std::string name; std::getline(names, name, ',');) formats.push_back(name);
  CHECK(formats.size() == 5);  // skypilot, price-index, term-structure, aws-price-list, azure-retail
  const std::string docs = read_text_file(source_path("docs/cli.md"));
  const std::size_t start = docs.find("### `tcosim pricing import`");
  REQUIRE(start != std::string::npos);
  const std::string section = docs.substr(start, docs.find("\n### ", start + 1) - start);
  for (const std::string& format : formats) {
    CAPTURE(format);
    CHECK(contains(section, "`tcosim pricing import --format " + format + " "));
  }
  std::istringstream lines(help.out);
  int options = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t dash = line.find_first_not_of(' ');
    const std::size_t long_name = line.find("--");
    if (dash == std::string::npos || dash == 0 || line[dash] != '-' || long_name == std::string::npos) continue;
    const std::string option = line.substr(long_name, line.find_first_of(" ,", long_name) - long_name);
    if (option == "--help") continue;
    CAPTURE(option);
    CHECK(contains(section, option));
    ++options;
  }
  // --format, --out, --as-of, --reserved-term, --interpolation, --series, --discount-rate, --offer,
  // --gpus-per-instance, --source, --quiet
  CHECK(options == 11);
}

TEST_CASE("cli: usage lines say tcosim, not the path the program was started by") {
  std::string argv0 = "/some/build/folder/tcosim", run = "run", help = "--help";
  for (const std::vector<char*>& argv : {std::vector<char*>{argv0.data(), help.data()},
                                         std::vector<char*>{argv0.data(), run.data(), help.data()}}) {
    std::ostringstream out, err;
    CHECK(cli::run_main(static_cast<int>(argv.size()), const_cast<char**>(argv.data()), out, err) == 0);
    CAPTURE(out.str());
    CHECK(contains(out.str(), "tcosim"));
    CHECK_FALSE(contains(out.str(), "/some/build/folder"));
  }
}

TEST_CASE("cli: --threads means the same in every command: 0, the default, is all cores") {
  for (const char* command : {"run", "optimize", "sensitivity", "calibrate", "sweep", "regress"}) {
    CAPTURE(command);
    const CliResult r = run_cli({command, "--help"});
    CHECK(contains(r.out, "--threads"));
    CHECK(contains(r.out, "default 0: all cores"));
  }
  // 0 is accepted (the fixture's report is the same bytes as with 1 thread), -1 is a usage error.
  const auto dir = scratch_dir("cli-threads");
  const std::string zero = (dir / "zero.json").string(), one = (dir / "one.json").string();
  CHECK(run_cli({"run", fixture_scenario("simple.json"), "--out", zero, "--threads", "0", "--quiet"}).exit_code == 0);
  CHECK(run_cli({"run", fixture_scenario("simple.json"), "--out", one, "--threads", "1", "--quiet"}).exit_code == 0);
  Json a = Json::parse(read_text_file(zero)), b = Json::parse(read_text_file(one));
  a.erase("run");
  b.erase("run");
  CHECK(a == b);
  CHECK(run_cli({"run", fixture_scenario("simple.json"), "--threads", "-1"}).exit_code == 2);
}

TEST_CASE("cli: --backend means the same in every command: auto, the default, cpu or cuda") {
  for (const char* command : {"optimize", "sweep"}) {
    CAPTURE(command);
    const CliResult r = run_cli({command, "--help"});
    CHECK(contains(r.out, "auto (default: CUDA when built, a device is visible and it passes the parity probe against the CPU, else CPU)"));
  }
}

TEST_CASE("cli: run --help documents its options") {
  const CliResult r = run_cli({"run", "--help"});
  CHECK(r.exit_code == 0);
  for (const char* option : {"--out", "--md", "--catalog", "--quiet", "scenario"}) {
    CAPTURE(option);
    CHECK(contains(r.out, option));
  }
}

TEST_CASE("cli: demand and its subcommands document their options") {
  const CliResult demand = run_cli({"demand", "--help"});
  CHECK(demand.exit_code == 0);
  CHECK(contains(demand.out, "import"));
  CHECK(contains(demand.out, "stats"));
  const CliResult import = run_cli({"demand", "import", "--help"});
  CHECK(import.exit_code == 0);
  CHECK(contains(import.out, "--format"));
  CHECK(contains(import.out, "--out"));
  CHECK(contains(import.out, "--output"));  // the older spelling, still accepted
  const CliResult stats = run_cli({"demand", "stats", "--help"});
  CHECK(stats.exit_code == 0);
  CHECK(contains(stats.out, "--format"));
}

TEST_CASE("cli: usage errors exit 2") {
  CHECK(run_cli({}).exit_code == 2);                    // a subcommand is required
  CHECK(run_cli({"no-such-command"}).exit_code == 2);
  CHECK(run_cli({"run"}).exit_code == 2);               // the scenario is required
  CHECK(run_cli({"run", "/nonexistent/scenario.json", "--quiet"}).exit_code == 2);
}

TEST_CASE("cli: run writes a tcosim.report/1 report with the documented keys") {
  const auto dir = scratch_dir("cli-report");
  const auto out = dir / "report.json";
  const CliResult r = run_cli({"run", fixture_scenario("simple.json"), "--out", out.string()});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, out.string()));  // the console names the report it wrote
  const Json report = Json::parse(read_text_file(out));
  CHECK(report.at("schema_version") == "tcosim.report/1");
  check_has_keys(report,
                 {"schema_version", "tool", "run", "scenario", "pricing", "monte_carlo", "inputs", "demand", "plans",
                  "comparisons", "breakevens", "warnings"},
                 "the report");
  REQUIRE(report.at("plans").size() == 2);
  const std::vector<std::string> categories = {
      "capex",           "financing_interest", "lease",          "maintenance", "facility",
      "energy",          "staff",              "cloud_on_demand", "cloud_spot",  "cloud_reserved",
      "egress",          "waiting",            "residual",       "tax_shield",      "carbon"};
  for (const auto& plan : report.at("plans")) {
    CAPTURE(plan.at("name").get<std::string>());
    check_has_keys(plan,
                   {"name", "kind", "onprem_nodes", "total_nominal_usd", "npv_usd", "usd_per_useful_gpu_hour",
                    "breakdown_nominal_usd", "breakdown_npv_usd", "onprem_utilization", "gpu_hours", "energy",
                    "facility", "co2_kg", "depreciation_total_usd", "monthly"},
                   "a plan");
    check_has_keys(plan.at("breakdown_nominal_usd"), categories, "breakdown_nominal_usd");
    check_has_keys(plan.at("breakdown_npv_usd"), categories, "breakdown_npv_usd");
    // The breakdown adds up to the total.
    double sum_usd = 0.0;
    for (const auto& c : categories) sum_usd += plan.at("breakdown_nominal_usd").at(c).get<double>();
    CHECK(sum_usd == doctest::Approx(plan.at("total_nominal_usd").get<double>()).epsilon(1e-12));
    // One monthly row per month of the 12-month horizon.
    CHECK(plan.at("monthly").at("rows").size() == 12);
  }
  // simple.json: cloud = 2 x $16 x 8,760 = $280,320; buy-2 = $480,280 (see test_ledger_plans).
  CHECK(report_plan(report, "cloud").at("total_nominal_usd").get<double>() == doctest::Approx(280320.0).epsilon(1e-12));
  CHECK(report_plan(report, "buy-2").at("total_nominal_usd").get<double>() == doctest::Approx(480280.0).epsilon(1e-9));
  REQUIRE(report.at("comparisons").size() == 1);
  check_has_keys(report.at("comparisons").at(0),
                 {"plan", "baseline", "npv_saving_usd", "nominal_saving_usd", "payback_month", "irr_per_year"},
                 "a comparison");
  CHECK(report.at("comparisons").at(0).at("plan") == "buy-2");
  CHECK(report.at("comparisons").at(0).at("baseline") == "cloud");
  check_has_keys(report.at("breakevens"), {"utilization", "cloud_price_multiplier"}, "breakevens");
}

TEST_CASE("cli: running a scenario twice writes byte-identical reports") {
  const auto dir = scratch_dir("cli-twice");
  const auto first = dir / "first.json";
  const auto second = dir / "second.json";
  for (const auto& out : {first, second}) {
    const CliResult r = run_cli({"run", fixture_scenario("cloud_venues.json"), "--out", out.string(), "--quiet"});
    REQUIRE(r.exit_code == 0);
  }
  const std::string a = read_text_file(first);
  CHECK(a.size() > 1000);
  CHECK(a == read_text_file(second));
}

TEST_CASE("cli: report on a damaged report is bad input naming the field, and writes nothing") {
  const auto dir = scratch_dir("report-damaged");
  Json report = read_json_file(source_path("tests/baselines/base-load-and-burst.json"));
  report["plans"][0]["npv_usd"] = "x";
  const std::string damaged = (dir / "damaged.json").string();
  std::ofstream(damaged) << report.dump();
  const std::string html = (dir / "r.html").string(), md = (dir / "r.md").string(), csv = (dir / "csv").string();
  const CliResult r = run_cli({"report", damaged, "--html", html, "--md", md, "--csv", csv});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("damaged.json: /plans/0/npv_usd") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(html));
  CHECK_FALSE(std::filesystem::exists(md));
  CHECK_FALSE(std::filesystem::exists(csv));

  report.erase("plans");
  std::ofstream(damaged) << report.dump();
  CHECK(run_cli({"report", damaged}).exit_code == 2);
}
