// A plan's token figures (models/serving/token_figures.hpp, engine/ledger/plan_tokens.hpp;
// docs/tokens.md §6): $ per million tokens on the reservation and usage bases, blended and per
// input and output token, tokens served first in first out, tokens per facility MWh, replicas at
// peak; on tests/fixtures/scenarios/tokens.json by hand, and as properties over generated scenarios.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "engine/ledger/plan_tokens.hpp"
#include "models/serving/token_cost.hpp"
#include "models/serving/token_figures.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

// tests/fixtures/scenarios/tokens.json: 100 requests/s of 2,000 + 400 tokens = 864e6 tokens an
// hour (720e6 input, 144e6 output), 164 replicas of 8 = 1,312 GPUs every hour; 8,760 hours.
Json token_scenario() {
  Json s = read_json_file(source_path("tests/fixtures/scenarios/tokens.json"));
  s["catalog_dir"] = fixture_catalog_dir();
  return s;
}

const PlanTokens& tokens_of(const ScenarioOutcome& o, const std::string& plan) {
  for (std::size_t i = 0; i < o.run.plans.size(); ++i)
    if (o.run.plans[i].name == plan) return o.run.tokens.at(i);
  FAIL("no plan " << plan);
  return o.run.tokens.front();
}

constexpr double kTokensPerHour = 864e6;
constexpr double kHours = 8760.0;

}  // namespace

TEST_CASE("token figures: the cost splits between input and output tokens by count, an output token weighing w") {
  // $1,000 over 3e8 input + 1e8 output tokens: blended 1000 / 4e8 x 1e6 = $2.50 a million.
  const PlanTokenFigures even = plan_token_figures(1000.0, 600.0, {4e8, 4e8, 3e8});
  REQUIRE(even.reservation);
  CHECK(even.reservation->blended == doctest::Approx(2.5).epsilon(1e-12));
  CHECK(even.reservation->input == doctest::Approx(2.5).epsilon(1e-12));
  CHECK(even.reservation->output == doctest::Approx(2.5).epsilon(1e-12));
  CHECK(even.usage->blended == doctest::Approx(1.5).epsilon(1e-12));  // 600 / 4e8 x 1e6
  CHECK(even.output_tokens_served == 1e8);
  // w = 4: 1000 / (3e8 + 4 x 1e8) x 1e6 = 1.428571... input, x 4 = 5.714285... output; the two
  // parts add back to the cost: 3e8 x 1.4286e-6 + 1e8 x 5.7143e-6 = 428.57 + 571.43 = 1,000.
  const PlanTokenFigures weighted = plan_token_figures(1000.0, 600.0, {4e8, 4e8, 3e8}, 4.0);
  CHECK(weighted.reservation->input == doctest::Approx(1000.0 / 7e8 * 1e6).epsilon(1e-12));
  CHECK(weighted.reservation->output == doctest::Approx(4000.0 / 7e8 * 1e6).epsilon(1e-12));
  CHECK(3e8 * weighted.reservation->input / 1e6 + 1e8 * weighted.reservation->output / 1e6 ==
        doctest::Approx(1000.0).epsilon(1e-12));
  CHECK(weighted.reservation->blended == doctest::Approx(2.5).epsilon(1e-12));
  // Nothing served: no price.
  const PlanTokenFigures none = plan_token_figures(1000.0, 0.0, {4e8, 0.0, 0.0});
  CHECK(!none.reservation);
  CHECK(none.tokens_unserved == 4e8);
}

TEST_CASE("token figures: the GPU-hours waiting at the end are the last hours' demand, first in first out") {
  // Demand 10, 10, 10 GPUs of 1e6, 1e6, 2e6 tokens, 15 GPU-hours unserved: hour 2 wholly (2e6
  // tokens), hour 1 half (5e5): 1e6 + 5e5 = 1.5e6 of 4e6 served.
  CHECK(served_tokens({1e6, 1e6, 2e6}, {10, 10, 10}, 15.0) == doctest::Approx(1.5e6).epsilon(1e-12));
  CHECK(served_tokens({1e6, 1e6, 2e6}, {10, 10, 10}, 0.0) == 4e6);
  // An hour without demand carries no tokens and takes no waiting work: 0 + 2e6 x (1 - 5/10).
  CHECK(served_tokens({0.0, 2e6}, {0.0, 10.0}, 5.0) == doctest::Approx(1e6).epsilon(1e-12));
}

TEST_CASE("token figures on the fixture: renting, owning enough, owning too little, reserving too much") {
  Json doc = token_scenario();
  doc["plans"].push_back({{"name", "own-100"}, {"kind", "onprem"}, {"onprem_nodes", 100}});
  doc["plans"].push_back({{"name", "buy-200"}, {"kind", "hybrid"}, {"onprem_nodes", 200}});
  doc["plans"].push_back({{"name", "reserve-200"}, {"kind", "cloud"}, {"reserved_instances", 200}});
  const ScenarioOutcome o = run_scenario_json(doc);
  REQUIRE(o.run.tokens.size() == o.run.plans.size());
  const double demanded = kTokensPerHour * kHours;  // 864e6 x 8,760 = 7.56864e12

  // cloud: 164 instances x $16 an hour, every hour: $/M = 164 x 16 x 8,760 / (864e6 x 8,760) x 1e6
  // = 2,624 / 864 = $3.037037... a million tokens, input and output alike (w = 1).
  const PlanTokens& cloud = tokens_of(o, "cloud");
  CHECK(cloud.figures.tokens_demanded == doctest::Approx(demanded).epsilon(1e-12));
  CHECK(cloud.figures.tokens_served == doctest::Approx(demanded).epsilon(1e-12));
  CHECK(cloud.figures.input_tokens_served == doctest::Approx(720e6 * kHours).epsilon(1e-12));
  REQUIRE(cloud.figures.reservation);
  CHECK(cloud.figures.reservation->blended == doctest::Approx(2624.0 / 864.0).epsilon(1e-12));
  CHECK(cloud.figures.reservation->output == doctest::Approx(2624.0 / 864.0).epsilon(1e-12));
  // On-demand instances are all busy: the usage basis is the reservation basis.
  CHECK(cloud.figures.usage->blended == doctest::Approx(2624.0 / 864.0).epsilon(1e-12));
  CHECK(!cloud.tokens_per_facility_mwh);
  // The peak hour's 864e6 tokens / 5.28e6 a replica-hour = 163.6 -> 164 replicas of 8 GPUs.
  CHECK(cloud.replicas_at_peak == 164.0);
  CHECK(cloud.gpus_per_replica == 8);

  // buy-164: 1,312 owned GPUs, all busy every hour (utilization 1): usage = reservation; each
  // node at its 10 kW peak x PUE 1.5 = 15 kW, 164 x 15 = 2,460 kW of facility power:
  // 864e6 tokens an hour / 2.46 MWh = 351,219,512.2 tokens per MWh; 864e6 / 3,600 s = 240,000
  // tokens/s over 2.46 MW = 97,560.98 tokens/s per MW.
  const PlanTokens& buy = tokens_of(o, "buy-164");
  CHECK(buy.figures.tokens_served == doctest::Approx(demanded).epsilon(1e-12));
  CHECK(buy.figures.usage->blended == doctest::Approx(buy.figures.reservation->blended).epsilon(1e-12));
  REQUIRE(buy.tokens_per_facility_mwh);
  CHECK(*buy.tokens_per_facility_mwh == doctest::Approx(864e6 / 2.46).epsilon(1e-12));
  CHECK(*buy.tokens_per_s_per_peak_facility_mw == doctest::Approx(240000.0 / 2.46).epsilon(1e-12));

  // own-100: 800 GPUs for 1,312 of demand, no bursting: 512 GPU-hours a hour wait, 512 x 8,760
  // unserved at the end = the last 512 x 8,760 / 1,312 = 3,418.5 hours' demand: served =
  // demanded x (8,760 - 3,418.5) / 8,760 = demanded x 800 / 1,312.
  const PlanTokens& short_fleet = tokens_of(o, "own-100");
  CHECK(short_fleet.figures.tokens_served == doctest::Approx(demanded * 800.0 / 1312.0).epsilon(1e-9));
  CHECK(short_fleet.figures.tokens_unserved == doctest::Approx(demanded * 512.0 / 1312.0).epsilon(1e-9));

  // buy-200: 1,600 owned GPUs, 1,312 busy: utilization 0.82, every cost is owned, so the busy
  // cost is 0.82 of the whole and the usage basis 0.82 x the reservation basis.
  const PlanTokens& big = tokens_of(o, "buy-200");
  CHECK(big.figures.usage->blended == doctest::Approx(0.82 * big.figures.reservation->blended).epsilon(1e-12));
  // reserve-200: 1,600 reserved GPUs paid, 1,312 used: the same 0.82.
  const PlanTokens& reserved = tokens_of(o, "reserve-200");
  CHECK(reserved.figures.usage->blended ==
        doctest::Approx(0.82 * reserved.figures.reservation->blended).epsilon(1e-12));
}

TEST_CASE("token figures: an owned fleet's resale and tax shield are idle in the same share as its costs") {
  // buy-400: 3,200 owned GPUs for 1,312 of demand, every hour: utilization 1,312 / 3,200 = 0.41.
  // With the nodes resold after the year (a credit, category residual) every cost and credit is
  // the fleet's, so its busy cost is 0.41 of its whole net cost and the usage basis 0.41 x the
  // reservation basis. (With the credit left out of the fleet's cost, the idle share of the capex
  // alone came to more than the plan's whole cost: a usage basis below 0, as an oversized
  // fleet of llm-serving-latency-under-load read -$0.70 per million.)
  Json doc = token_scenario();
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["plans"].push_back({{"name", "buy-400"}, {"kind", "onprem"}, {"onprem_nodes", 400}});
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& plan = o.run.plans.back();
  REQUIRE(plan.ledger.category_total_usd(Category::residual) < 0.0);
  REQUIRE(plan.onprem_utilization.has_value());
  CHECK(*plan.onprem_utilization == doctest::Approx(1312.0 / 3200.0).epsilon(1e-12));
  const PlanTokens& big = tokens_of(o, "buy-400");
  REQUIRE(big.figures.usage);
  CHECK(big.figures.usage->blended > 0.0);
  CHECK(big.figures.usage->blended == doctest::Approx(0.41 * big.figures.reservation->blended).epsilon(1e-12));
}

TEST_CASE("plan serving profile: a plan whose GPUs serve twice as fast needs half the GPUs") {
  Json doc = token_scenario();
  // The scenario's profile at 30 tokens/s per user: 183.33 tokens/s per GPU. The plan's own
  // profile measures twice the throughput at the same latencies: 366.67, perf 2 (2 reference GPUs
  // of work per GPU-hour). 1,312 reference GPUs of demand need 656 GPUs = 82 instances of 8 at
  // $16: $/M = 82 x 16 / 864 = $1.5185; its own replicas at peak: 864e6 / (3,600 x 366.67 x 8) =
  // 81.8 -> 82.
  Json fast = doc["workload"]["tokens"]["serving_profile"];
  fast["points"][0]["tokens_per_s_per_gpu"] = 300;
  fast["points"][1]["tokens_per_s_per_gpu"] = 400;
  fast["source"] = "hand-made: twice the scenario's throughput";
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}},
                  {{"name", "cloud-fast"}, {"kind", "cloud"}, {"serving_profile", fast}}};
  const ScenarioOutcome o = run_scenario_json(doc);
  CHECK(o.scenario.plans[1].cloud->gpu.perf_relative == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(o.run.plans[1].gpu_hours.on_demand_billed == doctest::Approx(656.0 * kHours).epsilon(1e-12));
  const PlanTokens& t = tokens_of(o, "cloud-fast");
  CHECK(t.figures.reservation->blended == doctest::Approx(82.0 * 16.0 / 864.0).epsilon(1e-12));
  CHECK(t.replicas_at_peak == 82.0);
  CHECK(tokens_of(o, "cloud").replicas_at_peak == 164.0);
  CHECK(o.scenario.plans[1].resolved.at("cloud").at("gpu").at("perf_relative").get<double>() == 2.0);

  // A profile that cannot meet the target, and a profile without a token workload: exit 2 at the plan.
  Json slow = doc;
  slow["plans"][1]["serving_profile"]["points"][0]["median_tpot_ms"] = 50;  // 20 tokens/s per user
  slow["plans"][1]["serving_profile"]["points"][1]["median_tpot_ms"] = 60;
  CHECK_THROWS_WITH_AS(run_scenario_json(slow), doctest::Contains("/plans/1/serving_profile"), InputError);
  Json gpus = base_scenario_json();
  gpus["plans"][0]["serving_profile"] = fast;
  CHECK_THROWS_WITH_AS(run_scenario_json(gpus), doctest::Contains("workload has tokens"), InputError);
}

TEST_CASE("token figures property: served x $/M = the plan's cost, and the reservation basis >= the usage basis") {
  std::uint64_t state = 4646;
  auto next = [&state] {  // splitmix64 -> [0, 1)
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  };
  int checked = 0;
  for (int trial = 0; trial < 12; ++trial) {
    Json doc = token_scenario();
    doc["horizon_months"] = 3;
    doc["waiting_usd_per_gpu_hour"] = next() < 0.5 ? 0.0 : 2.0 * next();
    Json& rate = doc["workload"]["tokens"]["requests_per_second"]["profiles"][0];
    rate["requests_per_second"] = 5.0 + 200.0 * next();
    rate["diurnal_amplitude"] = 0.8 * next();
    doc["workload"]["tokens"]["output_token_cost_weight"] = 0.5 + 5.0 * next();
    doc["onprem"]["residual"] = {{"enabled", next() < 0.5}};
    doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}, {"spot_share", 0.5 * next()}},
                    {{"name", "hybrid"}, {"kind", "hybrid"}, {"onprem_nodes", static_cast<int>(400 * next())}},
                    {{"name", "onprem"}, {"kind", "onprem"}, {"onprem_nodes", 1 + static_cast<int>(400 * next())}},
                    {{"name", "reserved"}, {"kind", "cloud"}, {"reserved_instances", static_cast<int>(400 * next())}}};
    const ScenarioOutcome o = run_scenario_json(doc);
    for (std::size_t i = 0; i < o.run.plans.size(); ++i) {
      const PlanTokenFigures& f = o.run.tokens.at(i).figures;
      CAPTURE(trial);
      CAPTURE(o.run.plans[i].name);
      REQUIRE(f.reservation);
      CHECK(f.tokens_served * f.reservation->blended / 1e6 == doctest::Approx(o.run.plans[i].total_usd).epsilon(1e-9));
      CHECK(f.input_tokens_served * f.reservation->input / 1e6 + f.output_tokens_served * f.reservation->output / 1e6 ==
            doctest::Approx(o.run.plans[i].total_usd).epsilon(1e-9));
      CHECK(f.reservation->blended >= f.usage->blended);
      CHECK(f.tokens_served <= f.tokens_demanded * (1.0 + 1e-12));
      ++checked;
    }
  }
  CHECK(checked == 48);
}

}  // namespace tco::test
