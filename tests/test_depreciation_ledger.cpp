// The depreciation views in the ledger (engine/ledger/depreciation_booking.hpp): the tax view's
// shield and the tax on the sale, hand-checked on tests/fixtures/scenarios/tax_depreciation.json;
// a scenario without a view keeps the straight-line shield; bad inputs exit 2 with their pointer.
#include <cmath>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"

#include "reports/markdown/markdown_summary.hpp"
#include "scenario_builder.hpp"
#include "ledger_test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

double total(const PlanResult& r, Category c) { return r.ledger.category_total_usd(c); }

}  // namespace

TEST_CASE("depreciation ledger: MACRS with section 179 and bonus drives the tax shield, month by month") {
  const ScenarioOutcome o = run_fixture("tax_depreciation.json");
  const PlanResult& buy = o.plan("buy-2-at-3");
  // Cost C = 2 x (200,000 + 10,000 + 5,000 + 20,000) = 470,000. Section 179 70,000; bonus
  // 0.4 x 400,000 = 160,000; MACRS base 240,000.
  //   tax year 1 (months 3..14):  70,000 + 160,000 + 20% x 240,000 = 278,000 -> 23,166.67 a month
  //   tax year 2 (months 15..26): 32% x 240,000 = 76,800 -> 6,400 a month; the horizon ends at 23.
  // Shield = -25% of each: -5,791.67 a month in year 1, -1,600 in year 2.
  CHECK(in_month(buy, 2, Category::tax_shield) == 0.0);
  CHECK(in_month(buy, 3, Category::tax_shield) == doctest::Approx(-0.25 * 278000.0 / 12.0).epsilon(1e-12));
  CHECK(in_month(buy, 14, Category::tax_shield) == doctest::Approx(-5791.6666667).epsilon(1e-9));
  CHECK(in_month(buy, 15, Category::tax_shield) == doctest::Approx(-1600.0).epsilon(1e-12));
  // Deducted in the horizon: 278,000 + 9 x 6,400 = 335,600; basis left 470,000 - 335,600 = 134,400.
  // The residual sells server + network + storage, 430,000 of resale base, for
  // 430,000 x 0.7^(21/12) = 230,350.96. The nodes sold carry their installation in their basis
  // (Pub 551) and there is no room capex, so the whole basis left goes with them: 134,400 x
  // 470/470 = 134,400 (not 43/47 of it, which left the installation's 11,438.30 undeducted):
  // recapture 230,350.96 - 134,400 = 95,950.96, taxed 25% = 23,987.74 at the end of month 23.
  REQUIRE(buy.depreciation_views.has_value());
  const DepreciationViews& v = *buy.depreciation_views;
  CHECK(v.sale.ordinary_recapture_usd == doctest::Approx(95950.9595049).epsilon(1e-9));
  CHECK(v.sale.capital_gain_usd == 0.0);
  CHECK(v.sale_tax_usd == doctest::Approx(23987.7398762).epsilon(1e-9));
  CHECK(in_month(buy, 23, Category::tax_shield) == doctest::Approx(-1600.0 + 23987.7398762).epsilon(1e-9));
  // In all: -0.25 x 335,600 + 23,987.74 = -83,900 + 23,987.74 = -59,912.26.
  CHECK(total(buy, Category::tax_shield) == doctest::Approx(-59912.2601238).epsilon(1e-9));
  // The yearly tables: MACRS years 1..6 and the book's double-declining balance (40% of 470,000
  // = 188,000 in year 1; salvage 47,000, so the 5 years total 423,000).
  REQUIRE(v.tax_by_year.size() == 6);
  CHECK(v.tax_by_year[0].total_usd == doctest::Approx(278000.0).epsilon(1e-12));
  CHECK(v.tax_by_year[5].macrs_usd == doctest::Approx(0.0576 * 240000.0).epsilon(1e-12));
  REQUIRE(v.book_usd_by_year.size() == 5);
  CHECK(v.book_usd_by_year[0] == doctest::Approx(188000.0).epsilon(1e-12));
  // Book month 3 = 188,000 / 12 = 15,666.67.
  CHECK(buy.depreciation_usd_by_month[3] == doctest::Approx(188000.0 / 12.0).epsilon(1e-12));
}

TEST_CASE("depreciation ledger: the sale deducts the installation's share of the basis left (Pub 551)") {
  // One node: a $200,000 server (test-node-8), no network or storage, $19,200 of installation,
  // bought at month 0 of a 12-month horizon: C = 219,200. MACRS 5-year half-year, no 179, no
  // bonus, 25% tax: year 1 deducts 20% x 219,200 = 43,840 inside the horizon; basis left 175,360.
  // The residual sells the server for 200,000 x 0.7 = 140,000 (the installation resells for
  // nothing). The sold node's basis is the whole 175,360, its installation's 15,360 (80% of
  // 19,200) included: a loss of 175,360 - 140,000 = 35,360, a tax saving of 25% x 35,360 = 8,840.
  // Before, only 200,000 / 219,200 of the basis (160,000) went with the sale: a loss of 20,000,
  // a saving of 5,000, i.e. 3,840 = 25% x 15,360 more tax.
  Json doc = fixture_json("tax_depreciation.json");
  doc["horizon_months"] = 12;
  doc["onprem"]["network_usd_per_node"] = 0;
  doc["onprem"]["storage_usd_per_node"] = 0;
  doc["onprem"]["install_usd_per_node"] = 19200;
  doc["onprem"]["purchase_month"] = 0;
  doc["onprem"]["depreciation"]["tax"] = {{"macrs_class_years", 5}, {"convention", "half_year"}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "buy-1"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& buy = o.plan("buy-1");
  REQUIRE(buy.depreciation_views.has_value());
  const DepreciationViews& v = *buy.depreciation_views;
  CHECK(v.sale.loss_usd == doctest::Approx(35360.0).epsilon(1e-12));
  CHECK(v.sale.ordinary_recapture_usd == 0.0);
  CHECK(v.sale_tax_usd == doctest::Approx(-8840.0).epsilon(1e-12));
  // The shield: -25% x 43,840 over months 0..11, then the sale's -8,840.
  CHECK(total(buy, Category::tax_shield) == doctest::Approx(-0.25 * 43840.0 - 8840.0).epsilon(1e-12));
}

TEST_CASE("depreciation ledger: the mid-quarter convention takes its table from the delivery's calendar quarter") {
  Json doc = fixture_json("tax_depreciation.json");
  doc["onprem"]["depreciation"]["tax"]["convention"] = "mid_quarter";
  // Start 2026-01-05, delivery at month 3 = April: quarter 2 (Table A-3, 5-year: 25%, 30%, ...).
  // MACRS base 240,000 as above. Tax year 1: 70,000 + 160,000 + 25% x 240,000 = 290,000 -> shield
  // -25% x 290,000 / 12 = -6,041.67 a month; year 2: 30% x 240,000 = 72,000 -> -1,500 a month.
  {
    const ScenarioOutcome o = run_scenario_json(doc);
    const PlanResult& buy = o.plan("buy-2-at-3");
    CHECK(in_month(buy, 3, Category::tax_shield) == doctest::Approx(-0.25 * 290000.0 / 12.0).epsilon(1e-12));
    CHECK(in_month(buy, 15, Category::tax_shield) == doctest::Approx(-1500.0).epsilon(1e-12));
    REQUIRE(buy.depreciation_views.has_value());
    CHECK(buy.depreciation_views->placed_in_service_quarter == 2);
    const Json report = o.report();
    const Json& tax = report_plan(report, "buy-2-at-3").at("depreciation_views").at("tax");
    CHECK(tax.at("convention") == "mid_quarter");
    CHECK(tax.at("placed_in_service_quarter") == 2);
    CHECK(tax.at("rows").at(0).at(3).get<double>() == doctest::Approx(60000.0).epsilon(1e-12));
  }
  // Start 2026-10-05: month 3 is January, quarter 1 (Table A-2: 35%): year 1 = 230,000 + 84,000.
  doc["start"] = "2026-10-05";
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& buy = o.plan("buy-2-at-3");
  CHECK(in_month(buy, 3, Category::tax_shield) == doctest::Approx(-0.25 * 314000.0 / 12.0).epsilon(1e-12));
  // The half-year default of the same scenario has no quarter in its report.
  const Json half_report = run_fixture("tax_depreciation.json").report();
  const Json& half = report_plan(half_report, "buy-2-at-3").at("depreciation_views");
  CHECK(half.at("tax").at("convention") == "half_year");
  CHECK_FALSE(half.at("tax").contains("placed_in_service_quarter"));
}

TEST_CASE("depreciation ledger: the mid-quarter quarter comes from the delivery's calendar date") {
  // One $200,000 node (no network, storage or install), start 2026-11-01, delivered at the start
  // of month 2 = hour 1,460 = 2026-12-31: quarter 4, Pub 946 Table A-5 (5-year: 5%). Year 1
  // deducts 5% x 200,000 = 10,000 (with 730-hour month arithmetic, November + 2 = January,
  // quarter 1, Table A-2's 35%: 70,000). The shield: -25% x 10,000 / 12 a month in year 1.
  Json doc = fixture_json("tax_depreciation.json");
  doc["start"] = "2026-11-01";
  doc["onprem"]["network_usd_per_node"] = 0;
  doc["onprem"]["storage_usd_per_node"] = 0;
  doc["onprem"]["install_usd_per_node"] = 0;
  doc["onprem"]["purchase_month"] = 2;
  doc["onprem"]["depreciation"]["tax"] = {{"macrs_class_years", 5}, {"convention", "mid_quarter"}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "buy-1"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& buy = o.plan("buy-1");
  REQUIRE(buy.depreciation_views.has_value());
  CHECK(buy.depreciation_views->placed_in_service_quarter == 4);
  REQUIRE(buy.depreciation_views->tax_by_year.size() == 6);
  CHECK(buy.depreciation_views->tax_by_year[0].total_usd == doctest::Approx(10000.0).epsilon(1e-12));
  // Year 2: 38% x 200,000 = 76,000.
  CHECK(buy.depreciation_views->tax_by_year[1].total_usd == doctest::Approx(76000.0).epsilon(1e-12));
  CHECK(in_month(buy, 2, Category::tax_shield) == doctest::Approx(-0.25 * 10000.0 / 12.0).epsilon(1e-12));
}

TEST_CASE("depreciation ledger: without a view, nothing moves and the report carries no table") {
  Json doc = fixture_json("tax_depreciation.json");
  doc["onprem"]["depreciation"] = {{"life_years", 5}, {"salvage_fraction", 0.1}};
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& buy = o.plan("buy-2-at-3");
  CHECK_FALSE(buy.depreciation_views.has_value());
  // The straight-line shield: (470,000 - 47,000) / 60 = 7,050 a month, x 25% = -1,762.50, 21 months.
  CHECK(total(buy, Category::tax_shield) == doctest::Approx(-37012.5).epsilon(1e-12));
}

TEST_CASE("depreciation ledger: the JSON report carries the book and tax tables of an opted-in plan") {
  const Json report = run_fixture("tax_depreciation.json").report();
  CHECK_FALSE(report_plan(report, "cloud").contains("depreciation_views"));
  const Json& views = report_plan(report, "buy-2-at-3").at("depreciation_views");
  CHECK(views.at("tax_shield_view") == "tax");
  CHECK(views.at("book").at("method") == "double_declining_balance");
  // Year 2 of the book: 40% x (470,000 - 188,000) = 112,800; book value after 470,000 - 300,800.
  const Json& book_row = views.at("book").at("rows").at(1);
  CHECK(book_row.at(0) == 2);
  CHECK(book_row.at(1).get<double>() == doctest::Approx(112800.0).epsilon(1e-12));
  CHECK(book_row.at(2).get<double>() == doctest::Approx(169200.0).epsilon(1e-12));
  const Json& tax_row = views.at("tax").at("rows").at(0);
  CHECK(tax_row.at(1).get<double>() == 70000.0);
  CHECK(tax_row.at(2).get<double>() == doctest::Approx(160000.0).epsilon(1e-12));
  CHECK(tax_row.at(5).get<double>() == doctest::Approx(192000.0).epsilon(1e-12));  // 470,000 - 278,000
  // The economic view: paid 470,000; the residual's curve on server + network + storage, 430,000,
  // at 30% a year: V(1) = 301,000, so year 1 loses 470,000 - 301,000 = 169,000 (the install's
  // 40,000 among it); V(2) = 210,700, year 2 loses 90,300; over the 5-year book life.
  const Json& economic = views.at("economic");
  REQUIRE(economic.at("rows").size() == 5);
  CHECK(economic.at("rows").at(0).at(1).get<double>() == doctest::Approx(169000.0).epsilon(1e-12));
  CHECK(economic.at("rows").at(0).at(2).get<double>() == doctest::Approx(301000.0).epsilon(1e-12));
  CHECK(economic.at("rows").at(1).at(1).get<double>() == doctest::Approx(90300.0).epsilon(1e-12));
  CHECK(economic.at("rows").at(1).at(2).get<double>() == doctest::Approx(210700.0).epsilon(1e-12));
  // The Markdown summary puts the three views side by side: year 1 books 188,000 (value 470,000 -
  // 188,000 = 282,000), deducts 278,000 (basis 192,000) and loses 169,000 of resale value.
  const std::string md = markdown_summary(report);
  CHECK(md.find("**Depreciation views**") != std::string::npos);
  CHECK(md.find("| 1 | $188,000 | $282,000 | $278,000 | $192,000 | $169,000 | $301,000 |") != std::string::npos);
  CHECK(md.find("tax $23,988") != std::string::npos);
  CHECK(markdown_summary(run_fixture("purchase_month3.json").report()).find("Depreciation views") == std::string::npos);
}

TEST_CASE("depreciation ledger: each bad depreciation input exits 2 naming its JSON pointer") {
  struct Case {
    const char* name;
    Json depreciation;
    const char* pointer;
  };
  const Case cases[] = {
      {"method", {{"method", "sum_of_years_digits"}}, "/onprem/depreciation/method"},
      {"class", {{"tax", {{"macrs_class_years", 4}}}}, "/onprem/depreciation/tax/macrs_class_years"},
      {"class-range", {{"tax", {{"macrs_class_years", 15}}}}, "/onprem/depreciation/tax/macrs_class_years"},
      {"class-missing", {{"tax", {{"bonus_fraction", 1.0}}}}, "/onprem/depreciation/tax/macrs_class_years"},
      {"convention", {{"tax", {{"macrs_class_years", 5}, {"convention", "mid_month"}}}}, "/onprem/depreciation/tax/convention"},
      {"convention-type", {{"tax", {{"macrs_class_years", 5}, {"convention", 2}}}}, "/onprem/depreciation/tax/convention"},
      {"bonus", {{"tax", {{"macrs_class_years", 5}, {"bonus_fraction", 1.5}}}}, "/onprem/depreciation/tax/bonus_fraction"},
      {"section-179", {{"tax", {{"macrs_class_years", 5}, {"section_179_usd", -1.0}}}}, "/onprem/depreciation/tax/section_179_usd"},
      {"typo", {{"tax", {{"macrs_class_years", 5}, {"bonus", 1.0}}}}, "/onprem/depreciation/tax/bonus"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    Json doc = base_scenario_json();
    doc["onprem"]["depreciation"] = c.depreciation;
    check_run_and_validate_refuse(std::string("depreciation-bad-") + c.name, doc, c.pointer);
  }
}
