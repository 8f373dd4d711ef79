// Pool groups (DesPlan::pool_group): plans whose event loops behave alike share one replay of
// it, and each plan's cloud books on its own. Which plans group, and that a plan's outcome
// in a group is bit for bit its outcome alone, on a workload where every part of the loop
// and of the cloud runs (queue timeouts, spot with preemptions and retries, node failures,
// throttled hours, waiting).
#include <doctest/doctest.h>

#include "des_support.hpp"
#include "engine/des/job_stream.hpp"

namespace tco {

using namespace des;

namespace {

Json busy_scenario_json() {
  Json doc = test::des_scenario_json(
      {{"poisson", {{"jobs_per_hour", 2.0}, {"gpus", {{"1", 0.4}, {"8", 0.4}, {"16", 0.2}}},
                    {"duration_median_h", 3}, {"duration_sigma", 1.0}, {"preemptible_fraction", 0.6},
                    {"checkpoint_h", 1}, {"max_wait_h", 0.5}, {"deadline_factor", 3.0}}},
       {"growth_per_year", 0.2}});
  doc["cloud"]["spot"] = {{"availability", 0.7}, {"retry_h", 0.5}, {"max_tries", 3},
                          {"preemptions_per_instance_hour", 0.05}, {"price_sigma", 0.2}};
  doc["onprem"]["failures"] = {{"afr_per_year", 2.0}, {"afr_growth_per_year", 0.3}, {"repair_h", 48}};
  doc["waiting_usd_per_gpu_hour"] = 2.0;
  doc["plans"] = Json::parse(R"([
    {"name": "cloud", "kind": "cloud"},
    {"name": "cloud-spot", "kind": "cloud", "spot_share": 0.7},
    {"name": "buy-2", "kind": "hybrid", "onprem_nodes": 2},
    {"name": "buy-3", "kind": "hybrid", "onprem_nodes": 3},
    {"name": "buy-2-spot", "kind": "hybrid", "onprem_nodes": 2, "spot_share": 0.5},
    {"name": "buy-2-all-spot-aware", "kind": "hybrid", "onprem_nodes": 2, "spot_share": 1.0,
     "cloud": {"spot": {"policy": "deadline_aware"}}},
    {"name": "buy-2-wait-longer", "kind": "hybrid", "onprem_nodes": 2, "spot_share": 0.5,
     "scheduling": {"max_wait_h": 2}}
  ])");
  doc["baseline"] = "cloud";
  return doc;
}

void check_same_bits(const PathOutcome& a, const PathOutcome& b) {
  CHECK(a.cost_by_month == b.cost_by_month);
  CHECK(a.gpu_hours == b.gpu_hours);
  CHECK(a.jobs == b.jobs);
  CHECK(a.it_energy_kwh == b.it_energy_kwh);
  CHECK(a.facility_energy_kwh == b.facility_energy_kwh);
  CHECK(a.peak_facility_kw_by_month == b.peak_facility_kw_by_month);
  CHECK(a.throttled_hours == b.throttled_hours);
  CHECK(a.events == b.events);
}

}  // namespace

TEST_CASE("pool groups: plans that differ only in what the cloud does with a job share one event loop") {
  const Scenario s = test::load_des_scenario(busy_scenario_json());
  const DesPlans plans = prepare_des_plans(s);
  // cloud + cloud-spot (no pool); buy-2, buy-2-spot, buy-2-all-spot-aware (spot share and
  // policy are the cloud's); buy-3 (another pool size); buy-2-wait-longer (another queue).
  CHECK(plans.pool_groups == std::vector<std::vector<int>>{{0, 1}, {2, 4, 5}, {3}, {6}});
  for (std::size_t g = 0; g < plans.pool_groups.size(); ++g)
    for (int k : plans.pool_groups[g]) CHECK(plans.plans[k].pool_group == static_cast<int>(g));
}

TEST_CASE("pool groups: what the event loop reads keeps plans apart") {
  const Scenario s = test::load_des_scenario(busy_scenario_json());
  const DesPlans plans = prepare_des_plans(s);
  const DesPlan& base = plans.plans[2];
  CHECK(same_pool_side(base, plans.plans[4]));
  CHECK_FALSE(same_pool_side(base, plans.plans[0]));  // a pool against none
  DesPlan other = base;
  other.checkpoint_write_h += 0.01;
  CHECK_FALSE(same_pool_side(base, other));
  other = base;
  other.bursts = false;
  CHECK_FALSE(same_pool_side(base, other));
  other = base;
  other.scheduling.time_shift = true;
  CHECK_FALSE(same_pool_side(base, other));
  other = base;
  other.reserved_instances = 1;
  CHECK_FALSE(same_pool_side(base, other));
  CHECK_FALSE(same_pool_side(other, other));  // reserved runs follow the plan's cloud terms
  other = base;
  other.site_group = base.site_group + 1;
  CHECK_FALSE(same_pool_side(base, other));
  OnPremSpec onprem = *base.onprem;
  other = base;
  other.onprem = &onprem;
  CHECK(same_pool_side(base, other));
  onprem.failures.repair_h += 1.0;
  CHECK_FALSE(same_pool_side(base, other));
  onprem = *base.onprem;
  onprem.power.monthly_price_sigma += 0.1;
  CHECK_FALSE(same_pool_side(base, other));
  onprem = *base.onprem;
  onprem.power.demand_charge_usd_per_kw_month += 1.0;
  CHECK_FALSE(same_pool_side(base, other));
}

TEST_CASE("pool groups: a plan's outcome in its group is bit for bit its outcome alone") {
  const Scenario s = test::load_des_scenario(busy_scenario_json());
  const DesPlans plans = prepare_des_plans(s);
  const JobCatalog catalog = build_job_catalog(*s.jobs);
  long preemptions = 0, failures = 0, bursts = 0;
  for (std::uint32_t path = 0; path < 3; ++path) {
    const PathInputs in{17, path, 0.2};
    std::vector<SimJob> jobs;
    JobStream stream(*s.jobs, catalog, s.calendar, in.seed, in.path, static_cast<double>(s.horizon_hours()),
                     in.growth_per_year);
    for (SimJob job; stream.next(job);) jobs.push_back(job);
    for (const auto& group : plans.pool_groups) {
      std::vector<const DesPlan*> members;
      for (int k : group) members.push_back(&plans.plans[k]);
      const std::vector<PathOutcome> together = simulate_group_jobs(s, members, jobs, in);
      const std::vector<PathOutcome> streamed = simulate_group_path(s, members, catalog, in);
      REQUIRE(together.size() == group.size());
      for (std::size_t g = 0; g < group.size(); ++g) {
        CAPTURE(plans.plans[group[g]].plan->name);
        const PathOutcome alone = simulate_jobs(s, plans.plans[group[g]], jobs, in);
        check_same_bits(together[g], alone);
        check_same_bits(streamed[g], alone);
        preemptions += alone.jobs.preemptions;
        failures += alone.jobs.node_failures;
        bursts += alone.jobs.bursts;
      }
    }
  }
  // The workload reaches every part: spot preemptions, node failures, queue timeouts.
  CHECK(preemptions > 0);
  CHECK(failures > 0);
  CHECK(bursts > 0);
}

}  // namespace tco
