// The utilization breakeven u* (SPEC §12.7, engine/ledger/breakeven.hpp) against the ledger it stands
// for: a steady single-node plan run for the node's life, with fixed staff, racks, throttling,
// a demand charge, a loan or a lease; and the node's share of an N-node fleet's fixed costs.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "scenario_builder.hpp"

namespace tco::test {

namespace {

const UtilizationBreakeven& on_demand_breakeven(const ScenarioOutcome& o, const std::string& plan) {
  for (const auto& b : o.run.utilization_breakevens)
    if (b.plan == plan && b.price_basis == "on_demand") return b;
  FAIL("no on-demand utilization breakeven for plan \"" << plan << "\"");
  return o.run.utilization_breakevens.front();
}

// One 8-GPU node (200,000 USD, idle 2 kW, peak 10 kW) over its 3-year life against 1-GPU
// instances (no instance rounding) at $2.60 a GPU-hour, discount 8 %: fixed staff 0.5 FTE and
// 0.1 FTE per node at 120,000 a year, colocation 100 USD/kW-month and 500 USD/rack-month,
// racks of 10 kW (one node each), a demand charge of 12 USD/kW-month, and throttling above
// 24 C (work rate 0.8) on a seasonal and daily ambient cycle.
Json single_node_json(double demand_gpus) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 36;
  doc["discount_rate_per_year"] = 0.08;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", demand_gpus}}}}};
  doc["cloud"] = {{"offer", {{"id", "test/gpu1/region-a"}, {"on_demand_usd_per_hour", 4.5}}}};
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 10}};
  doc["onprem"]["depreciation"] = {{"life_years", 3}};
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["onprem"]["staff"] = {{"fixed_fte", 0.5}, {"fte_per_node", 0.1}, {"usd_per_fte_year", 120000}};
  doc["onprem"]["financing"] = {{"type", "loan"}, {"apr", 0.07}, {"term_months", 36}, {"down_payment_fraction", 0.2}};
  doc["onprem"]["power"] = {{"region", "test-region"}, {"demand_charge_usd_per_kw_month", 12.0}};
  doc["onprem"]["ambient"] = {{"mean_c", 16}, {"seasonal_amp_c", 10}, {"diurnal_amp_c", 5},
                              {"throttle_above_c", 24}, {"throttle_fraction", 0.2}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "own-1"}, {"kind", "onprem"}, {"onprem_nodes", 1}}};
  doc["baseline"] = "cloud";
  return doc;
}

// u* from the closed form, then the ledger of the same node run at u* x 8 GPUs of steady work:
// owning costs exactly u* x PV(cloud per u), what renting that work costs.
void check_against_ledger(const Json& at_one_gpu) {
  const ScenarioOutcome closed = run_scenario_json(at_one_gpu);
  const UtilizationBreakeven& b = on_demand_breakeven(closed, "own-1");
  CHECK(b.fleet_nodes == 1);
  REQUIRE(b.utilization.has_value());
  const double u = *b.utilization;
  CHECK(u > 0.2);
  CHECK(u < 0.8);  // below the throttled work rate: the node does all the work every hour
  Json at_u = at_one_gpu;
  at_u["workload"]["profiles"][0]["gpus"] = u * 8.0;
  const ScenarioOutcome ledger = run_scenario_json(at_u);
  const PlanResult& own = ledger.plan("own-1");
  CHECK(ledger.plan("own-1").throttled_hours > 0);
  CHECK(own.npv_usd == doctest::Approx(u * b.pv_cloud_per_u_usd).epsilon(1e-9));
  // And the decomposition: PV(fixed) + u x PV(dynamic energy per u) is the ledger too.
  CHECK(own.npv_usd == doctest::Approx(b.pv_fixed_usd + u * b.pv_dynamic_energy_per_u_usd).epsilon(1e-9));
  // Renting 8u 1-GPU instances every hour: the cloud plan's ledger costs the same only when
  // 8u is whole; PV(cloud per u) itself is 8 x $4.50 x 730 h x sum_m 1.08^(-(m+1)/12).
  double annuity = 0.0;
  for (int m = 0; m < 36; ++m) annuity += std::pow(1.08, -(m + 1) / 12.0);
  CHECK(b.pv_cloud_per_u_usd == doctest::Approx(8.0 * 4.5 * 730.0 * annuity).epsilon(1e-12));
}

}  // namespace

TEST_CASE("utilization breakeven: equals the single-node ledger with fixed staff, racks, throttling and a loan") {
  check_against_ledger(single_node_json(1.0));
}

TEST_CASE("utilization breakeven: equals the single-node ledger on a lease") {
  Json doc = single_node_json(1.0);
  doc["onprem"]["financing"] = {{"type", "lease"}, {"usd_per_node_month", 5200}, {"maintenance_included", true}};
  check_against_ledger(doc);
}

TEST_CASE("utilization breakeven: the fixed staff counts (half an FTE is $60,000 a year for one node)") {
  Json without = single_node_json(1.0);
  without["onprem"]["staff"]["fixed_fte"] = 0.0;
  const ScenarioOutcome with_staff = run_scenario_json(single_node_json(1.0));
  const double u_with = on_demand_breakeven(with_staff, "own-1").utilization.value_or(2.0);
  const ScenarioOutcome without_staff = run_scenario_json(without);  // kept: b refers into it
  const UtilizationBreakeven& b = on_demand_breakeven(without_staff, "own-1");
  REQUIRE(b.utilization.has_value());
  // The fixed staff adds 0.5 x 120,000 / 12 = 5,000 a month, PV 5,000 x annuity, to PV(fixed),
  // so u* grows by 5,000 x annuity / (PV(cloud per u) - PV(dynamic per u)).
  double annuity = 0.0;
  for (int m = 0; m < 36; ++m) annuity += std::pow(1.08, -(m + 1) / 12.0);
  const double margin = b.pv_cloud_per_u_usd - b.pv_dynamic_energy_per_u_usd;
  CHECK(u_with == doctest::Approx(*b.utilization + 5000.0 * annuity / margin).epsilon(1e-9));
}

TEST_CASE("utilization breakeven: a node of an N-node fleet carries 1/N of the fixed staff, room and racks") {
  // 11 nodes in 40 kW racks (4 nodes each): 3 racks, so one node's share is 3/11 of a rack fee;
  // 1 fixed FTE and a 110,000 USD room: 1/11 FTE and 10,000 USD each.
  Json fleet = single_node_json(1.0);
  fleet["onprem"]["cooling"]["rack_limit_kw"] = 40;
  fleet["onprem"]["staff"]["fixed_fte"] = 1.0;
  fleet["onprem"]["room_capex_usd"] = 110000.0;
  fleet["plans"][1] = {{"name", "own-11"}, {"kind", "onprem"}, {"onprem_nodes", 11}};
  const ScenarioOutcome fleet_run = run_scenario_json(fleet);  // kept: b refers into it
  const UtilizationBreakeven& b = on_demand_breakeven(fleet_run, "own-11");
  CHECK(b.fleet_nodes == 11);
  // The same node alone, with exactly those shares written into its scenario.
  Json alone = single_node_json(1.0);
  alone["onprem"]["staff"]["fixed_fte"] = 1.0 / 11.0;
  alone["onprem"]["room_capex_usd"] = 10000.0;
  alone["onprem"]["colocation"] = {{"id", "test-colo"}, {"usd_per_rack_month", 500.0 * 3.0 / 11.0}};
  const ScenarioOutcome alone_run = run_scenario_json(alone);
  const UtilizationBreakeven& one = on_demand_breakeven(alone_run, "own-1");
  REQUIRE(b.utilization.has_value());
  REQUIRE(one.utilization.has_value());
  CHECK(b.pv_fixed_usd == doctest::Approx(one.pv_fixed_usd).epsilon(1e-12));
  CHECK(*b.utilization == doctest::Approx(*one.utilization).epsilon(1e-12));
  // And it is that node's ledger: the alone scenario run at u* x 8 GPUs.
  check_against_ledger(alone);
}

}  // namespace tco::test
