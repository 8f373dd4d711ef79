// Commitments beside a venue list (issue #24; docs/model.md §3b and §4, docs/des.md
// "Commitments"): the overflow goes to owned nodes, reserved instances, the commitments' GPUs
// (take-or-pay contracts, capacity blocks), then down the venues. By hand in the hourly model and
// the replay, and on the fluid Monte Carlo's paths against the stepper. A savings plan beside
// venues: tests/test_savings_plan_with_venues.cpp.
// Fixture catalog (tests/scenario_builder.hpp): test/gpu8/region-a, 8 GPUs at $16/h on-demand; the
// "neocloud" is the same record at $10/h.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "venue_support.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/workload/workload.hpp"
#include "test_sweep_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

using tco::test::kEps;

// A take-or-pay contract of 16 GPUs at $1.50 a GPU-hour over the first month.
Json contract() {
  return {{"kind", "take_or_pay"}, {"name", "contract"}, {"gpus", 16}, {"usd_per_gpu_hour", 1.5}, {"term_months", 1}};
}


}  // namespace

TEST_CASE("commitments beside venues: the contract's GPUs first, then the venues, by hand") {
  // One month of a steady 100 GPUs. The contract takes 16 GPUs; the neocloud (quota 64 GPUs)
  // 64: 8 instances x $10 x 730 h = $58,400; the hyperscaler the other 20: c(20 / 8) = 3
  // instances x $16 x 730 = $35,040. The contract: 16 x 730 x $1.50 = $17,520.
  Json doc = base_scenario_json();
  doc["horizon_months"] = 1;
  doc["workload"] = {{"profiles", Json::array({{{"type", "steady"}, {"gpus", 100}}})}};
  const Json venues = Json::array({neocloud({{"quota_gpus", 64}}), hyperscaler()});
  doc["plans"] = Json::array({{{"name", "venues"}, {"kind", "cloud"}, {"venues", venues}},
                              {{"name", "contract-venues"},
                               {"kind", "cloud"},
                               {"venues", venues},
                               {"commitments", Json::array({contract()})}}});
  doc["baseline"] = "venues";
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& r = o.plan("contract-venues");
  CHECK(venue(r, "neocloud").work_gpu_hours == 64.0 * 730.0);
  CHECK(venue(r, "neocloud").cost_usd == doctest::Approx(58400.0).epsilon(kEps));
  CHECK(venue(r, "hyperscaler").work_gpu_hours == doctest::Approx(20.0 * 730.0).epsilon(kEps));
  CHECK(venue(r, "hyperscaler").cost_usd == doctest::Approx(35040.0).epsilon(kEps));
  CHECK(r.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(17520.0).epsilon(kEps));
  CHECK(r.total_usd == doctest::Approx(58400.0 + 35040.0 + 17520.0).epsilon(kEps));
  REQUIRE(r.commitments.size() == 1);
  CHECK(r.commitments[0].committed_gpu_hours == 16.0 * 730.0);
  CHECK(r.commitments[0].used_gpu_hours == 16.0 * 730.0);
  // Without the contract the hyperscaler takes 36 GPUs: 5 instances x $16 x 730 = $58,400.
  CHECK(venue(o.plan("venues"), "hyperscaler").cost_usd == doctest::Approx(58400.0).epsilon(kEps));
}

TEST_CASE("commitments beside venues: a fluid Monte Carlo path is the stepper with that path's draws") {
  // Three months of a diurnal 100 GPUs, venues drawn per hour (availability 0.6 and 0.9), a
  // contract of 16 GPUs in month 1 and a 7-day block of 2 instances from day 40: path p of the
  // sweep kernel must be evaluate_plan with venue draws (seed, p).
  Json doc = base_scenario_json();
  doc["horizon_months"] = 3;
  doc["waiting_usd_per_gpu_hour"] = 2.0;
  doc["workload"] = {{"profiles", Json::array({{{"type", "steady"}, {"gpus", 100}, {"diurnal_amplitude", 0.4}}})}};
  const Json venues = Json::array({neocloud({{"quota_gpus", 64}, {"availability", 0.6}}),
                                   hyperscaler({{"quota_gpus", 96}, {"availability", 0.9}})});
  const Json block = {{"kind", "capacity_block"}, {"name", "block"}, {"start_day", 40}, {"days", 7},
                      {"instances", 2},         {"usd_per_instance_hour", 9.0}};
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}, {"venues", venues},
                               {"commitments", Json::array({contract(), block})}},
                              {{"name", "own-4"}, {"kind", "hybrid"}, {"onprem_nodes", 4}, {"venues", venues},
                               {"commitments", Json::array({block})}}});
  doc["baseline"] = "cloud";
  const Scenario s = load_scenario_json(doc, "commitments-venues.json", source_path("tests"));
  constexpr std::uint64_t kSeed = 47;
  // Two paths under the sanitizers (153 s of their ctest with four on a loaded machine).
  constexpr long kPaths = kUnderSanitizers ? 2 : 4;
  const OnePointRun run = run_one_point(s, kSeed, kPaths, 2);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  for (int j = 0; j < 2; ++j)
    for (long p = 0; p < kPaths; ++p) {
      EvaluationOptions options;
      options.venue_draws = VenueDrawKey{kSeed, static_cast<std::uint32_t>(p)};
      const PlanResult drawn = evaluate_plan(s, s.plans[j], demand, options);
      INFO("plan " << s.plans[j].name << " path " << p);
      CHECK(run.npv(j, p) == doctest::Approx(drawn.npv_usd).epsilon(1e-11));
      CHECK(run.total(j, p) == doctest::Approx(drawn.total_usd).epsilon(1e-11));
      REQUIRE(drawn.commitments.size() == s.plans[j].commitments.size());
      CHECK(drawn.commitments.back().used_gpu_hours > 0.0);  // the block ran work on every path
    }
}

TEST_CASE("commitments beside venues: in the replay, the block first, then the venues") {
  // A block of 4 instances (32 GPUs) over hours [720, 1,056). A 32-GPU job of 100 h at hour 720
  // runs on it with no bill; an 8-GPU job of 10 h at hour 720 finds it full and goes to the
  // neocloud: 10 h x $10 = $100.
  Json doc = des_scenario_json({{"steady", {{"gpus", 8}, {"gpus_per_job", 8}, {"job_duration_h", 10}}}});
  doc["plans"] = Json::array({{{"name", "block-venues"},
                               {"kind", "cloud"},
                               {"venues", Json::array({neocloud({{"quota_gpus", 8}}), hyperscaler()})},
                               {"commitments",
                                {{{"kind", "capacity_block"},
                                  {"name", "q1"},
                                  {"start_day", 30},
                                  {"days", 14},
                                  {"instances", 4},
                                  {"usd_per_instance_hour", 10.0}}}}}});
  doc["baseline"] = "block-venues";
  const des::PathOutcome o = replay_first_plan(doc, {job_at(720.0, 32, 100.0), job_at(720.0, 8, 10.0)});
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(100.0).epsilon(kEps));
  CHECK(o.gpu_hours.reserved_used == doctest::Approx(3200.0).epsilon(kEps));
  CHECK(o.jobs.completed_reserved == 1);
  CHECK(o.jobs.completed_on_demand == 1);
  REQUIRE(o.commitment_used_gpu_hours.size() == 1);
  CHECK(o.commitment_used_gpu_hours[0] == doctest::Approx(3200.0).epsilon(kEps));
}

}  // namespace tco::test
