// The FOCUS export's rows per burst venue (issue 48; docs/report.md "The FOCUS export", "Venues";
// reports/focus/focus_venues.hpp): a plan with venues writes each venue's cloud_on_demand or
// cloud_spot dollars as its own rows, billed by the venue's provider for its catalog offer (SkuId)
// and its own GPU-hours; the hourly model keeps each venue's month (plans[].venues.list[].*_by_month),
// a replay's report only its horizon.
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
#include "scenario_builder.hpp"
#include "test_support.hpp"
#include "venue_support.hpp"

using namespace tco;
using tco::test::focus_csv_rows;
using tco::test::focus_number;
using tco::test::run_cli;
using VenueRow = tco::test::FocusRow;

namespace {

std::vector<VenueRow> venue_rows_of(const std::vector<VenueRow>& rows, const std::string& category) {
  std::vector<VenueRow> out;
  for (const VenueRow& r : rows)
    if (r.at("x_CostCategory") == category) out.push_back(r);
  return out;
}

// Two months of a cloud plan bursting to two on-demand venues of two providers, each with its own
// monthly dollars and GPU-hours:
//   month 0: neocloud $600 for 100 GPU-hours, hyperscaler $400 for 50   (cloud_on_demand $1,000)
//   month 1: neocloud $300 for 50,            hyperscaler $900 for 110  (cloud_on_demand $1,200)
const char* kTwoVenues = R"({
  "scenario": {"name": "s", "start": "2026-01-01"},
  "monte_carlo": {"mode": "deterministic"},
  "plans": [{"name": "v", "kind": "cloud", "onprem_nodes": 0, "total_nominal_usd": 2200.0,
             "monthly": {"columns": ["month", "cloud_on_demand", "total_usd"],
                         "rows": [[0, 1000.0, 1000.0], [1, 1200.0, 1200.0]]},
             "gpu_hours": {"on_demand_billed": 310.0, "spot_billed": 0.0, "reserved_paid": 0.0,
                           "reserved_used": 0.0, "onprem_capacity": 0.0},
             "energy": {"facility_kwh": 0.0},
             "venues": {"list": [
               {"name": "neocloud", "price": "on_demand", "billed_gpu_hours": 150.0, "cost_nominal_usd": 900.0,
                "billed_gpu_hours_by_month": [100.0, 50.0], "cost_usd_by_month": [600.0, 300.0]},
               {"name": "hyperscaler", "price": "on_demand", "billed_gpu_hours": 160.0, "cost_nominal_usd": 1300.0,
                "billed_gpu_hours_by_month": [50.0, 110.0], "cost_usd_by_month": [400.0, 900.0]}],
               "waited_gpu_hours": 0.0, "unserved_gpu_hours": 0.0}}],
  "inputs": {"plans": [{"name": "v",
                        "cloud": {"offer": {"provider": "aws", "region": "us-east-1", "gpus_per_instance": 8,
                                            "provenance": {"id": "aws/p5.48xlarge/us-east-1"}}},
                        "venues": [
                          {"name": "neocloud", "offer": {"provider": "lambda", "region": "us-east-1",
                                                         "provenance": {"id": "lambda/gpu_8x_h100_sxm5/us-east-1"}}},
                          {"name": "hyperscaler", "offer": {"provider": "aws", "region": "us-east-1",
                                                            "provenance": {"id": "aws/p5.48xlarge/us-east-1"}}}]}]}})";

// The import's hourly series summed over calendar months of `hours` each, from its hour 0.
std::vector<double> venue_demand_by_month(const std::string& demand_csv, const std::vector<int>& hours) {
  std::ifstream in(demand_csv);
  std::string line;
  std::getline(in, line);  // # start:
  std::getline(in, line);  // header
  std::vector<double> out(hours.size(), 0.0);
  long h = 0;
  std::size_t m = 0;
  long month_end = hours.empty() ? 0 : hours[0];
  while (std::getline(in, line) && m < hours.size()) {
    out[m] += std::stod(line.substr(line.find(',') + 1));
    if (++h == month_end && ++m < hours.size()) month_end += hours[m];
  }
  return out;
}

// `report --focus` then `demand import --format focus` of one billing account, by calendar month.
std::vector<double> venue_round_trip(const Json& report, const std::string& account, const std::vector<int>& hours,
                                     const std::string& scratch) {
  const std::filesystem::path dir = tco::test::scratch_dir(scratch);
  const std::string focus = (dir / "costs.csv").string(), demand = (dir / "demand.csv").string();
  {
    std::ofstream out(focus);
    out << focus_csv(report, "r.json");
  }
  const auto imported =
      run_cli({"demand", "import", "--format", "focus", focus, "-o", demand, "--billing-account", account});
  REQUIRE_MESSAGE(imported.exit_code == 0, imported.err);
  return venue_demand_by_month(demand, hours);
}

}  // namespace

TEST_CASE("report --focus: each burst venue has its own rows, provider, SkuId and GPU-hours, by hand") {
  const std::vector<VenueRow> rows = venue_rows_of(focus_csv_rows(focus_csv(Json::parse(kTwoVenues), "r.json")),
                                                   "cloud_on_demand");
  // Two months x two venues (it was one row a month under the plan's offer, aws, 150 and 160 GPU-Hours).
  REQUIRE(rows.size() == 4);
  struct Expected {
    const char* provider;
    const char* sku;
    const char* resource;
    double usd, gpu_hours;
  };
  const Expected expected[] = {
      {"lambda", "lambda/gpu_8x_h100_sxm5/us-east-1", "s/v/rented/neocloud", 600.0, 100.0},
      {"aws", "aws/p5.48xlarge/us-east-1", "s/v/rented/hyperscaler", 400.0, 50.0},
      {"lambda", "lambda/gpu_8x_h100_sxm5/us-east-1", "s/v/rented/neocloud", 300.0, 50.0},
      {"aws", "aws/p5.48xlarge/us-east-1", "s/v/rented/hyperscaler", 900.0, 110.0}};
  double effective = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    CHECK(rows[i].at("ProviderName") == expected[i].provider);
    CHECK(rows[i].at("InvoiceIssuerName") == expected[i].provider);
    CHECK(rows[i].at("SkuId") == expected[i].sku);
    CHECK(rows[i].at("ResourceId") == expected[i].resource);
    CHECK(rows[i].at("RegionId") == "us-east-1");
    CHECK(rows[i].at("x_Month") == (i < 2 ? "0" : "1"));
    CHECK(rows[i].at("PricingCategory") == "Standard");
    CHECK(focus_number(rows[i], "BilledCost") == expected[i].usd);
    CHECK(focus_number(rows[i], "EffectiveCost") == expected[i].usd);
    CHECK(focus_number(rows[i], "PricingQuantity") == expected[i].gpu_hours);
    CHECK(focus_number(rows[i], "ConsumedQuantity") == expected[i].gpu_hours);
    CHECK(rows[i].at("ConsumedUnit") == "GPU-Hours");
    effective += focus_number(rows[i], "EffectiveCost");
  }
  // EffectiveCost over the plan: 600 + 400 + 300 + 900 = 2,200, its total.
  CHECK(effective == 2200.0);
  // Read back: January (744 h) 100 + 50 = 150 GPU-hours, February (672 h) 50 + 110 = 160.
  const std::vector<double> months = venue_round_trip(Json::parse(kTwoVenues), "s/v", {744, 672}, "focus_venues_by_hand");
  CHECK(months[0] == doctest::Approx(150.0).epsilon(1e-12));
  CHECK(months[1] == doctest::Approx(160.0).epsilon(1e-12));
}

TEST_CASE("report --focus: a replay's venues, kept for the horizon only, split each month by their cost shares") {
  Json report = Json::parse(kTwoVenues);
  for (Json& v : report["plans"][0]["venues"]["list"]) {
    v.erase("billed_gpu_hours_by_month");
    v.erase("cost_usd_by_month");
  }
  const std::vector<VenueRow> rows = venue_rows_of(focus_csv_rows(focus_csv(report, "r.json")), "cloud_on_demand");
  REQUIRE(rows.size() == 4);
  // Month 0 ($1,000): neocloud 1,000 x 900 / 2,200 = 409.090909 for 150 x 409.0909 / 900 = 68.181818 GPU-hours;
  // hyperscaler 1,000 x 1,300 / 2,200 = 590.909091 for 160 x 590.9091 / 1,300 = 72.727273.
  CHECK(focus_number(rows[0], "BilledCost") == doctest::Approx(409.090909).epsilon(1e-9));
  CHECK(focus_number(rows[0], "PricingQuantity") == doctest::Approx(68.181818).epsilon(1e-8));
  CHECK(focus_number(rows[1], "BilledCost") == doctest::Approx(590.909091).epsilon(1e-9));
  CHECK(focus_number(rows[1], "PricingQuantity") == doctest::Approx(72.727273).epsilon(1e-8));
  // Month 1 ($1,200): neocloud 1,200 x 900 / 2,200 = 490.909091 for 150 x 1,200 / 2,200 = 81.818182.
  CHECK(focus_number(rows[2], "BilledCost") == doctest::Approx(490.909091).epsilon(1e-9));
  CHECK(focus_number(rows[2], "PricingQuantity") == doctest::Approx(81.818182).epsilon(1e-8));
  // Over the horizon each venue's own GPU-hours: neocloud 68.18 + 81.82 = 150, hyperscaler 160.
  CHECK(focus_number(rows[0], "PricingQuantity") + focus_number(rows[2], "PricingQuantity") ==
        doctest::Approx(150.0).epsilon(1e-8));
  CHECK(focus_number(rows[1], "PricingQuantity") + focus_number(rows[3], "PricingQuantity") ==
        doctest::Approx(160.0).epsilon(1e-8));
  double effective = 0.0;
  for (const VenueRow& r : rows) effective += focus_number(r, "EffectiveCost");
  CHECK(effective == doctest::Approx(2200.0).epsilon(1e-12));
}

TEST_CASE("report --focus: venue figures that do not fit the report are refused with their JSON pointer") {
  // The venues' month 0 adds up to $900, not the ledger's $1,000.
  Json short_month = Json::parse(kTwoVenues);
  short_month["plans"][0]["venues"]["list"][1]["cost_usd_by_month"][0] = 300.0;
  CHECK_THROWS_WITH_AS(focus_csv(short_month, "r.json"),
                       doctest::Contains("/plans/0/venues/list: the on_demand venues' month 0 adds up to 900.00"),
                       InputError);
  // One figure for two months.
  Json short_array = Json::parse(kTwoVenues);
  short_array["plans"][0]["venues"]["list"][0]["billed_gpu_hours_by_month"] = Json::array({100.0});
  CHECK_THROWS_WITH_AS(focus_csv(short_array, "r.json"),
                       doctest::Contains("/plans/0/venues/list/0/billed_gpu_hours_by_month: not one figure per month"),
                       InputError);
  // A venue whose echo is another.
  Json renamed = Json::parse(kTwoVenues);
  renamed["inputs"]["plans"][0]["venues"][1]["name"] = "other";
  CHECK_THROWS_WITH_AS(focus_csv(renamed, "r.json"), doctest::Contains("/plans/0/venues/list/1/name"), InputError);
  // No echoed venues at all.
  Json unechoed = Json::parse(kTwoVenues);
  unechoed["inputs"]["plans"][0].erase("venues");
  CHECK_THROWS_WITH_AS(focus_csv(unechoed, "r.json"), doctest::Contains("/inputs/plans/0/venues"), InputError);
}

TEST_CASE("venues by month: the hourly model's months add up to the venue's horizon and to the plan's month") {
  // Three months of 100 GPUs on the fixture catalog: the neocloud ($10/h, quota 64 GPUs, found 70% of
  // the time) then the hyperscaler ($16/h), then its spot ($8/h, 60%).
  Json doc = tco::test::base_scenario_json();
  doc["start"] = "2026-01-01";
  doc["horizon_months"] = 3;
  doc["workload"] = {{"profiles", Json::array({{{"type", "steady"}, {"gpus", 100}, {"diurnal_amplitude", 0.3}}})}};
  doc["plans"] = Json::array({{{"name", "venues"}, {"kind", "cloud"},
                               {"venues", Json::array({tco::test::neocloud({{"quota_gpus", 64}, {"availability", 0.7}}),
                                                       tco::test::hyperscaler({{"quota_gpus", 24}}),
                                                       tco::test::hyperscaler({{"name", "spot"}, {"price", "spot"},
                                                                               {"availability", 0.6}})})}}});
  doc["baseline"] = "venues";
  const tco::test::ScenarioOutcome o = tco::test::run_scenario_json(doc);
  const PlanResult& r = o.plan("venues");
  REQUIRE(r.venues.size() == 3);
  for (int m = 0; m < 3; ++m) {
    CAPTURE(m);
    double on_demand_usd = 0.0, on_demand_gpu_hours = 0.0, spot_usd = 0.0, spot_gpu_hours = 0.0;
    for (const VenueFigures& v : r.venues) {
      REQUIRE(v.cost_usd_by_month.size() == 3);
      (v.price == "spot" ? spot_usd : on_demand_usd) += v.cost_usd_by_month[m];
      (v.price == "spot" ? spot_gpu_hours : on_demand_gpu_hours) += v.billed_gpu_hours_by_month[m];
    }
    // The venues' month is the plan's: its ledger and its GPU-hours.
    CHECK(on_demand_usd == doctest::Approx(r.ledger.month_category_usd(m, Category::cloud_on_demand)).epsilon(1e-12));
    CHECK(spot_usd == doctest::Approx(r.ledger.month_category_usd(m, Category::cloud_spot)).epsilon(1e-12));
    CHECK(on_demand_gpu_hours == doctest::Approx(r.gpu_hours_by_month[m].on_demand_billed).epsilon(1e-12));
    CHECK(spot_gpu_hours == doctest::Approx(r.gpu_hours_by_month[m].spot_billed).epsilon(1e-12));
    CHECK(spot_usd > 0.0);
  }
  // Each venue's months add up to its horizon.
  for (const VenueFigures& v : r.venues) {
    CAPTURE(v.name);
    CHECK(v.cost_usd_by_month[0] + v.cost_usd_by_month[1] + v.cost_usd_by_month[2] ==
          doctest::Approx(v.totals.cost_usd).epsilon(1e-12));
    CHECK(v.billed_gpu_hours_by_month[0] + v.billed_gpu_hours_by_month[1] + v.billed_gpu_hours_by_month[2] ==
          doctest::Approx(v.totals.billed_gpu_hours).epsilon(1e-12));
  }
  // The export's venue rows, read back, give the plan's billed GPU-hours month by month (January 744 h,
  // February 672 h, March 744 h; the model's month m is calendar month m).
  const Json report = o.report();
  const std::vector<double> months = venue_round_trip(report, "base/venues", {744, 672, 744}, "focus_venues_run");
  for (int m = 0; m < 3; ++m) {
    CAPTURE(m);
    CHECK(months[m] == doctest::Approx(r.gpu_hours_by_month[m].on_demand_billed + r.gpu_hours_by_month[m].spot_billed)
                           .epsilon(1e-9));
  }
  // Three venues' rows each month (the neocloud's and the hyperscaler's on-demand, the spot venue's).
  const std::vector<VenueRow> rows = focus_csv_rows(focus_csv(report, "r.json"));
  int venue_rows = 0;
  double effective = 0.0;
  for (const VenueRow& row : rows) {
    venue_rows += row.at("ResourceId").rfind("base/venues/rented/", 0) == 0;
    effective += focus_number(row, "EffectiveCost");
  }
  CHECK(venue_rows == 9);
  // To the cent (each row has 6 decimals).
  CHECK(std::abs(effective - r.total_usd) < 0.005);
}
