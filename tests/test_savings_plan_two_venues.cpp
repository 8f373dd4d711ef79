// A savings plan covering two on-demand venues of one provider (issue #24: "a savings plan
// covering two instance types in the documented order"; docs/model.md "Commitments"): the hour's
// commitment reaches the venue of the highest discount first, whatever order the venues are
// listed in. By hand in the hourly model (availability 1, then the expectation over one venue's
// availability), each fluid Monte Carlo path against the stepper with its draws, the
// deterministic run against the Monte Carlo mean, the replay by hand, and a bad-input test per
// new rule.
// Venues (fixture catalog, tests/scenario_builder.hpp): aws-small is test/gpu8/region-a at $16/h
// (8 GPUs), quota 40 GPUs; aws-large the same instance at $20/h. The savings plan's rate is $12
// on both: 25% off aws-small, 40% off aws-large, so aws-large comes first.
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

using tco::test::kEps;

Json aws_small(const Json& extra = Json::object()) {
  Json v = hyperscaler({{"name", "aws-small"}, {"quota_gpus", 40}});
  v.update(extra);
  return v;
}

Json aws_large(const Json& extra = Json::object()) {
  Json v = hyperscaler({{"name", "aws-large"}, {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", 20.0}}}});
  v.update(extra);
  return v;
}

// A savings plan of `usd_per_hour` for `term_months` at $12 on both venues, aws-small listed first.
Json two_venue_savings_plan(double usd_per_hour, int term_months) {
  return {{"kind", "savings_plan"},
          {"name", "sp"},
          {"usd_per_hour", usd_per_hour},
          {"term_months", term_months},
          {"venues", Json::array({{{"venue", "aws-small"}, {"usd_per_instance_hour", 12.0}},
                                  {{"venue", "aws-large"}, {"usd_per_instance_hour", 12.0}}})}};
}

// One month of a steady 100 GPUs; plan "sp" rents aws-small (availability `small_availability`)
// then aws-large, with the savings plan of `usd_per_hour`.
Json steady_doc(double usd_per_hour, double small_availability) {
  const Json venues = Json::array({aws_small({{"availability", small_availability}}), aws_large()});
  return savings_plan_venues_doc(1, 0.0, venues, two_venue_savings_plan(usd_per_hour, 1));
}

}  // namespace

TEST_CASE("savings plan on two venues: the commitment reaches the higher discount first, by hand") {
  // aws-small holds its quota, 5 instances (40 GPUs); aws-large the other 60 GPUs: c(60 / 8) = 8.
  // C = $120/h. aws-large first (1 - 12/20 = 40% off, against 1 - 12/16 = 25%): covered
  // min(8, 120 / 12 = 10) = 8, $96 used, $24 left; aws-small: min(5, 24 / 12) = 2. Bills over
  // 730 h: aws-large (8 - 8) x $20 = $0; aws-small (5 - 2) x $16 x 730 = $35,040; the
  // commitment 120 x 730 = $87,600. Used (8 + 2) x 8 x 730 = 58,400 GPU-hours; committed C / r
  // at the first venue: 10 x 8 x 730 = 58,400.
  // In the written order (aws-small first) it would cover 5 + 5 and bill aws-large 3 x $20 x 730 =
  // $43,800: the documented order saves $8,760 a month here.
  const ScenarioOutcome o = run_scenario_json(steady_doc(120.0, 1.0));
  const PlanResult& r = o.plan("sp");
  CHECK(venue(r, "aws-large").cost_usd == doctest::Approx(0.0).epsilon(kEps));
  CHECK(venue(r, "aws-small").cost_usd == doctest::Approx(35040.0).epsilon(kEps));
  CHECK(r.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(87600.0).epsilon(kEps));
  CHECK(r.total_usd == doctest::Approx(35040.0 + 87600.0).epsilon(kEps));
  REQUIRE(r.commitments.size() == 1);
  CHECK(r.commitments[0].used_gpu_hours == doctest::Approx(58400.0).epsilon(kEps));
  CHECK(r.commitments[0].committed_gpu_hours == doctest::Approx(58400.0).epsilon(kEps));
  CHECK(r.commitments[0].unused_usd == doctest::Approx(0.0).epsilon(kEps));
  // Without the savings plan: 5 x 16 + 8 x 20 = $240 an hour, $175,200.
  CHECK(o.plan("venues").total_usd == doctest::Approx(175200.0).epsilon(kEps));
  // tests/fixtures/scenarios/savings_plan_two_venues.json is this case as a file (the schema and
  // mutation tests read it).
  CHECK(run_scenario_json(fixture_json("savings_plan_two_venues.json")).plan("sp").total_usd == r.total_usd);
}

TEST_CASE("savings plan on two venues: the deterministic cover is its expectation over whole availability combinations") {
  // aws-small available with p 0.5. Available: aws-small 5, aws-large 8; covered 8 (large) then
  // 2 (small), as above. Not: aws-large holds c(100 / 8) = 13, covered min(13, 10) = 10, small 0.
  // E[instances]: small 2.5, large 0.5 x 8 + 0.5 x 13 = 10.5; E[covered]: small 0.5 x 2 = 1,
  // large 0.5 x 8 + 0.5 x 10 = 9. Bills an hour: small (2.5 - 1) x 16 = $24, large
  // (10.5 - 9) x 20 = $30: $17,520 and $21,900 over 730 h. Used (1 + 9) x 8 x 730 = 58,400.
  const ScenarioOutcome o = run_scenario_json(steady_doc(120.0, 0.5));
  const PlanResult& r = o.plan("sp");
  CHECK(venue(r, "aws-small").cost_usd == doctest::Approx(17520.0).epsilon(1e-10));
  CHECK(venue(r, "aws-large").cost_usd == doctest::Approx(21900.0).epsilon(1e-10));
  CHECK(r.commitments[0].used_gpu_hours == doctest::Approx(58400.0).epsilon(1e-10));
  CHECK(r.total_usd == doctest::Approx(17520.0 + 21900.0 + 87600.0).epsilon(1e-10));
}

TEST_CASE("savings plan on two venues: a fluid Monte Carlo path is the stepper with its draws, and the mean is the deterministic run") {
  // Three months of a diurnal 100 GPUs; aws-small drawn per hour (0.6) with a 0.5 h start,
  // aws-large always there (nothing waits, so the deterministic hour is the paths' mean hour)
  // with a 0.25 h start; a savings plan of $90/h over two months on both.
  const Json venues = Json::array({aws_small({{"availability", 0.6}, {"provisioning_delay_h", 0.5}}),
                                   aws_large({{"provisioning_delay_h", 0.25}})});
  const Scenario s =
      savings_plan_paths_scenario(venues, two_venue_savings_plan(90.0, 2), "savings-plan-two-venues.json");
  check_venue_paths(s, 1, /*seed=*/31, /*paths=*/48);
}

TEST_CASE("savings plan on two venues: in the replay, the commitment covers the higher discount's runs first") {
  // aws-small's quota is one 8-GPU instance. Two 8-GPU jobs of 10 h at hour 0: the first runs on
  // aws-small (10 h x $16 = $160), the second on aws-large (10 h x $20 = $200). C = $18/h: each of
  // hours 0..9 covers aws-large's 1 instance-hour first ($12, $20 off), then 6 / 12 = 0.5 of
  // aws-small's ($8 off). aws-large bills $0, aws-small $160 - $80 = $80; used (1 + 0.5) x 10 x 8
  // = 120 GPU-hours.
  Json doc = des_scenario_json({{"steady", {{"gpus", 8}, {"gpus_per_job", 8}, {"job_duration_h", 10}}}});
  doc["plans"] = Json::array({{{"name", "sp-venues"},
                               {"kind", "cloud"},
                               {"venues", Json::array({aws_small({{"quota_gpus", 8}}), aws_large()})},
                               {"commitments", Json::array({two_venue_savings_plan(18.0, 12)})}}});
  doc["baseline"] = "sp-venues";
  const des::PathOutcome o = replay_first_plan(doc, {job_at(0.0, 8, 10.0), job_at(0.0, 8, 10.0)});
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(80.0).epsilon(kEps));
  REQUIRE(o.venue_totals.size() == 2);
  CHECK(o.venue_totals[0].cost_usd == doctest::Approx(80.0).epsilon(kEps));
  CHECK(o.venue_totals[1].cost_usd == doctest::Approx(0.0).epsilon(kEps));
  REQUIRE(o.commitment_used_gpu_hours.size() == 1);
  CHECK(o.commitment_used_gpu_hours[0] == doctest::Approx(120.0).epsilon(kEps));
}

TEST_CASE("savings plan on two venues: the resolved scenario lists the venues in the order the commitment reaches them") {
  const Scenario s = load_scenario_json(steady_doc(120.0, 1.0), "sp-two.json", source_path("tests"));
  const Commitment& c = s.plans[1].commitments[0];
  REQUIRE(c.venue_rates.size() == 2);
  CHECK(c.venue_rates[0].venue == "aws-large");
  CHECK(c.venue_rates[1].venue == "aws-small");
  CHECK(c.venue == "aws-large");
  CHECK(c.usd_per_instance_hour == 12.0);
  const Json echoed = to_json(c);
  CHECK(echoed["venues"][0]["venue"] == "aws-large");
  CHECK_FALSE(echoed.contains("usd_per_instance_hour"));
}

TEST_CASE("bad input: a savings plan's venue list, exit 2 naming the JSON pointer") {
  check_each_refused(
      "savings-plan-two-venues-bad-", steady_doc(120.0, 1.0),
      {{"venue-and-venues", [](Json& d) { d["plans"][1]["commitments"][0]["venue"] = "aws-small"; },
        "/plans/1/commitments/0/venue", "either \"venues\" (each with its rate) or \"venue\""},
       {"rate-and-venues", [](Json& d) { d["plans"][1]["commitments"][0]["usd_per_instance_hour"] = 12.0; },
        "/plans/1/commitments/0/usd_per_instance_hour", "either \"venues\""},
       {"empty-list", [](Json& d) { d["plans"][1]["commitments"][0]["venues"] = Json::array(); },
        "/plans/1/commitments/0/venues", "a non-empty list"},
       {"twice", [](Json& d) { d["plans"][1]["commitments"][0]["venues"][1]["venue"] = "aws-small"; },
        "/plans/1/commitments/0/venues/1/venue", "listed twice"},
       {"unknown", [](Json& d) { d["plans"][1]["commitments"][0]["venues"][1]["venue"] = "aws-largr"; },
        "/plans/1/commitments/0/venues/1/venue", "found \"aws-largr\""},
       {"spot", [](Json& d) { d["plans"][1]["venues"][1]["price"] = "spot"; }, "/plans/1/commitments/0/venues/1/venue",
        "(a spot venue)"},
       {"no-rate", [](Json& d) { d["plans"][1]["commitments"][0]["venues"][0].erase("usd_per_instance_hour"); },
        "/plans/1/commitments/0/venues/0", "usd_per_instance_hour"},
       {"rate-above", [](Json& d) { d["plans"][1]["commitments"][0]["venues"][0]["usd_per_instance_hour"] = 16.5; },
        "/plans/1/commitments/0/venues/0/usd_per_instance_hour", "at or below the venue's on-demand 16 USD/h"},
       {"unknown-key", [](Json& d) { d["plans"][1]["commitments"][0]["venues"][0]["discount"] = 0.25; },
        "/plans/1/commitments/0/venues/0/discount", ""},
       {"without-venues", [](Json& d) { d["plans"][1].erase("venues"); }, "/plans/1/commitments/0/venues",
        "no \"venues\" in a plan without \"venues\""}});
}

}  // namespace tco::test
