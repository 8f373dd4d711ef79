// The shipped discrete-event scenarios load and run (a few paths each) and say what they are
// meant to show. The openb and Can't Be Late scenarios read ../shared/data in place and are
// skipped, with a message, where it is absent.
#include <doctest/doctest.h>

#include "des_support.hpp"

namespace tco {

namespace {

MonteCarloRun run_shipped(const std::string& name, long paths) {
  const Scenario s = load_scenario(test::source_path("scenarios/" + name));
  MonteCarloOptions o;
  o.paths = paths;
  o.threads = 2;
  return run_monte_carlo(s, o);
}

const McComparisonStats& comparison(const MonteCarloRun& mc, const std::string& plan) {
  for (const auto& c : mc.comparisons)
    if (c.plan == plan) return c;
  FAIL("no comparison for " << plan);
  return mc.comparisons.front();
}

}  // namespace

TEST_CASE("shipped scenario openb-h100-hybrid: the openb trace tiled over 3 years, every job served") {
  TCO_REQUIRE_SHARED_DATA();
  const MonteCarloRun mc = run_shipped("openb-h100-hybrid.json", 2);
  // 6,203 GPU pods per 154-day tile (22 weeks), ~7.1 tiles in 36 months, +10%/yr growth.
  CHECK(mc.jobs_per_path > 6203 * 7);
  CHECK(mc.jobs_per_path < 6203 * 9);
  for (const auto& p : mc.plans) {
    CHECK(test::job_mean(p, "completed") + test::job_mean(p, "unfinished") == test::job_mean(p, "submitted"));
    CHECK(test::job_mean(p, "unfinished") < 20.0);  // only what runs at the horizon's end
  }
  const McPlanStats& two = test::mc_plan(mc, "buy-2-burst-spot");
  const McPlanStats& three = test::mc_plan(mc, "buy-3-burst-spot");
  // The owned nodes take part of the load (the openb pods are mostly 1-GPU, so most still
  // burst), and a third node takes more of it on the same jobs (common random numbers).
  CHECK(test::job_mean(two, "completed_onprem") > 0.2 * test::job_mean(two, "completed"));
  CHECK(test::job_mean(three, "completed_onprem") > test::job_mean(two, "completed_onprem"));
  CHECK(test::job_mean(two, "preemptions") > 0.0);
  // Spot is cheaper than on-demand for the same jobs, on every path.
  CHECK(comparison(mc, "cloud-spot").p_cheaper == 1.0);
}

TEST_CASE("shipped scenario deadline-campaign-spot-policies: the Can't Be Late trace, two spot policies") {
  TCO_REQUIRE_SHARED_DATA();
  const MonteCarloRun mc = run_shipped("deadline-campaign-spot-policies.json", 20);
  const McPlanStats& fallback = test::mc_plan(mc, "spot-fallback");
  const McPlanStats& aware = test::mc_plan(mc, "spot-deadline-aware");
  // The trace drives both: unavailable requests and preemptions happen.
  CHECK(test::job_mean(fallback, "spot_unavailable") > 0.0);
  CHECK(test::job_mean(aware, "preemptions") > test::job_mean(fallback, "preemptions"));
  // Staying on spot while the slack allows is cheaper than falling back after 3 tries ...
  CHECK(aware.npv_usd.mean < fallback.npv_usd.mean);
  CHECK(comparison(mc, "spot-deadline-aware").p_cheaper == 1.0);
  // ... and keeps the deadlines: its margin covers a lost checkpoint piece or a retry wait.
  CHECK(test::job_mean(aware, "deadline_misses") == 0.0);
  CHECK(test::job_mean(fallback, "deadline_misses") == 0.0);
  REQUIRE_FALSE(mc.checkpoint_advice.empty());
  CHECK(mc.checkpoint_advice.front().young_interval_h > 0.3);
  CHECK(mc.checkpoint_advice.front().young_interval_h < 1.5);
}

TEST_CASE("shipped scenario startup-monte-carlo: buying the base load beats renting it, path by path") {
  const MonteCarloRun mc = run_shipped("startup-monte-carlo.json", 4);
  CHECK(mc.paths == 4);
  CHECK(comparison(mc, "buy-6-burst").p_cheaper == 1.0);
  CHECK(comparison(mc, "buy-6-burst").npv_difference_usd.mean < 0.0);
  CHECK(test::job_mean(test::mc_plan(mc, "buy-6-burst"), "bursts") > 0.0);
  CHECK(test::job_mean(test::mc_plan(mc, "buy-6-burst"), "node_failures") > 0.0);  // AFR 0.1 x 6 nodes x 3 years
  CHECK_FALSE(mc.checkpoint_advice.empty());
}

}  // namespace tco
