// The FOCUS export's quantities from the simulation's own monthly figures (issue 48;
// docs/report.md "The FOCUS export", "GPU-Hours per month"): a report's plans[].quantities_by_month
// and plans[].commitments[].*_by_month give each month's GPU-hours and kWh, so the round trip
// (report --focus, then demand import --format focus) gives back the simulated GPU-hours month by
// month, and owned rows carry the owned fleet's GPU-hours and nodes.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "focus_csv_support.hpp"
#include "reports/focus/focus_export.hpp"
#include "test_support.hpp"

using namespace tco;
using tco::test::focus_csv_rows;
using tco::test::focus_number;
using tco::test::run_cli;
using Row = tco::test::FocusRow;

namespace {

// Two months of a hybrid plan: 2 owned 8-GPU nodes bought in month 0, one reserved 8-GPU instance,
// on-demand bursts. The monthly figures differ from a cost-share split on purpose.
const char* kReport = R"({
  "scenario": {"name": "s", "start": "2026-01-01"},
  "monte_carlo": {"mode": "fluid"},
  "plans": [{"name": "p", "kind": "hybrid", "onprem_nodes": 2, "total_nominal_usd": 205200.0,
             "monthly": {"columns": ["month", "capex", "maintenance", "energy", "cloud_on_demand", "cloud_reserved", "total_usd"],
                         "rows": [[0, 200000.0, 1000.0, 500.0, 100.0, 800.0, 202400.0],
                                  [1, 0.0, 1000.0, 700.0, 300.0, 800.0, 2800.0]]},
             "gpu_hours": {"on_demand_billed": 200.0, "spot_billed": 0.0, "reserved_paid": 11680.0,
                           "reserved_used": 8760.0, "onprem_capacity": 23360.0},
             "quantities_by_month": {"columns": ["month", "on_demand_billed_gpu_hours", "spot_billed_gpu_hours",
                                                 "reserved_paid_gpu_hours", "reserved_used_gpu_hours",
                                                 "onprem_capacity_gpu_hours", "onprem_busy_gpu_hours",
                                                 "useful_gpu_hours", "facility_kwh"],
                                     "rows": [[0, 40.0, 0.0, 5840.0, 5840.0, 11680.0, 9000.0, 14880.0, 3000.0],
                                              [1, 160.0, 0.0, 5840.0, 2920.0, 11680.0, 9500.0, 12580.0, 5000.0]]},
             "energy": {"facility_kwh": 8000.0}}],
  "inputs": {"plans": [{"name": "p", "reserved_instances": 1,
                        "cloud": {"offer": {"provider": "lambda", "region": "us-east-1", "gpus_per_instance": 8,
                                            "provenance": {"id": "lambda/gpu_8x_h100_sxm5/us-east-1"}}},
                        "onprem": {"server": {"provenance": {"id": "hgx-h100-8"}}}}]}})";

std::vector<Row> rows_of(const std::vector<Row>& rows, const std::string& category) {
  std::vector<Row> out;
  for (const Row& r : rows)
    if (r.at("x_CostCategory") == category) out.push_back(r);
  return out;
}

Json read_json(const std::string& path) {
  std::ifstream in(path);
  return Json::parse(in);
}

// The hourly series of `demand import` summed over each calendar month from 2026-01-01 (its hour 0).
std::vector<double> gpu_hours_by_calendar_month(const std::string& demand_csv, const std::vector<int>& month_hours) {
  std::ifstream in(demand_csv);
  std::string line;
  std::getline(in, line);  // # start:
  std::getline(in, line);  // header
  std::vector<double> out(month_hours.size(), 0.0);
  long h = 0;
  std::size_t m = 0;
  long month_end = month_hours.empty() ? 0 : month_hours[0];
  while (std::getline(in, line) && m < month_hours.size()) {
    out[m] += std::stod(line.substr(line.find(',') + 1));
    if (++h == month_end && ++m < month_hours.size()) month_end += month_hours[m];
  }
  return out;
}

// Hours of the calendar months from January 2026: 31, 28, 31, 30, ... days x 24.
std::vector<int> calendar_month_hours(int months) {
  const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  std::vector<int> out;
  for (int m = 0; m < months; ++m) {
    const int year = 2026 + m / 12;
    const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    out.push_back(24 * (days[m % 12] + (m % 12 == 1 && leap)));
  }
  return out;
}

}  // namespace

TEST_CASE("report --focus: quantities from the report's monthly figures, owned rows in nodes and GPU-hours, by hand") {
  const std::vector<Row> rows = focus_csv_rows(focus_csv(Json::parse(kReport), "r.json"));
  // capex, paid once: the 2 nodes it buys (not "1 Units").
  const std::vector<Row> capex = rows_of(rows, "capex");
  REQUIRE(capex.size() == 1);
  CHECK(focus_number(capex[0], "PricingQuantity") == 2.0);
  CHECK(capex[0].at("PricingUnit") == "Nodes");
  CHECK(capex[0].at("ConsumedQuantity").empty());  // a Purchase consumes nothing
  // maintenance: the owned fleet's GPU-hours of capacity each month, 2 nodes x 8 GPUs x 730 h = 11,680.
  const std::vector<Row> maintenance = rows_of(rows, "maintenance");
  REQUIRE(maintenance.size() == 2);
  for (const Row& r : maintenance) {
    CHECK(focus_number(r, "PricingQuantity") == 11680.0);
    CHECK(r.at("PricingUnit") == "GPU-Hours");
  }
  // energy: the month's facility kWh, 3,000 and 5,000 (a cost share would say 8,000 x 500 / 1,200 = 3,333.33).
  const std::vector<Row> energy = rows_of(rows, "energy");
  REQUIRE(energy.size() == 2);
  CHECK(focus_number(energy[0], "PricingQuantity") == 3000.0);
  CHECK(focus_number(energy[1], "ConsumedQuantity") == 5000.0);
  CHECK(energy[1].at("PricingUnit") == "kWh");
  // on-demand: 40 and 160 GPU-hours (a cost share would say 200 x 100 / 400 = 50 and 150).
  const std::vector<Row> on_demand = rows_of(rows, "cloud_on_demand");
  REQUIRE(on_demand.size() == 2);
  CHECK(focus_number(on_demand[0], "ConsumedQuantity") == 40.0);
  CHECK(focus_number(on_demand[1], "ConsumedQuantity") == 160.0);
  // Reserved instances: month 0 all 5,840 GPU-hours used ($800 Used); month 1 2,920 of 5,840 used:
  // share 0.5, Used $400 and 2,920 GPU-hours, Unused $400 and 2,920 (the horizon's share, 8,760 / 11,680
  // = 0.75, would say $600 Used in each month).
  const std::vector<Row> reserved = rows_of(rows, "cloud_reserved");
  REQUIRE(reserved.size() == 5);  // month 0: Purchase, Used; month 1: Purchase, Used, Unused
  CHECK(reserved[0].at("ChargeCategory") == "Purchase");
  CHECK(focus_number(reserved[0], "CommitmentDiscountQuantity") == 5840.0);
  CHECK(reserved[1].at("CommitmentDiscountStatus") == "Used");
  CHECK(focus_number(reserved[1], "EffectiveCost") == 800.0);
  CHECK(focus_number(reserved[1], "ConsumedQuantity") == 5840.0);
  CHECK(reserved[2].at("ChargeCategory") == "Purchase");
  CHECK(focus_number(reserved[2], "BilledCost") == 800.0);
  CHECK(reserved[3].at("CommitmentDiscountStatus") == "Used");
  CHECK(focus_number(reserved[3], "EffectiveCost") == 400.0);
  CHECK(focus_number(reserved[3], "ConsumedQuantity") == 2920.0);
  CHECK(reserved[4].at("CommitmentDiscountStatus") == "Unused");
  CHECK(focus_number(reserved[4], "EffectiveCost") == 400.0);
  CHECK(focus_number(reserved[4], "PricingQuantity") == 2920.0);
  CHECK(reserved[4].at("ConsumedQuantity").empty());
  // EffectiveCost over the plan: 202,400 + 2,800 = 205,200, its total.
  double effective = 0.0;
  for (const Row& r : rows) effective += focus_number(r, "EffectiveCost");
  CHECK(effective == doctest::Approx(205200.0).epsilon(1e-12));

  // Read back: January (744 h) 40 on-demand + 5,840 reserved used = 5,880 GPU-hours; February (672 h)
  // 160 + 2,920 = 3,080.
  const std::filesystem::path dir = tco::test::scratch_dir("focus_monthly_by_hand");
  const std::string focus = (dir / "costs.csv").string(), demand = (dir / "demand.csv").string();
  {
    std::ofstream out(focus);
    out << focus_csv(Json::parse(kReport), "r.json");
  }
  const auto imported = run_cli({"demand", "import", "--format", "focus", focus, "-o", demand});
  REQUIRE_MESSAGE(imported.exit_code == 0, imported.err);
  const std::vector<double> months = gpu_hours_by_calendar_month(demand, {744, 672});
  CHECK(months[0] == doctest::Approx(5880.0).epsilon(1e-12));
  CHECK(months[1] == doctest::Approx(3080.0).epsilon(1e-12));
}

TEST_CASE("report --focus, then demand import --format focus: each month's simulated GPU-hours come back to 1e-9") {
  const std::filesystem::path dir = tco::test::scratch_dir("focus_monthly_round_trip");
  struct Case {
    const char* scenario;
    const char* plan;
  };
  for (const Case c : {Case{"base-load-and-burst", "cloud-on-demand"}, Case{"base-load-and-burst", "cloud-half-spot"},
                       Case{"base-load-and-burst", "cloud-reserved-6-burst"},
                       Case{"quarterly-burst-capacity-block", "cloud-burst-on-capacity-blocks"}}) {
    CAPTURE(c.plan);
    const std::string report_path = (dir / (std::string(c.scenario) + ".json")).string();
    if (!std::filesystem::exists(report_path)) {
      const auto ran = run_cli({"run", tco::test::source_path(std::string("scenarios/") + c.scenario + ".json"),
                                "--out", report_path, "--quiet"});
      REQUIRE_MESSAGE(ran.exit_code == 0, ran.err);
    }
    const std::string focus = (dir / "costs.csv").string(), demand = (dir / "demand.csv").string();
    REQUIRE(run_cli({"report", report_path, "--focus", focus}).exit_code == 0);
    const auto imported = run_cli({"demand", "import", "--format", "focus", focus, "-o", demand, "--billing-account",
                                   std::string(c.scenario) + "/" + c.plan});
    REQUIRE_MESSAGE(imported.exit_code == 0, imported.err);
    // The simulation's GPU-hours of each month: billed on-demand and spot, reserved used, and each
    // commitment's used.
    const Json report = read_json(report_path);
    std::vector<double> simulated;
    for (const Json& plan : report.at("plans")) {
      if (plan.at("name") != c.plan) continue;
      const Json& q = plan.at("quantities_by_month");
      REQUIRE(q.at("columns")[1] == "on_demand_billed_gpu_hours");
      REQUIRE(q.at("columns")[2] == "spot_billed_gpu_hours");
      REQUIRE(q.at("columns")[4] == "reserved_used_gpu_hours");
      for (const Json& row : q.at("rows"))
        simulated.push_back(row[1].get<double>() + row[2].get<double>() + row[4].get<double>());
      for (const Json& f : plan.value("commitments", Json::array())) {
        const std::vector<double> used = f.at("used_gpu_hours_by_month").get<std::vector<double>>();
        for (std::size_t m = 0; m < used.size(); ++m) simulated[m] += used[m];
      }
    }
    REQUIRE(simulated.size() == 36);
    // The model's month m (730 h) is calendar month m of the export; the import spreads each row over
    // its calendar month's hours, so the calendar month's sum is the model month's figure.
    const std::vector<double> read_back = gpu_hours_by_calendar_month(demand, calendar_month_hours(36));
    double total = 0.0;
    for (int m = 0; m < 36; ++m) {
      CAPTURE(m);
      // Rows carry 6 decimals: within 0.5e-6 GPU-hours a row, far under 1e-9 of a month's thousands.
      CHECK(read_back[m] == doctest::Approx(simulated[m]).epsilon(1e-9));
      total += simulated[m];
    }
    CHECK(total > 0.0);
  }
}

TEST_CASE("report --focus: monthly figures that do not fit the report are refused with their JSON pointer") {
  // One row of quantities for two months of costs.
  Json short_table = Json::parse(kReport);
  short_table["plans"][0]["quantities_by_month"]["rows"].erase(1);
  CHECK_THROWS_WITH_AS(focus_csv(short_table, "r.json"),
                       doctest::Contains("/plans/0/quantities_by_month/rows: not one row per month"), InputError);
  // A figure that is not a number: the type error names its place in the report.
  Json text = Json::parse(kReport);
  text["plans"][0]["quantities_by_month"]["rows"][1][1] = "many";
  CHECK_THROWS_WITH(focus_csv(text, "r.json"), doctest::Contains("/plans/0/quantities_by_month/rows/1/1"));
  // A commitment's monthly array of one figure for two months (it was padded with a 0 before).
  Json short_commitment = Json::parse(kReport);
  short_commitment["plans"][0]["commitments"] = Json::array({{{"name", "block"}, {"committed_gpu_hours_by_month", {40.0}}}});
  CHECK_THROWS_WITH_AS(focus_csv(short_commitment, "r.json"),
                       doctest::Contains("/plans/0/commitments/0/committed_gpu_hours_by_month: not one figure per month"),
                       InputError);
  // Three figures for two months (the third was cut).
  Json long_commitment = Json::parse(kReport);
  long_commitment["plans"][0]["commitments"] = Json::array({{{"name", "plan"}, {"used_usd_by_month", {1.0, 2.0, 3.0}}}});
  CHECK_THROWS_WITH_AS(focus_csv(long_commitment, "r.json"),
                       doctest::Contains("/plans/0/commitments/0/used_usd_by_month: not one figure per month"), InputError);
}

TEST_CASE("report --focus: a report with a request replay dates its rows by the hourly model's months") {
  // llm-serving-latency-under-load replays requests over 1 sample hour (plans[].latency.hours); its
  // dollars are not in the plan's cost (latency.usd_basis), so the rows are the hourly model's: month
  // m's on-demand row carries quantities_by_month's on_demand_billed_gpu_hours of month m.
  const Json report = read_json(tco::test::source_path("tests/baselines/llm-serving-latency-under-load.json"));
  const std::vector<Row> rows = focus_csv_rows(focus_csv(report, "r.json"));
  int checked = 0;
  for (const Json& plan : report.at("plans")) {
    if (plan.at("name") != "rent-h200") continue;
    REQUIRE(plan.at("latency").at("hours") == 1);
    const Json& q = plan.at("quantities_by_month");
    REQUIRE(q.at("columns")[1] == "on_demand_billed_gpu_hours");
    double effective = 0.0;
    for (const Row& r : rows) {
      if (r.at("x_Plan") != "rent-h200") continue;
      effective += focus_number(r, "EffectiveCost");
      if (r.at("x_CostCategory") != "cloud_on_demand") continue;
      const int m = std::stoi(r.at("x_Month"));
      CAPTURE(m);
      CHECK(focus_number(r, "PricingQuantity") ==
            doctest::Approx(q.at("rows").at(m).at(1).get<double>()).epsilon(1e-12));
      ++checked;
    }
    // The replay's rented dollars add no row: EffectiveCost over the plan is its total, to the cent.
    CHECK(std::abs(effective - plan.at("total_nominal_usd").get<double>()) < 0.005);
  }
  // One on-demand row a month of the horizon.
  CHECK(checked == static_cast<int>(report.at("plans")[1].at("monthly").at("rows").size()));
  CHECK(checked > 0);
}
