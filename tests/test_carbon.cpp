// Carbon (docs/model.md "Carbon"): the servers' embodied CO2 amortised over their life, the
// carbon price booked as its own category in the hourly model, the discrete-event replay and the
// sweep kernel, the cloud's CO2 from the offer's PUE and grid, and CO2 per plan in every report
// format. The fixture catalog (tests/scenario_builder.hpp): test-node-8 idle 2 kW, peak 10 kW;
// test-air PUE 1.5; test-region 400 g CO2/kWh; ref-gpu 700 W.
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "des_support.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "load_error.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

using tco::test::kEps;
constexpr double kHourlySumEps = 1e-9;  // 8,760 hourly additions

// The base scenario (12 months, 16 GPUs steady; buy-2 owns 2 test-node-8 = 16 GPUs, all busy)
// with 2,500 kg of embodied CO2 per server and a carbon price of $80 a tonne.
Json priced() {
  Json doc = base_scenario_json();
  doc["onprem"]["carbon"] = {{"embodied_kg_co2_per_server", 2500}, {"usd_per_tonne", 80}};
  return doc;
}

}  // namespace

TEST_CASE("carbon: the carbon price category is tonnes x price, grid and embodied, by hand") {
  const ScenarioOutcome o = run_scenario_json(priced());
  const PlanResult& buy = o.plan("buy-2");
  // Grid: 2 nodes x 10 kW x PUE 1.5 = 30 kW, 8,760 h = 262,800 kWh x 400 g = 105,120 kg.
  CHECK(buy.co2_onprem_kg == doctest::Approx(105120.0).epsilon(kHourlySumEps));
  // Embodied: 2 x 2,500 kg over 5 x 12 = 60 months = 83.33 kg a month, 12 months = 1,000 kg.
  CHECK(buy.co2_embodied_kg == doctest::Approx(1000.0).epsilon(kEps));
  // Month 0: 730 h x 30 kW = 21,900 kWh x 0.4 kg = 8,760 kg, + 83.33 kg = 8,843.33 kg
  // x $80 / 1,000 = $707.47.
  CHECK(buy.ledger.month_category_usd(0, Category::carbon) ==
        doctest::Approx((8760.0 + 5000.0 / 60.0) * 80.0 / 1000.0).epsilon(kHourlySumEps));
  // The year: (105,120 + 1,000) kg = 106.12 t x $80 = $8,489.60.
  CHECK(buy.ledger.category_total_usd(Category::carbon) == doctest::Approx(8489.6).epsilon(kHourlySumEps));
  // Without a price the CO2 is the same and nothing is booked; every other category is unchanged.
  Json unpriced = priced();
  unpriced["onprem"]["carbon"]["usd_per_tonne"] = 0;
  const PlanResult free = run_scenario_json(unpriced).plan("buy-2");  // a copy: the outcome is a temporary
  CHECK(free.co2_embodied_kg == doctest::Approx(1000.0).epsilon(kEps));
  CHECK(free.ledger.category_total_usd(Category::carbon) == 0.0);
  CHECK(buy.total_usd - free.total_usd == doctest::Approx(8489.6).epsilon(kHourlySumEps));
  // The cloud plan has no on-prem CO2 to price.
  CHECK(o.plan("cloud").ledger.category_total_usd(Category::carbon) == 0.0);
}

TEST_CASE("carbon: embodied CO2 stops at the end of the server life, inside a longer horizon") {
  Json doc = priced();
  doc["horizon_months"] = 36;
  doc["onprem"]["depreciation"] = {{"life_years", 2.5}};
  const PlanResult buy = run_scenario_json(doc).plan("buy-2");  // a copy: the outcome is a temporary
  // 5,000 kg over 30 months: 166.67 kg a month in months 0..29, then nothing: 5,000 kg in all.
  CHECK(buy.co2_embodied_kg == doctest::Approx(5000.0).epsilon(kEps));
}

TEST_CASE("carbon: the cloud's CO2 is GPU-hours x GPU kW x the offer's PUE x its grid, by hand") {
  Json doc = base_scenario_json();
  doc["cloud"]["offer"] = {{"provider", "test"},       {"instance_type", "gpu8"},  {"region", "region-b"},
                           {"gpu_model", "ref-gpu"},   {"gpus_per_instance", 8},   {"on_demand_usd_per_hour", 16.0},
                           {"pue", 1.2},               {"g_co2_per_kwh", 300},     {"source", "test"},
                           {"as_of", "2026-01-01"}};
  const ScenarioOutcome o = run_scenario_json(doc);
  // 16 GPUs x 8,760 h = 140,160 GPU-hours x 0.7 kW x 1.2 x 0.3 kg/kWh = 35,320.32 kg.
  REQUIRE(o.plan("cloud").co2_cloud_kg.has_value());
  CHECK(*o.plan("cloud").co2_cloud_kg == doctest::Approx(35320.32).epsilon(kEps));
  // The buying plan serves everything on-prem: no cloud GPU-hours, 0 kg (not null).
  REQUIRE(o.plan("buy-2").co2_cloud_kg.has_value());
  CHECK(*o.plan("buy-2").co2_cloud_kg == 0.0);
}

TEST_CASE("carbon: the discrete-event replay books the same price on its facility kWh") {
  Json doc = des_scenario_json({{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}});
  doc["onprem"]["carbon"] = {{"embodied_kg_co2_per_server", 2500}, {"usd_per_tonne", 80}};
  MonteCarloOptions opt;
  opt.paths = 2;
  opt.threads = 1;
  const MonteCarloRun mc = run_monte_carlo(load_des_scenario(doc), opt);
  const PlanResult& buy = mc.run.plans[1];
  // carbon = facility kWh x 0.4 kg / 1,000 x $80 + the embodied 1,000 kg x $80 / 1,000.
  CHECK(buy.ledger.category_total_usd(Category::carbon) ==
        doctest::Approx(buy.facility_energy_kwh * 0.4 / 1000.0 * 80.0 + 80.0).epsilon(kHourlySumEps));
  CHECK(buy.co2_embodied_kg == doctest::Approx(1000.0).epsilon(kEps));
}

TEST_CASE("carbon: the sweep kernel prices the grid's CO2 like the hourly model") {
  const Scenario s = load_scenario_json(priced(), "carbon-test.json", source_path("tests"));
  const FluidMonteCarloRun fluid = run_fluid_monte_carlo(s, 2, 1, 1, nullptr);
  const ScenarioRun det = run_deterministic(s);
  // Nothing random in the base scenario: every path is the deterministic run, carbon included.
  for (int k = 0; k < 2; ++k) CHECK(fluid.npv_by_path[1][k] == doctest::Approx(det.plans[1].npv_usd).epsilon(1e-9));
  // With monthly power price shocks the kernel would shock the carbon price too: refused.
  Json shocked = priced();
  shocked["onprem"]["power"]["monthly_price_sigma"] = 0.1;
  CHECK(load_error(shocked).find("/onprem/carbon/usd_per_tonne: plan \"buy-2\" prices its CO2") == 0);
  Json with_jobs = shocked;
  with_jobs["jobs"] = {{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}};
  const Scenario des = load_scenario_json(with_jobs, "carbon-test.json", source_path("tests"));  // the replay can
  CHECK_THROWS_AS(prepare_sweep_point(des, 1), InputError);
}

TEST_CASE("carbon: bad input names the pointer") {
  Json doc = priced();
  doc["onprem"]["carbon"]["usd_per_tonne"] = -5;
  CHECK(load_error(doc).find("/onprem/carbon/usd_per_tonne") == 0);
  doc = priced();
  doc["onprem"]["carbon"]["embodied_kg_co2_per_server"] = 1e9;
  CHECK(load_error(doc).find("/onprem/carbon/embodied_kg_co2_per_server") == 0);
  doc = priced();
  doc["onprem"]["carbon"]["usd_per_tonnes"] = 5;
  CHECK(load_error(doc).find("/onprem/carbon") == 0);
}

TEST_CASE("carbon: CO2 per plan is in the JSON, Markdown, HTML and CSV, with n/a for an unknown cloud") {
  const Json report = run_scenario_json(priced()).report();
  const Json& co2 = report_plan(report, "buy-2").at("co2_kg");
  CHECK(co2.at("embodied").get<double>() == doctest::Approx(1000.0).epsilon(kEps));
  CHECK(report_plan(report, "buy-2").at("breakdown_nominal_usd").at("carbon").get<double>() ==
        doctest::Approx(8489.6).epsilon(kHourlySumEps));
  CHECK(report_plan(report, "cloud").at("co2_kg").at("cloud").is_null());  // the fixture offer gives no PUE
  const std::string md = markdown_summary(report);
  CHECK(md.find("| buy-2 | 105.1 t | 1.0 t | n/a (the offer gives no PUE or grid intensity) | $8,490 |") !=
        std::string::npos);
  CHECK(md.find("| cloud | 0.0 t | 0.0 t | n/a (the offer gives no PUE or grid intensity) | none set |") !=
        std::string::npos);
  CHECK(html_report(report).find("<h2 id=\"carbon\">CO2 per plan</h2>") != std::string::npos);
  std::string plans_csv;
  for (const auto& [file, text] : csv_tables(report))
    if (file == "plans.csv") plans_csv = text;
  CHECK(plans_csv.find("co2_onprem_kg,co2_embodied_kg,co2_cloud_kg") != std::string::npos);
}
