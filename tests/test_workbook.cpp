// The Excel workbook's pieces that need no spreadsheet engine: sheet names, the report's
// start_of_month_usd column (the timing the workbook's formulas discount with), and the --xlsx
// option's errors, and the live formulas' choice (reports/workbook/live_plan.hpp). The recalculation
// itself is tests/check_workbook.py and tests/check_live_workbook.py in LibreOffice.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "cli_test_support.hpp"
#include "core/io/json_reader.hpp"
#include "reports/document/section_order.hpp"
#include "reports/workbook/live_plan.hpp"
#include "reports/workbook/workbook.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("workbook: plan sheet names are legal, at most 31 characters and unique") {
  const std::vector<std::string> names = workbook_plan_sheet_names(
      {"buy-4 [burst: spot/od]", "Summary", "a-very-long-plan-name-that-goes-past-31-characters-1",
       "a-very-long-plan-name-that-goes-past-31-characters-2", "BUY-4 _BURST_ SPOT_OD_", "'quoted'", "???"});
  REQUIRE(names.size() == 7);
  CHECK(names[0] == "buy-4 _burst_ spot_od_");  // [ ] : / replaced
  CHECK(names[1] == "Summary~2");                // the workbook's own sheet keeps its name
  CHECK(names[2] == "a-very-long-plan-name-that-goes");
  CHECK(names[2].size() == 31);
  CHECK(names[3] == "a-very-long-plan-name-that-go~2");  // cut to make room for the suffix
  CHECK(names[4] == "BUY-4 _BURST_ SPOT_OD_~2");        // unique without regard to case
  CHECK(names[5] == "quoted");                          // no leading or trailing apostrophe
  CHECK(names[6] == "___");
}

TEST_CASE("workbook: a plan named as a section's sheet gets a suffix, and the report writes its workbook") {
  // The section sheets (CO2, Implied forwards, ...) are reserved as Summary is: before, a plan named
  // "CO2" took the name, the CO2 section's sheet could not be added and the writer crashed.
  const std::vector<std::string> names = workbook_plan_sheet_names({"CO2", "implied forwards", "Hours", "Venues 2"});
  // "Venues 2" is reserved for a second table of the Venues section (Sources has one: sources_own_dates.csv).
  CHECK(names == std::vector<std::string>{"CO2~2", "implied forwards~2", "Hours~2", "Venues 2~2"});
  const auto dir = scratch_dir("xlsx-section-name");
  Json report = Json::parse(read_all(source_path("tests/baselines/startup-monte-carlo.json")));
  REQUIRE_FALSE(report_section(report, "carbon").empty());  // the CO2 sheet is written for this report
  report.at("plans").at(0).at("name") = "CO2";
  write_text(dir / "co2.json", report.dump());
  const CliResult r = run_cli({"report", (dir / "co2.json").string(), "--xlsx", (dir / "co2.xlsx").string()});
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 0);
  CHECK(read_all(dir / "co2.xlsx").substr(0, 2) == "PK");
}

TEST_CASE("workbook: the monthly table's start_of_month_usd gives the NPV with SPEC §6 timing") {
  // purchase_month3.json buys its servers (start of month, capex) in month 3 and pays operating
  // costs at the ends of months: NPV = sum_m start_m (1+r)^(-m/12) + (total_m - start_m)
  // (1+r)^(-(m+1)/12), recomputed here from the table alone.
  for (const char* fixture : {"purchase_month3.json", "lease.json", "simple.json"}) {
    CAPTURE(fixture);
    const auto dir = scratch_dir("xlsx-start-of-month");
    const auto out = dir / "r.json";
    const CliResult r = run_cli({"run", fixture_scenario(fixture), "--out", out.string(), "-q"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const Json report = Json::parse(read_all(out));
    const double rate = report.at("scenario").at("discount_rate_per_year").get<double>();
    bool some_start = false;
    for (const auto& plan : report.at("plans")) {
      const Json& columns = plan.at("monthly").at("columns");
      std::size_t c_total = 0, c_start = 0;
      for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == "total_usd") c_total = i;
        if (columns[i] == "start_of_month_usd") c_start = i;
      }
      REQUIRE(c_start == columns.size() - 1);  // appended: the other columns keep their places
      double npv = 0.0;
      for (const auto& row : plan.at("monthly").at("rows")) {
        const double m = row.at(0).get<double>(), total = row.at(c_total).get<double>();
        const double start = row.at(c_start).get<double>();
        some_start = some_start || start != 0.0;
        npv += start * std::pow(1.0 + rate, -m / 12.0) + (total - start) * std::pow(1.0 + rate, -(m + 1.0) / 12.0);
      }
      CHECK(npv == doctest::Approx(plan.at("npv_usd").get<double>()).epsilon(1e-12));
    }
    if (std::string(fixture) != "simple.json") CHECK(some_start);
  }
}

TEST_CASE("workbook: run and report write an xlsx, atomically") {
  const auto dir = scratch_dir("xlsx-write");
  const auto json = dir / "r.json", xlsx = dir / "r.xlsx", again = dir / "again.xlsx";
  const CliResult r = run_cli({"run", fixture_scenario("simple.json"), "--out", json.string(), "--xlsx", xlsx.string()});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find(xlsx.string()) != std::string::npos);  // the console names the workbook
  CHECK(read_all(xlsx).substr(0, 2) == "PK");              // a zip, as xlsx files are
  CHECK_FALSE(std::filesystem::exists(dir / "r.xlsx.tmp"));
  const CliResult rep = run_cli({"report", json.string(), "--xlsx", again.string()});
  INFO("stderr: " << rep.err);
  REQUIRE(rep.exit_code == 0);
  CHECK(read_all(again).substr(0, 2) == "PK");
}

TEST_CASE("workbook: --xlsx to a folder or a missing folder exits 2 naming the option, writing nothing") {
  const auto dir = scratch_dir("xlsx-bad");
  const auto json = dir / "r.json";
  for (const std::string& target : {dir.string(), (dir / "missing" / "r.xlsx").string()}) {
    CAPTURE(target);
    const CliResult r = run_cli({"run", fixture_scenario("simple.json"), "--out", json.string(), "--xlsx", target});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--xlsx") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(json));
  }
  // A report from before the start_of_month_usd column: refused, naming the column.
  REQUIRE(run_cli({"run", fixture_scenario("simple.json"), "--out", json.string(), "-q"}).exit_code == 0);
  Json old = Json::parse(read_all(json));
  for (auto& plan : old.at("plans")) {
    auto& columns = plan.at("monthly").at("columns");
    columns.erase(columns.end() - 1);
    for (auto& row : plan.at("monthly").at("rows")) row.erase(row.end() - 1);
  }
  std::ofstream(dir / "old.json") << old.dump();
  const CliResult r = run_cli({"report", (dir / "old.json").string(), "--xlsx", (dir / "old.xlsx").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("start_of_month_usd") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "old.xlsx"));
  CHECK_FALSE(std::filesystem::exists(dir / "old.xlsx.tmp"));
}

namespace {

// Inputs cells for plan "p" from {key, value} pairs, at 'Inputs'!$B$2, $B$3, ... in order.
InputCells plan_cells(const std::vector<std::pair<std::string, double>>& keys) {
  InputCells cells;
  int row = 2;
  for (const auto& [key, value] : keys) cells["inputs.plans[p]." + key] = {fmt::format("'Inputs'!$B${}", row++), value};
  return cells;
}

Json one_month_plan(double cloud_on_demand_usd) {
  return Json::parse(fmt::format(R"({{"name": "p", "monthly": {{"columns": ["month", "cloud_on_demand", "total_usd",
      "start_of_month_usd"], "rows": [[0, {0}, {0}, 0]]}}}})",
                                 cloud_on_demand_usd));
}

}  // namespace

TEST_CASE("workbook: a plan's cloud bill is live in the demand, the node count and the price, checked against the run") {
  // 12 GPUs of demand every hour of one month; 8-GPU instances at $16 an hour, no price change.
  const std::vector<double> demand(730, 12.0);
  const HoursSheet hours{"Hours", 1, &demand};
  const InputCells cloud_cells = plan_cells({{"cloud.offer.on_demand_usd_per_hour", 16.0},  // $B$2
                                             {"cloud.offer.gpus_per_instance", 8.0},
                                             {"cloud.gpu.perf_relative", 1.0},
                                             {"cloud.price_change_per_year", 0.0},
                                             {"spot_share", 0.0},
                                             {"cloud.spot.availability", 1.0},
                                             {"cloud.packing_efficiency", 1.0},
                                             {"reserved_instances", 0.0},
                                             {"onprem_nodes", 1.0},  // $B$10
                                             {"onprem.purchase_month", 0.0},
                                             {"onprem.server.gpus", 8.0},
                                             {"onprem.packing_efficiency", 1.0},
                                             {"onprem.gpu.perf_relative", 1.0}});
  const Json cloud_only = Json::parse(R"({"name": "p", "kind": "cloud", "cloud": {}})");
  const Json hybrid = Json::parse(R"({"name": "p", "kind": "hybrid", "cloud": {}, "onprem": {"financing": {"type":
      "cash"}, "cooling": {"pue_model": "constant"}, "power": {"tariff": {"type": "flat"}}}})");

  SUBCASE("renting it all: ceil(12 / 8) = 2 instances x 730 h x $16 = $23,360, a formula over the hours") {
    const LivePlan live(one_month_plan(23360.0), cloud_only, cloud_cells, hours, 1, false, false);
    REQUIRE(live.live("cloud_on_demand"));
    const std::string text = *live.formula("cloud_on_demand", 0, "$A8");
    CHECK(text.rfind("SUMPRODUCT(", 0) == 0);
    CHECK(text.find("'Hours'!$B$2:$B$731") != std::string::npos);  // the month's 730 hours of demand
    CHECK(text.find("'Inputs'!$B$2") != std::string::npos);         // the on-demand price
  }
  SUBCASE("one owned 8-GPU node: 12 - 8 = 4 GPUs burst, 1 instance x 730 h x $16 = $11,680; the nodes' cell is read") {
    const LivePlan live(one_month_plan(11680.0), hybrid, cloud_cells, hours, 1, false, false);
    REQUIRE(live.live("cloud_on_demand"));
    CHECK(live.formula("cloud_on_demand", 0, "$A8")->find("'Inputs'!$B$10") != std::string::npos);
  }
  SUBCASE("a run figure the formulas do not reproduce ($20,000, not $23,360): live in the price only, x 1250 h") {
    // 20,000 / 16 = 1,250 instance-hours, the run's quantity; the note names the mismatch.
    const LivePlan live(one_month_plan(20000.0), cloud_only, cloud_cells, hours, 1, false, false);
    REQUIRE(live.live("cloud_on_demand"));
    CHECK(*live.formula("cloud_on_demand", 0, "$A8") == "'Inputs'!$B$2*1250");
    std::string notes;
    for (const std::string& n : live.notes()) notes += n + "\n";
    CHECK(notes.find("the sheet's formula gives 23360.000000 in month 0, the run 20000.000000") != std::string::npos);
  }
  SUBCASE("a discrete-event replay: its queue decides the hours, so the price alone is live") {
    const LivePlan live(one_month_plan(23360.0), cloud_only, cloud_cells, hours, 1, true, false);
    CHECK(*live.formula("cloud_on_demand", 0, "$A8") == "'Inputs'!$B$2*1460");  // 23,360 / 16
  }
}
