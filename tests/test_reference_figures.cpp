// The SPEC's reference figures from industry write-ups (§5, §11), reproduced through the real
// model: a scenario run to a report, then the figure read back from it.
#include <string>

#include <doctest/doctest.h>

#include "models/site/cooling.hpp"
#include "scenario_builder.hpp"

using namespace tco;
using namespace tco::test;

TEST_CASE("reference figure: 100 nodes at 70% utilization at $0.12/kWh cost about $60,000 a year") {
  const Json report = run_fixture("reference_energy.json").report();
  const Json& plan = report_plan(report, "own-100");
  // 560 GPUs of 800 (100 nodes x 8) busy = 70 %; idle 0, PUE 1:
  //   100 x 0.815 kW x 0.7 = 57.05 kW; x 8,760 h = 499,758 kWh; x $0.12 = $59,970.96
  CHECK(plan.at("onprem_utilization").get<double>() == doctest::Approx(0.7).epsilon(1e-12));
  CHECK(plan.at("energy").at("it_kwh").get<double>() == doctest::Approx(499758.0).epsilon(1e-12));
  // 8,760 hourly additions: 1e-12 relative leaves room for their rounding (measured 1e-14).
  CHECK(plan.at("breakdown_nominal_usd").at("energy").get<double>() == doctest::Approx(59970.96).epsilon(1e-12));
  // "About $60,000": within 0.05 % of it.
  CHECK(plan.at("breakdown_nominal_usd").at("energy").get<double>() == doctest::Approx(60000.0).epsilon(5e-4));
}

TEST_CASE("reference figure: an 8x H100 pod at $98.32/h on-demand vs $19.66/h spot is an 80% saving") {
  const ScenarioOutcome o = run_fixture("reference_spot.json");
  const PlanResult& on_demand = o.plan("on-demand");
  const PlanResult& spot = o.plan("spot");
  // One pod for a month: on-demand 98.32 x 730 = $71,773.60; spot 19.66 x 730 = $14,351.80
  CHECK(on_demand.total_usd == doctest::Approx(71773.6).epsilon(1e-12));
  CHECK(spot.total_usd == doctest::Approx(14351.8).epsilon(1e-12));
  // With no preemption overhead (factor 1) spot bills exactly the on-demand GPU-hours.
  CHECK(spot.gpu_hours.spot_billed == on_demand.gpu_hours.on_demand_billed);
  // Saving: 1 - 19.66 / 98.32 = 1 - 0.19995932 = 0.80004068, i.e. 80 %.
  const Comparison& c = o.comparison("spot");
  CHECK(c.npv_saving_usd / on_demand.npv_usd == doctest::Approx(1.0 - 19.66 / 98.32).epsilon(1e-12));
  CHECK(c.npv_saving_usd / on_demand.npv_usd == doctest::Approx(0.80004068).epsilon(1e-8));
}

TEST_CASE("reference figure: a 50 kW rack at delta T 20 F needs about 7,900 CFM") {
  // 3.16 x 50,000 W / 20 °F = 7,900 CFM (the SPEC quotes ~7,850-7,900).
  CHECK(airflow_cfm(50000.0, 20.0) == doctest::Approx(7900.0).epsilon(1e-12));
  // Through a plan: 50 kW racks hold floor(50 / 10) = 5 of the 10 kW nodes; 5 nodes fill one.
  Json doc = base_scenario_json();
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 50}};
  doc["plans"][1]["onprem_nodes"] = 5;
  const Json report = run_scenario_json(doc).report();
  const Json& facility = report_plan(report, "buy-2").at("facility");
  CHECK(facility.at("racks").get<int>() == 1);
  CHECK(facility.at("rack_peak_kw").get<double>() == doctest::Approx(50.0).epsilon(1e-12));
  CHECK(facility.at("airflow_cfm_per_rack").get<double>() == doctest::Approx(7900.0).epsilon(1e-12));
}
