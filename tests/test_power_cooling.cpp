// Power, cooling and ambient models (SPEC §5, §12.1, §12.8, §12.9, §12.16): the formulas with
// numbers worked by hand, then the same formulas seen through a loaded scenario.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/site/ambient.hpp"
#include "models/site/cooling.hpp"
#include "models/site/power.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

using tco::test::kEps;

Calendar calendar_from(const std::string& date_text) {
  Date start;
  REQUIRE(parse_date(date_text, start));
  return Calendar::from_start(start);
}

// The ambient model of the SPEC's worked example: mean 15 °C, seasonal 10 °C peaking on day
// 200, diurnal 5 °C peaking at 15:00.
AmbientSpec example_ambient() {
  AmbientSpec a;
  a.mean_c = 15.0;
  a.seasonal_amp_c = 10.0;
  a.hottest_day = 200.0;
  a.diurnal_amp_c = 5.0;
  a.hottest_hour = 15.0;
  return a;
}

}  // namespace

TEST_CASE("power: IT kW is idle plus the busy share of the dynamic range") {
  // 2 nodes x (2 + (10 - 2) x 0.5) = 2 x 6 = 12 kW
  CHECK(it_kw(2.0, 2.0, 10.0, 0.5) == doctest::Approx(12.0).epsilon(kEps));
  // Idle: 3 x 2 = 6 kW; full: 3 x 10 = 30 kW; no nodes: 0.
  CHECK(it_kw(3.0, 2.0, 10.0, 0.0) == doctest::Approx(6.0).epsilon(kEps));
  CHECK(it_kw(3.0, 2.0, 10.0, 1.0) == doctest::Approx(30.0).epsilon(kEps));
  CHECK(it_kw(0.0, 2.0, 10.0, 1.0) == 0.0);
  // 100 nodes x 0.815 kW x 0.7 busy (idle 0) = 57.05 kW
  CHECK(it_kw(100.0, 0.0, 0.815, 0.7) == doctest::Approx(57.05).epsilon(kEps));
}

TEST_CASE("cooling: PUE under the constant and the ambient model") {
  PueParams constant;
  constant.pue = 1.5;
  CHECK(pue_at(constant, -10.0) == 1.5);
  CHECK(pue_at(constant, 40.0) == 1.5);

  PueParams ambient;
  ambient.ambient_driven = true;
  ambient.pue_min = 1.1;
  ambient.pue_slope_per_c = 0.02;
  ambient.free_cooling_c = 18.0;
  // 30 °C: 1.1 + 0.02 x (30 - 18) = 1.1 + 0.24 = 1.34
  CHECK(pue_at(ambient, 30.0) == doctest::Approx(1.34).epsilon(kEps));
  // 20 °C: 1.1 + 0.02 x 2 = 1.14
  CHECK(pue_at(ambient, 20.0) == doctest::Approx(1.14).epsilon(kEps));
  // At or below free cooling: pue_min.
  CHECK(pue_at(ambient, 18.0) == doctest::Approx(1.1).epsilon(kEps));
  CHECK(pue_at(ambient, 5.0) == doctest::Approx(1.1).epsilon(kEps));
}

TEST_CASE("ambient: temperature on chosen days and hours") {
  const AmbientSpec a = example_ambient();
  // Day 200, 15:00: 15 + 10 cos 0 + 5 cos 0 = 30 °C
  CHECK(ambient_c(a, 200, 15) == doctest::Approx(30.0).epsilon(kEps));
  // Day 200, 03:00: 15 + 10 + 5 cos(2 pi (3 - 15) / 24) = 15 + 10 - 5 = 20 °C
  CHECK(ambient_c(a, 200, 3) == doctest::Approx(20.0).epsilon(kEps));
  // Day 200, 09:00: the diurnal term is 5 cos(-pi / 2) = 0: 25 °C
  CHECK(ambient_c(a, 200, 9) == doctest::Approx(25.0).epsilon(kEps));
  // Day 17, 21:00: 15 + 10 cos(2 pi (-183) / 365) + 5 cos(pi / 2)
  //   = 15 + 10 x (-0.99996296) + 0 = 5.00037041 °C (mid-January, half a year from the peak)
  CHECK(ambient_c(a, 17, 21) == doctest::Approx(5.0003704088).epsilon(1e-10));
  // Day 109, 00:00: 15 + 10 cos(2 pi (-91) / 365) + 5 cos(2 pi (-15) / 24)
  //   = 15 + 10 x 0.00430354 + 5 x (-0.70710678) = 11.50750148 °C
  CHECK(ambient_c(a, 109, 0) == doctest::Approx(11.5075014770).epsilon(1e-10));
}

TEST_CASE("ambient: throttling cuts the work rate strictly above the threshold") {
  AmbientSpec a = example_ambient();
  a.throttle_above_c = 30.0;
  a.throttle_fraction = 0.2;
  // 31 °C > 30 °C: 1 - 0.2 = 0.8 of full speed.
  CHECK(work_rate_at(a, 31.0, true, 30.0) == doctest::Approx(0.8).epsilon(kEps));
  // Exactly at the threshold is not above it.
  CHECK(work_rate_at(a, 30.0, true, 30.0) == 1.0);
  // Without a threshold nothing throttles.
  CHECK(work_rate_at(a, 45.0, false, 0.0) == 1.0);
}

TEST_CASE("cooling: rack density, rack count and airflow") {
  // floor(40 / 10) = 4 nodes a rack; floor(40 / 10.2) = 3; floor(100 / 10.2) = 9.
  CHECK(nodes_per_rack(40.0, 10.0) == 4);
  CHECK(nodes_per_rack(40.0, 10.2) == 3);
  CHECK(nodes_per_rack(100.0, 10.2) == 9);
  // ceil(9 / 4) = 3 racks; ceil(8 / 4) = 2; no nodes, no racks.
  CHECK(racks_for(9, 4) == 3);
  CHECK(racks_for(8, 4) == 2);
  CHECK(racks_for(0, 4) == 0);
  // SPEC reference figure: a 50 kW rack at delta T 20 °F needs 3.16 x 50,000 / 20 = 7,900 CFM.
  CHECK(airflow_cfm(50000.0, 20.0) == doctest::Approx(7900.0).epsilon(kEps));
  // 40 kW at delta T 25 °F: 3.16 x 40,000 / 25 = 5,056 CFM.
  CHECK(airflow_cfm(40000.0, 25.0) == doctest::Approx(5056.0).epsilon(kEps));
}

TEST_CASE("cooling: a 10.2 kW node in an 8 kW rack is a ModelError") {
  // floor(8 / 10.2) = 0 nodes a rack.
  CHECK_THROWS_AS(nodes_per_rack(8.0, 10.2), ModelError);
  try {
    nodes_per_rack(8.0, 10.2);
  } catch (const ModelError& e) {
    const std::string message = e.what();
    CHECK_MESSAGE(message.find("10.2 kW") != std::string::npos, message);
    CHECK_MESSAGE(message.find("8 kW") != std::string::npos, message);
  }
}

TEST_CASE("power: time-of-use tariff on a weekday and a weekend hour") {
  Tariff tou;
  tou.kind = Tariff::Kind::time_of_use;
  for (int h = 0; h < 24; ++h) {
    tou.weekday_usd_per_kwh[h] = (h >= 8 && h < 20) ? 0.20 : 0.10;
    tou.weekend_usd_per_kwh[h] = 0.05;
  }
  // Start 2026-01-05 is a Monday (2026-01-01 is a Thursday).
  const Calendar calendar = calendar_from("2026-01-05");
  // Hour 12: Monday 12:00, weekday peak.
  CHECK(tariff_usd_per_kwh(tou, 12, calendar) == 0.20);
  // Hour 7: Monday 07:00, weekday off-peak.
  CHECK(tariff_usd_per_kwh(tou, 7, calendar) == 0.10);
  // Hour 4 x 24 + 19 = 115: Friday 19:00, still peak; hour 116 is Friday 20:00, off-peak.
  CHECK(tariff_usd_per_kwh(tou, 115, calendar) == 0.20);
  CHECK(tariff_usd_per_kwh(tou, 116, calendar) == 0.10);
  // Hour 5 x 24 + 12 = 132: Saturday 12:00, weekend.
  CHECK(tariff_usd_per_kwh(tou, 132, calendar) == 0.05);
  // Hour 6 x 24 + 23 = 167: Sunday 23:00; hour 168: Monday 00:00 again.
  CHECK(tariff_usd_per_kwh(tou, 167, calendar) == 0.05);
  CHECK(tariff_usd_per_kwh(tou, 168, calendar) == 0.10);
  // The same hour 132 from a Wednesday start (2026-01-07) is Monday 12:00: weekday peak.
  CHECK(tariff_usd_per_kwh(tou, 132, calendar_from("2026-01-07")) == 0.20);

  Tariff flat;
  flat.flat_usd_per_kwh = 0.12;
  CHECK(tariff_usd_per_kwh(flat, 132, calendar) == 0.12);
}

TEST_CASE("power: escalation compounds by the hour and, for monthly charges, by the month") {
  // (1 + 0.1)^(8760 / 8760) = 1.1; half a year, (1.1)^0.5 = 1.04880885
  CHECK(hourly_growth_factor(0.10, 8760) == doctest::Approx(1.1).epsilon(kEps));
  CHECK(hourly_growth_factor(0.10, 4380) == doctest::Approx(1.0488088482).epsilon(1e-10));
  CHECK(hourly_growth_factor(0.10, 0) == 1.0);
  // Two years of -20 %: 0.8^2 = 0.64
  CHECK(hourly_growth_factor(-0.20, 17520) == doctest::Approx(0.64).epsilon(kEps));
  // Monthly: (1.1)^(12/12) = 1.1; (1.1)^(6/12) = 1.04880885; month 0 = 1.
  CHECK(monthly_growth_factor(0.10, 12) == doctest::Approx(1.1).epsilon(kEps));
  CHECK(monthly_growth_factor(0.10, 6) == doctest::Approx(1.0488088482).epsilon(1e-10));
  CHECK(monthly_growth_factor(0.10, 0) == 1.0);
  // Month 6 starts at hour 6 x 730 = 4380: the two conventions agree there.
  CHECK(monthly_growth_factor(0.05, 6) == doctest::Approx(hourly_growth_factor(0.05, 4380)).epsilon(kEps));
}

TEST_CASE("site hours: ambient-driven PUE through a loaded scenario follows the calendar") {
  Json doc = base_scenario_json();
  doc["start"] = "2026-07-19";  // day of year 200, a Sunday
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"pue_model", "ambient"}, {"pue", nullptr},
                              {"pue_min", 1.1},  {"pue_slope_per_c", 0.02}, {"free_cooling_c", 18}};
  doc["onprem"]["ambient"] = {{"mean_c", 15}, {"seasonal_amp_c", 10}, {"hottest_day", 200},
                              {"diurnal_amp_c", 5}, {"hottest_hour", 15}};
  const Scenario s = load_scenario_json(doc, "ambient.json", source_path("tests"));
  REQUIRE(s.plans[1].onprem.has_value());
  const std::vector<SiteHour> site = site_hours(*s.plans[1].onprem, s.calendar, 48);
  // Hour 15: day 200, 15:00, 30 °C: PUE 1.1 + 0.02 x 12 = 1.34
  CHECK(site[15].pue == doctest::Approx(1.34).epsilon(kEps));
  // Hour 3: day 200, 03:00, 20 °C: PUE 1.1 + 0.02 x 2 = 1.14
  CHECK(site[3].pue == doctest::Approx(1.14).epsilon(kEps));
  // Hour 39: day 201, 15:00: 15 + 10 cos(2 pi / 365) + 5 = 29.99851839 °C
  //   PUE = 1.1 + 0.02 x 11.99851839 = 1.33997037
  CHECK(site[39].pue == doctest::Approx(1.3399703678).epsilon(1e-10));
  // A flat $0.10/kWh without escalation; no throttle threshold, full speed.
  CHECK(site[39].usd_per_kwh == doctest::Approx(0.10).epsilon(kEps));
  CHECK(site[15].work_rate == 1.0);
}

TEST_CASE("throttling: a throttled hour draws the same power for less work (SPEC §12.9)") {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 1;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 4}}}}};
  doc["onprem"]["ambient"] = {{"mean_c", 35}, {"throttle_above_c", 30}, {"throttle_fraction", 0.2}};
  doc["plans"] = {{{"name", "own-1"}, {"kind", "onprem"}, {"onprem_nodes", 1}}};
  doc.erase("baseline");
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& r = o.plan("own-1");
  // 35 °C every hour > 30 °C: every one of the 730 hours runs at 1 - 0.2 = 0.8 speed, so 4 GPUs
  // of work keep 4 / 0.8 = 5 GPUs busy.
  CHECK(r.throttled_hours == 730);
  CHECK(r.gpu_hours.onprem_busy == doctest::Approx(5.0 * 730.0).epsilon(kEps));   // 3,650
  CHECK(r.gpu_hours.useful == doctest::Approx(4.0 * 730.0).epsilon(kEps));        // 2,920
  // IT: 2 + (10 - 2) x 5 / 8 = 7 kW; 7 x 730 = 5,110 kWh; x PUE 1.5 = 7,665 kWh; x $0.10 = $766.50
  CHECK(r.it_energy_kwh == doctest::Approx(5110.0).epsilon(1e-12));
  CHECK(r.facility_energy_kwh == doctest::Approx(7665.0).epsilon(1e-12));
  CHECK(r.ledger.category_total_usd(Category::energy) == doctest::Approx(766.5).epsilon(1e-12));
  CHECK(o.has_warning("thermal-throttling", "/plans/0/onprem/ambient"));
}

TEST_CASE("rack layout through a plan: racks, fullest-rack airflow and the colocation rack fee") {
  Json doc = base_scenario_json();
  doc["plans"][1]["onprem_nodes"] = 9;
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& r = o.plan("buy-2");
  // 40 kW racks of 10 kW nodes: 4 a rack, ceil(9 / 4) = 3 racks; the fullest holds 4 x 10 = 40 kW.
  CHECK(r.facility.nodes_per_rack == 4);
  CHECK(r.facility.racks == 3);
  CHECK(r.facility.rack_peak_kw == doctest::Approx(40.0).epsilon(kEps));
  // 3.16 x 40,000 W / 20 °F = 6,320 CFM
  CHECK(r.facility.airflow_cfm_per_rack == doctest::Approx(6320.0).epsilon(kEps));
  CHECK(r.facility.provisioned_it_kw == doctest::Approx(90.0).epsilon(kEps));
  // Colocation: $100 x 90 kW + $500 x 3 racks = $10,500 a month; x 12 = $126,000
  CHECK(r.ledger.category_total_usd(Category::facility) == doctest::Approx(126000.0).epsilon(kEps));
  CHECK_FALSE(o.has_warning("airflow-exceeds-cooling", "/plans/1/onprem/cooling"));
}

TEST_CASE("airflow above the cooling's CFM per rack is a warning, judged on the fullest rack") {
  Json doc = base_scenario_json();
  // 70 kW racks hold floor(70 / 10) = 7 nodes.
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 70}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}},
                  {{"name", "six"}, {"kind", "hybrid"}, {"onprem_nodes", 6}},
                  {{"name", "eight"}, {"kind", "hybrid"}, {"onprem_nodes", 8}}};
  const ScenarioOutcome o = run_scenario_json(doc);
  // 6 nodes: one 60 kW rack, 3.16 x 60,000 / 20 = 9,480 CFM <= 10,000: no warning.
  CHECK(o.plan("six").facility.airflow_cfm_per_rack == doctest::Approx(9480.0).epsilon(kEps));
  CHECK_FALSE(o.has_warning("airflow-exceeds-cooling", "/plans/1/onprem/cooling"));
  // 8 nodes: racks of 7 and 1; the fullest is 70 kW: 3.16 x 70,000 / 20 = 11,060 CFM > 10,000.
  CHECK(o.plan("eight").facility.racks == 2);
  CHECK(o.plan("eight").facility.airflow_cfm_per_rack == doctest::Approx(11060.0).epsilon(kEps));
  CHECK(o.has_warning("airflow-exceeds-cooling", "/plans/2/onprem/cooling"));
}

TEST_CASE("cloud CO2: GPU-hours x kW x the offer's PUE x its grid, null unless the offer gives both") {
  CloudSpec c;
  c.gpu.tdp_w = 700.0;
  c.offer.pue = 1.2;
  c.offer.g_co2_per_kwh = 400.0;
  // 1,000 GPU-hours x 0.7 kW x 1.2 x 400 g/kWh = 336,000 g = 336 kg.
  REQUIRE(cloud_co2_kg(c, 1000.0).has_value());
  CHECK(*cloud_co2_kg(c, 1000.0) == doctest::Approx(336.0).epsilon(1e-12));
  c.offer.pue.reset();  // no PUE: no guess
  CHECK_FALSE(cloud_co2_kg(c, 1000.0).has_value());
  c.offer.pue = 1.2;
  c.offer.g_co2_per_kwh.reset();
  CHECK_FALSE(cloud_co2_kg(c, 1000.0).has_value());
}
