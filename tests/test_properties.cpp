// Properties the model must have whatever the numbers (SPEC §8, §12.7): monotone capex, no
// cloud money without demand, a plan against itself saves nothing, spot without overhead bills
// what on-demand bills, and the closed-form breakevens agree with simulated plans.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

using tco::test::kEps;

double total(const PlanResult& r, Category c) { return r.ledger.category_total_usd(c); }

const UtilizationBreakeven& breakeven_for(const ScenarioOutcome& o, const std::string& basis) {
  for (const auto& b : o.run.utilization_breakevens)
    if (b.price_basis == basis) return b;
  FAIL("no utilization breakeven on the \"" << basis << "\" basis");
  return o.run.utilization_breakevens.front();
}

// The single-node scenario of the utilization breakeven (SPEC §12.7): one 8-GPU node over its
// 3-year life (36 months, bought at month 0) against 1-GPU instances (no instance rounding),
// discount rate 8 %. Fixed monthly costs of the node: maintenance 200,000 x 0.06 / 12 = 1,000;
// colocation 100 x 10 kW + 500 x 1 rack (10 kW racks hold 1 node) = 1,500; staff 0.1 FTE x
// 120,000 / 12 = 1,000 (no fixed FTEs); idle energy 2 kW x 1.5 x $0.10 x 730 h = 219. Total 3,719.
// Residual after 3 years: 200,000 x 0.7^3 = 68,600.
Json breakeven_scenario(double usd_per_gpu_hour, double demand_gpus) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 36;
  doc["discount_rate_per_year"] = 0.08;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", demand_gpus}}}}};
  doc["cloud"] = {{"offer", {{"id", "test/gpu1/region-a"}, {"on_demand_usd_per_hour", usd_per_gpu_hour}}}};
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 10}};
  doc["onprem"]["depreciation"] = {{"life_years", 3}};
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["onprem"]["staff"] = {{"fixed_fte", 0}, {"fte_per_node", 0.1}, {"usd_per_fte_year", 120000}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "own-1"}, {"kind", "onprem"}, {"onprem_nodes", 1}}};
  doc["baseline"] = "cloud";
  return doc;
}

}  // namespace

TEST_CASE("property: more on-prem nodes never lower capex (N = 0..10)") {
  Json doc = base_scenario_json();
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 40}}}}};
  doc["plans"] = Json::array();
  for (int n = 0; n <= 10; ++n)
    doc["plans"].push_back({{"name", "nodes-" + std::to_string(n)}, {"kind", "hybrid"}, {"onprem_nodes", n}});
  doc["baseline"] = "nodes-0";
  const ScenarioOutcome o = run_scenario_json(doc);
  double previous_usd = -1.0;
  for (int n = 0; n <= 10; ++n) {
    CAPTURE(n);
    const double capex_usd = total(o.plan("nodes-" + std::to_string(n)), Category::capex);
    // n x $200,000
    CHECK(capex_usd == doctest::Approx(n * 200000.0).epsilon(kEps));
    CHECK(capex_usd >= previous_usd);
    previous_usd = capex_usd;
  }
}

TEST_CASE("property: zero demand costs no cloud money (reserved capacity excepted)") {
  Json doc = base_scenario_json();
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 0}}}}};
  doc["cloud"]["egress_gb_per_gpu_hour"] = 2;
  doc["cloud"]["egress_usd_per_gb"] = 0.05;
  doc["plans"] = {{{"name", "on-demand"}, {"kind", "cloud"}},
                  {{"name", "spot"}, {"kind", "cloud"}, {"spot_share", 0.5}, {"cloud", {{"spot_overhead_factor", 2}}}},
                  {{"name", "hybrid"}, {"kind", "hybrid"}, {"onprem_nodes", 2}},
                  {{"name", "reserved"}, {"kind", "cloud"}, {"reserved_instances", 1}}};
  doc["baseline"] = "on-demand";
  const ScenarioOutcome o = run_scenario_json(doc);
  for (const char* name : {"on-demand", "spot", "hybrid", "reserved"}) {
    CAPTURE(name);
    const PlanResult& r = o.plan(name);
    CHECK(total(r, Category::cloud_on_demand) == 0.0);
    CHECK(total(r, Category::cloud_spot) == 0.0);
    CHECK(total(r, Category::egress) == 0.0);
    CHECK(r.gpu_hours.on_demand_billed == 0.0);
    CHECK(r.gpu_hours.spot_billed == 0.0);
  }
  CHECK(o.plan("on-demand").total_usd == 0.0);
  // A reservation is paid whether used or not: $12/h x 8,760 h = $105,120.
  CHECK(total(o.plan("reserved"), Category::cloud_reserved) == doctest::Approx(105120.0).epsilon(kEps));
}

TEST_CASE("property: a plan compared with itself saves exactly nothing") {
  Json doc = base_scenario_json();
  doc["discount_rate_per_year"] = 0.07;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 20}, {"diurnal_amplitude", 0.3}}}}};
  doc["plans"] = {{{"name", "buy-2"}, {"kind", "hybrid"}, {"onprem_nodes", 2}},
                  {{"name", "buy-2-again"}, {"kind", "hybrid"}, {"onprem_nodes", 2}}};
  doc["baseline"] = "buy-2";
  const ScenarioOutcome o = run_scenario_json(doc);
  const Comparison& c = o.comparison("buy-2-again");
  CHECK(c.npv_saving_usd == 0.0);
  CHECK(c.nominal_saving_usd == 0.0);
  REQUIRE(c.payback_month.has_value());
  CHECK(*c.payback_month == 0);
  // Identical flows have no internal rate of return: every rate gives an NPV of 0.
  CHECK_MESSAGE(!c.irr_per_year.has_value(),
                "a plan identical to its baseline reports an IRR of " << c.irr_per_year.value_or(0.0));
}

TEST_CASE("property: spot with no overhead bills exactly the GPU-hours on-demand bills") {
  Json doc = base_scenario_json();
  // A demand that moves (diurnal and weekend shape) so rounding happens at many levels.
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 21}, {"diurnal_amplitude", 0.6}, {"weekend_factor", 0.4}}}}};
  doc["cloud"]["spot_overhead_factor"] = 1;
  doc["plans"] = {{{"name", "on-demand"}, {"kind", "cloud"}},
                  {{"name", "spot"}, {"kind", "cloud"}, {"spot_share", 1}},
                  {{"name", "hybrid-spot"}, {"kind", "hybrid"}, {"onprem_nodes", 1}, {"spot_share", 1}},
                  {{"name", "hybrid-on-demand"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  doc["baseline"] = "on-demand";
  const ScenarioOutcome o = run_scenario_json(doc);
  CHECK(o.plan("on-demand").gpu_hours.on_demand_billed > 0.0);
  CHECK(o.plan("spot").gpu_hours.spot_billed == o.plan("on-demand").gpu_hours.on_demand_billed);
  CHECK(o.plan("spot").gpu_hours.on_demand_billed == 0.0);
  CHECK(o.plan("hybrid-spot").gpu_hours.spot_billed == o.plan("hybrid-on-demand").gpu_hours.on_demand_billed);
  // Same instances at $8 instead of $16 an hour: exactly half the cost.
  CHECK(total(o.plan("spot"), Category::cloud_spot) ==
        doctest::Approx(0.5 * total(o.plan("on-demand"), Category::cloud_on_demand)).epsilon(kEps));
}

TEST_CASE("property: the closed-form utilization breakeven matches a simulated single-node plan") {
  // Hand computation. A = sum_{m=0..35} 1.08^(-(m+1)/12) = 32.04333 (end-of-month discount).
  double annuity = 0.0;
  for (int m = 0; m < 36; ++m) annuity += std::pow(1.08, -(m + 1) / 12.0);
  CHECK(annuity == doctest::Approx(32.0433313887).epsilon(1e-10));
  // PV(fixed) = 200,000 (start of month 0) + 3,719 A - 68,600 x 1.08^-3 = $264,712.26
  const double pv_fixed_usd = 200000.0 + 3719.0 * annuity - 68600.0 * std::pow(1.08, -3.0);
  // PV(dynamic energy per u) = 8 kW x 1.5 x $0.10 x 730 h x A = 876 A
  const double pv_dynamic_per_u_usd = 876.0 * annuity;
  // PV(cloud per u) = 8 GPUs x p x 730 h x A = 5,840 p A. Choose p so that u* = 1/2:
  //   p = (2 PV(fixed) / A + 876) / 5,840 = $2.9791/GPU-hour
  const double price_usd = (2.0 * pv_fixed_usd / annuity + 876.0) / 5840.0;
  CHECK(price_usd == doctest::Approx(2.9791341395).epsilon(1e-10));

  // The engine's closed form, at that price.
  const ScenarioOutcome closed = run_scenario_json(breakeven_scenario(price_usd, 1.0));
  const UtilizationBreakeven& b = breakeven_for(closed, "on_demand");
  CHECK(b.life_months == 36);
  CHECK(b.cloud_usd_per_gpu_hour == doctest::Approx(price_usd).epsilon(kEps));
  CHECK(b.pv_fixed_usd == doctest::Approx(pv_fixed_usd).epsilon(1e-12));
  CHECK(b.pv_dynamic_energy_per_u_usd == doctest::Approx(pv_dynamic_per_u_usd).epsilon(1e-12));
  CHECK(b.pv_cloud_per_u_usd == doctest::Approx(5840.0 * price_usd * annuity).epsilon(1e-12));
  REQUIRE(b.utilization.has_value());
  CHECK(*b.utilization == doctest::Approx(0.5).epsilon(1e-12));
  // u* x 8 GPUs x 730 h = 2,920 GPU-hours a month.
  CHECK(b.gpu_hours_per_month.value_or(0.0) == doctest::Approx(2920.0).epsilon(1e-12));
  // At the $1/GPU-hour spot price: u* = 264,712.26 / ((5,840 - 876) x 32.04333) = 1.66 > 1: never.
  CHECK_FALSE(breakeven_for(closed, "spot").utilization.has_value());

  // The simulation at u* x G GPUs of steady demand: owning and renting cost the same NPV.
  const ScenarioOutcome simulated = run_scenario_json(breakeven_scenario(price_usd, *b.utilization * 8.0));
  const double own_npv_usd = simulated.plan("own-1").npv_usd;
  const double cloud_npv_usd = simulated.plan("cloud").npv_usd;
  CHECK(simulated.plan("own-1").onprem_utilization.value_or(0.0) == doctest::Approx(0.5).epsilon(1e-12));
  // SPEC: within 0.1 %. Nothing here rounds (whole 1-GPU instances, 4 GPUs), so the two agree to
  // the rounding of 26,280 hourly additions as well: 1e-9.
  CHECK(own_npv_usd == doctest::Approx(cloud_npv_usd).epsilon(1e-3));
  CHECK(own_npv_usd == doctest::Approx(cloud_npv_usd).epsilon(1e-9));
  // Both equal the hand value: PV(fixed) + u* PV(dynamic) = 264,712.26 + 0.5 x 876 A.
  CHECK(own_npv_usd == doctest::Approx(pv_fixed_usd + 0.5 * pv_dynamic_per_u_usd).epsilon(1e-9));
}

TEST_CASE("property: the utilization breakeven rents the same work when the cloud GPU is faster") {
  // The scenario above with a cloud GPU twice as fast (perf_relative 2) at twice the price:
  // G busy on-prem GPUs do the work of 8 x 1 / 2 = 4 cloud GPUs, so PV(cloud per u) =
  // 4 GPUs x 2p x 730 h x A = 5,840 p A as before, and u* is 1/2 again (renting 8 GPUs at 2p
  // would give u* = 264,712.26 / ((11,680 p - 876) A) = 0.2365 instead).
  double annuity = 0.0;
  for (int m = 0; m < 36; ++m) annuity += std::pow(1.08, -(m + 1) / 12.0);
  const double pv_fixed_usd = 200000.0 + 3719.0 * annuity - 68600.0 * std::pow(1.08, -3.0);
  const double price_usd = (2.0 * pv_fixed_usd / annuity + 876.0) / 5840.0;
  auto fast_cloud = [&](double demand_gpus) {
    Json doc = breakeven_scenario(2.0 * price_usd, demand_gpus);
    doc["cloud"]["gpu"] = {{"id", "ref-gpu"}, {"perf_relative", 2.0}};
    return run_scenario_json(doc);
  };
  const ScenarioOutcome closed = fast_cloud(1.0);
  const UtilizationBreakeven& b = breakeven_for(closed, "on_demand");
  CHECK(b.pv_cloud_per_u_usd == doctest::Approx(5840.0 * price_usd * annuity).epsilon(1e-12));
  REQUIRE(b.utilization.has_value());
  CHECK(*b.utilization == doctest::Approx(0.5).epsilon(1e-12));
  // The ledger agrees: 4 GPUs of work keep the node half busy, or rent 2 fast GPUs at 2p.
  const ScenarioOutcome simulated = fast_cloud(*b.utilization * 8.0);
  CHECK(simulated.plan("own-1").onprem_utilization.value_or(0.0) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(simulated.plan("own-1").npv_usd == doctest::Approx(simulated.plan("cloud").npv_usd).epsilon(1e-9));
}

TEST_CASE("property: at the price-breakeven multiplier the plan and the baseline cost the same") {
  // payback.json at 0 %: the owned node costs 200,000 + 24 x 1,095 = $226,280 whatever the cloud
  // price; renting costs k x 24 x 11,680 = k x $280,320, so k = 226,280 / 280,320 = 0.80722032.
  const ScenarioOutcome o = run_fixture("payback.json");
  const auto k = o.price_breakeven("buy-1").cloud_price_multiplier;
  REQUIRE(k.has_value());
  CHECK(*k == doctest::Approx(226280.0 / 280320.0).epsilon(1e-10));

  // A hybrid plan that still bursts, at 8 %: re-run with every price of the offer scaled by the
  // multiplier the engine found, and the two NPVs meet.
  Json doc = fixture_json("payback.json");
  doc["discount_rate_per_year"] = 0.08;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 14}, {"diurnal_amplitude", 0.4}}}}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "hybrid-1"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  const ScenarioOutcome hybrid = run_scenario_json(doc);
  const auto k_hybrid = hybrid.price_breakeven("hybrid-1").cloud_price_multiplier;
  REQUIRE(k_hybrid.has_value());
  CHECK(*k_hybrid > 0.0);
  doc["cloud"]["offer"] = {{"id", "test/gpu8/region-a"},
                           {"on_demand_usd_per_hour", 16.0 * *k_hybrid},
                           {"spot_usd_per_hour", 8.0 * *k_hybrid},
                           {"reserved_1y_usd_per_hour", 12.0 * *k_hybrid},
                           {"reserved_3y_usd_per_hour", 10.0 * *k_hybrid}};
  const ScenarioOutcome scaled = run_scenario_json(doc);
  CHECK(scaled.plan("hybrid-1").npv_usd == doctest::Approx(scaled.plan("cloud").npv_usd).epsilon(1e-9));
  // Away from it they differ: at the unscaled prices the gap is clearly not 0.
  CHECK(std::abs(hybrid.plan("hybrid-1").npv_usd - hybrid.plan("cloud").npv_usd) > 1000.0);
}
