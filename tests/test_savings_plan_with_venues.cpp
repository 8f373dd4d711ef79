// A savings plan beside a venue list (issue #24; docs/model.md §3b and "Commitments", docs/des.md
// "Commitments"): it names the on-demand venue whose usage it covers. By hand in the hourly model
// (its cover, its unused dollars, the expectation over the venues' availability taken branch by
// branch), each fluid Monte Carlo path against the stepper with that path's draws, the
// deterministic run against the Monte Carlo mean, the replay by hand, and a bad-input test per
// new rule.
// Fixture catalog (tests/scenario_builder.hpp): test/gpu8/region-a, 8 GPUs at $16/h on-demand; the
// "neocloud" is the same record at $10/h (tests/venue_support.hpp).
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "des_support.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/workload/workload.hpp"
#include "venue_paths_support.hpp"
#include "venue_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

// A savings plan of `usd_per_hour` over the whole horizon at $12 an instance-hour (the
// hyperscaler's on-demand price is $16), covering the hyperscaler.
Json savings_plan(double usd_per_hour, int term_months) {
  return {{"kind", "savings_plan"}, {"name", "sp"},           {"usd_per_hour", usd_per_hour},
          {"usd_per_instance_hour", 12.0}, {"term_months", term_months}, {"venue", "hyperscaler"}};
}

// One month of a steady 100 GPUs; plan "sp" rents from the neocloud (quota 64 GPUs, availability
// `neocloud_availability`) then the hyperscaler, with a savings plan of `usd_per_hour`.
Json steady_neocloud_doc(double usd_per_hour, double neocloud_availability) {
  const Json venues =
      Json::array({neocloud({{"quota_gpus", 64}, {"availability", neocloud_availability}}), hyperscaler()});
  return savings_plan_venues_doc(1, 0.0, venues, savings_plan(usd_per_hour, 1));
}

}  // namespace

TEST_CASE("savings plan beside venues: it covers its venue's usage, by hand") {
  // The neocloud takes 64 GPUs (8 instances x $10 x 730 h = $58,400), the hyperscaler the other 36:
  // c(36 / 8) = 5 instances. C = $30/h at $12 covers 30 / 12 = 2.5 of them: the hyperscaler bills
  // (5 - 2.5) x $16 x 730 = $29,200; the commitment 30 x 730 = $21,900.
  const ScenarioOutcome o = run_scenario_json(steady_neocloud_doc(30.0, 1.0));
  const PlanResult& r = o.plan("sp");
  CHECK(venue(r, "neocloud").cost_usd == doctest::Approx(58400.0).epsilon(kEps));
  CHECK(venue(r, "hyperscaler").cost_usd == doctest::Approx(29200.0).epsilon(kEps));
  CHECK(venue(r, "hyperscaler").billed_gpu_hours == doctest::Approx(5.0 * 8.0 * 730.0).epsilon(kEps));
  CHECK(r.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(21900.0).epsilon(kEps));
  CHECK(r.total_usd == doctest::Approx(58400.0 + 29200.0 + 21900.0).epsilon(kEps));
  // Committed and used alike: 2.5 instance-hours x 8 GPUs x 730 h = 14,600 GPU-hours.
  REQUIRE(r.commitments.size() == 1);
  CHECK(r.commitments[0].committed_gpu_hours == doctest::Approx(14600.0).epsilon(kEps));
  CHECK(r.commitments[0].used_gpu_hours == doctest::Approx(14600.0).epsilon(kEps));
  // Without it the hyperscaler bills 5 x $16 x 730 = $58,400.
  CHECK(venue(o.plan("venues"), "hyperscaler").cost_usd == doctest::Approx(58400.0).epsilon(kEps));
  // tests/fixtures/scenarios/savings_plan_venues.json is this case as a file (the schema and
  // mutation tests read it): the same plan, the same bill.
  const ScenarioOutcome fixture = run_scenario_json(fixture_json("savings_plan_venues.json"));
  CHECK(fixture.plan("sp").total_usd == r.total_usd);

  // C = $72/h buys 6 instance-hours an hour and 5 are there: the hyperscaler bills nothing;
  // committed 6 x 8 x 730 = 35,040, used 29,200, unused 5,840 GPU-hours = 72 x 730 / 6 = $8,760.
  const ScenarioOutcome larger = run_scenario_json(steady_neocloud_doc(72.0, 1.0));
  const PlanResult& big = larger.plan("sp");
  CHECK(venue(big, "hyperscaler").cost_usd == doctest::Approx(0.0).epsilon(kEps));
  CHECK(big.commitments[0].committed_gpu_hours == doctest::Approx(35040.0).epsilon(kEps));
  CHECK(big.commitments[0].used_gpu_hours == doctest::Approx(29200.0).epsilon(kEps));
  CHECK(big.commitments[0].unused_usd == doctest::Approx(8760.0).epsilon(kEps));
}

TEST_CASE("savings plan beside venues: the deterministic cover is its expectation over the venues' availability") {
  // Neocloud availability 0.9. Available (p 0.9): it serves 64 GPUs, the hyperscaler holds 5
  // instances, C = $72/h covers min(5, 6) = 5. Not (p 0.1): the hyperscaler holds 13, covered 6.
  // E[cover] = 0.9 x 5 + 0.1 x 6 = 5.1 instance-hours (not min(E[5.8], 6) = 5.8). The hyperscaler
  // bills (5.8 - 5.1) x $16 = $11.20 an hour: $8,176 over 730 h; the neocloud 0.9 x 8 x $10 x 730 =
  // $52,560; the commitment $52,560.
  const ScenarioOutcome o = run_scenario_json(steady_neocloud_doc(72.0, 0.9));
  const PlanResult& r = o.plan("sp");
  CHECK(venue(r, "hyperscaler").cost_usd == doctest::Approx(8176.0).epsilon(1e-10));
  CHECK(venue(r, "neocloud").cost_usd == doctest::Approx(52560.0).epsilon(1e-10));
  CHECK(r.commitments[0].used_gpu_hours == doctest::Approx(5.1 * 8.0 * 730.0).epsilon(1e-10));
  CHECK(r.total_usd == doctest::Approx(8176.0 + 52560.0 + 52560.0).epsilon(1e-10));
}

TEST_CASE("savings plan beside venues: a fluid Monte Carlo path is the stepper with its draws, and the mean is the deterministic run") {
  // Three months of a diurnal 100 GPUs; the neocloud drawn per hour (0.6), the hyperscaler always
  // there (so nothing waits and the deterministic hour is the paths' mean hour) with a 0.25 h start,
  // and a savings plan of $40/h over two months on the hyperscaler.
  const Json venues = Json::array({neocloud({{"quota_gpus", 64}, {"availability", 0.6}}),
                                   hyperscaler({{"provisioning_delay_h", 0.25}})});
  const Scenario s = savings_plan_paths_scenario(venues, savings_plan(40.0, 2), "savings-plan-venues.json");
  check_venue_paths(s, 1, /*seed=*/29, /*paths=*/48);
}

TEST_CASE("savings plan beside venues: in the replay, it covers the named venue's on-demand runs") {
  // The neocloud's quota is one 8-GPU instance. Two 8-GPU jobs of 10 h at hour 0: the first runs
  // at the neocloud (10 h x $10 = $100), the second at the hyperscaler (10 h x $16 = $160). C = $6/h
  // at $12 covers 0.5 instance-hours of each of hours 0..9: 5 instance-hours, $80 off the
  // hyperscaler's bill; 5 x 8 = 40 GPU-hours used.
  Json doc = des_scenario_json({{"steady", {{"gpus", 8}, {"gpus_per_job", 8}, {"job_duration_h", 10}}}});
  doc["plans"] = Json::array({{{"name", "sp-venues"},
                               {"kind", "cloud"},
                               {"venues", Json::array({neocloud({{"quota_gpus", 8}}), hyperscaler()})},
                               {"commitments", Json::array({savings_plan(6.0, 12)})}}});
  doc["baseline"] = "sp-venues";
  const des::PathOutcome o = replay_first_plan(doc, {job_at(0.0, 8, 10.0), job_at(0.0, 8, 10.0)});
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(100.0 + 80.0).epsilon(kEps));
  REQUIRE(o.venue_totals.size() == 2);
  CHECK(o.venue_totals[0].cost_usd == doctest::Approx(100.0).epsilon(kEps));
  CHECK(o.venue_totals[1].cost_usd == doctest::Approx(80.0).epsilon(kEps));
  CHECK(o.venue_totals[1].billed_gpu_hours == doctest::Approx(80.0).epsilon(kEps));
  REQUIRE(o.commitment_used_gpu_hours.size() == 1);
  CHECK(o.commitment_used_gpu_hours[0] == doctest::Approx(40.0).epsilon(kEps));
}

TEST_CASE("bad input: a savings plan beside venues names an on-demand venue it may cover, exit 2 naming the JSON pointer") {
  check_each_refused(
      "savings-plan-venue-bad-", steady_neocloud_doc(30.0, 1.0),
      {{"no-venue", [](Json& d) { d["plans"][1]["commitments"][0].erase("venue"); }, "/plans/1/commitments/0",
        "names the on-demand venue whose usage it covers (\"venue\": one of \"neocloud\", \"hyperscaler\"), found none"},
       {"unknown-venue", [](Json& d) { d["plans"][1]["commitments"][0]["venue"] = "hyperscalr"; },
        "/plans/1/commitments/0/venue", "found \"hyperscalr\""},
       {"spot-venue", [](Json& d) { d["plans"][1]["venues"][1]["price"] = "spot"; }, "/plans/1/commitments/0/venue",
        "(a spot venue)"},
       {"rate-above-venue", [](Json& d) { d["plans"][1]["commitments"][0]["usd_per_instance_hour"] = 17.0; },
        "/plans/1/commitments/0/usd_per_instance_hour", "at or below the venue's on-demand 16 USD/h"},
       {"venue-without-venues", [](Json& d) { d["plans"][1].erase("venues"); }, "/plans/1/commitments/0/venue",
        "no \"venue\" in a plan without \"venues\""}});
}

}  // namespace tco::test
