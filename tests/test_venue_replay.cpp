// A plan's ordered cloud venues in the discrete-event replay (issue #24,
// engine/des/cloud/venue_router.hpp, docs/model.md §3b): one sure, uncapped venue is the plain burst
// bit for bit; a quota sends what does not fit to the next venue; a job that no venue takes waits
// and is counted; availability is drawn per request.
// Fixture catalog (tests/scenario_builder.hpp): test/gpu8/region-a, 8 GPUs at $16/h on-demand,
// no startup time, billed by the second; the "neocloud" is the same record at $10/h.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "venue_support.hpp"
#include "load_error.hpp"
#include "core/random/random.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

using tco::test::kEps;

// The replay's scenario with one cloud plan bursting to `venues` (retry_h 0.5, $2 per GPU-hour
// waited); the jobs themselves come from a VectorFeed.
Scenario venue_scenario(const Json& venues) {
  Json doc = des_scenario_json({{"steady", {{"gpus", 8}, {"gpus_per_job", 8}, {"job_duration_h", 10}}}});
  doc["waiting_usd_per_gpu_hour"] = 2.0;
  doc["cloud"]["spot"] = {{"retry_h", 0.5}};
  doc["plans"] = Json::array({{{"name", "venues"}, {"kind", "cloud"}, {"venues", venues}}});
  doc["baseline"] = "venues";
  return load_des_scenario(doc);
}

des::PathOutcome replay(const Scenario& s, std::vector<des::SimJob> jobs, std::uint32_t path = 0) {
  const des::DesPlans plans = des::prepare_des_plans(s);
  VectorFeed feed(std::move(jobs));
  return des::simulate_feed(s, plans.plans[0], feed, {7, path, 0.0});
}

// A Poisson stream of 8- and 16-GPU jobs (median 4 h) on one cloud plan bursting to `venues`,
// with the plan's spot settings `spot` (null: the defaults), replayed over `paths` paths.
MonteCarloRun replay_poisson(const Json& venues, const Json& spot, long paths) {
  Json doc = des_scenario_json({{"poisson",
                                 {{"jobs_per_hour", 0.5}, {"gpus", {{"8", 0.7}, {"16", 0.3}}},
                                  {"duration_median_h", 4}, {"duration_sigma", 0.8}}}});
  if (!spot.is_null()) doc["cloud"]["spot"] = spot;
  doc["plans"] = Json::array({{{"name", "venues"}, {"kind", "cloud"}, {"venues", venues}}});
  doc["baseline"] = "venues";
  MonteCarloOptions opt;
  opt.paths = paths;
  return run_monte_carlo(load_des_scenario(doc), opt);
}

}  // namespace

TEST_CASE("venue replay: one sure, uncapped venue on the plan's own offer is the plain burst, bit for bit") {
  Json doc = des_scenario_json({{"poisson",
                                 {{"jobs_per_hour", 1.0}, {"gpus", {{"1", 0.4}, {"8", 0.4}, {"16", 0.2}}},
                                  {"duration_median_h", 3}, {"duration_sigma", 1.0}}}});
  doc["cloud"]["price_change_per_year"] = -0.2;
  doc["plans"] = Json::array({{{"name", "plain"}, {"kind", "cloud"}},
                              {{"name", "one-venue"},
                               {"kind", "cloud"},
                               {"venues", Json::array({{{"name", "own"}, {"offer", "test/gpu8/region-a"}}})}}});
  doc["baseline"] = "plain";
  MonteCarloOptions opt;
  opt.paths = 3;
  opt.threads = 1;
  const MonteCarloRun mc = run_monte_carlo(load_des_scenario(doc), opt);
  REQUIRE(mc.npv_by_path.size() == 2);
  CHECK(mc.npv_by_path[0] == mc.npv_by_path[1]);  // every path, to the bit
  CHECK(mc.npv_by_path[0][0] != mc.npv_by_path[0][1]);
  CHECK(job_mean(mc_plan(mc, "one-venue"), "no_venue_capacity") == 0.0);
}

TEST_CASE("venue replay: the first venue holds at most its quota, a job over it goes to the next") {
  const Scenario s = venue_scenario(Json::array({neocloud({{"quota_gpus", 8}}), hyperscaler()}));
  // 8-GPU jobs of 10 h at t = 0, 5 and 12. The neocloud's quota is one instance: job 1 runs there
  // over [0, 10); job 2 at t = 5 finds it full and runs on the hyperscaler over [5, 15); job 3
  // at t = 12 finds the neocloud free again, [12, 22).
  const des::PathOutcome o = replay(s, {job_at(0.0, 8, 10.0), job_at(5.0, 8, 10.0), job_at(12.0, 8, 10.0)});
  // Neocloud 2 x 10 h x $10 + hyperscaler 10 h x $16 = $200 + $160 = $360.
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(360.0).epsilon(kEps));
  CHECK(o.gpu_hours.on_demand_billed == doctest::Approx(3 * 80.0).epsilon(kEps));
  CHECK(o.jobs.completed_on_demand == 3);
  CHECK(o.jobs.no_venue_capacity == 0);
  CHECK(o.jobs.waited_gpu_hours == 0.0);
  // Per venue: the neocloud 2 jobs x 80 GPU-hours, 20 instance-hours, $200, 2 instances
  // launched; the hyperscaler 80 GPU-hours, 10 instance-hours, $160, 1 launched.
  REQUIRE(o.venue_totals.size() == 2);
  CHECK(o.venue_totals[0] == VenueTotals{160.0, 160.0, 200.0, 20.0, 2.0});
  CHECK(o.venue_totals[1] == VenueTotals{80.0, 80.0, 160.0, 10.0, 1.0});
  // A quota of 0 GPUs sends everything on: the hyperscaler alone, 3 x 10 h x $16 = $480.
  const Scenario none = venue_scenario(Json::array({neocloud({{"quota_gpus", 0}}), hyperscaler()}));
  const des::PathOutcome all_on =
      replay(none, {job_at(0.0, 8, 10.0), job_at(5.0, 8, 10.0), job_at(12.0, 8, 10.0)});
  CHECK(category_total(all_on, Category::cloud_on_demand) == doctest::Approx(480.0).epsilon(kEps));
}

TEST_CASE("venue replay: a job that finds no capacity anywhere waits, is counted and is costed") {
  const Scenario s = venue_scenario(Json::array({neocloud({{"quota_gpus", 8}})}));
  // Two 8-GPU jobs of 10 h at t = 0 on a quota of one instance: the second asks at t = 0, 0.5,
  // ..., 9.5 (20 refusals) and runs over [10, 20).
  const des::PathOutcome o = replay(s, {job_at(0.0, 8, 10.0), job_at(0.0, 8, 10.0)});
  CHECK(o.jobs.no_venue_capacity == 20);
  CHECK(o.jobs.waited_gpu_hours == doctest::Approx(8.0 * 10.0).epsilon(kEps));   // 80 GPU-hours
  CHECK(category_total(o, Category::waiting) == doctest::Approx(160.0).epsilon(kEps));  // 80 x $2
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(200.0).epsilon(kEps));  // 2 x 10 h x $10
  CHECK(o.jobs.completed == 2);
  CHECK(o.jobs.first_wait_h_sum == doctest::Approx(10.0).epsilon(kEps));

  // A 16-GPU job never fits an 8-GPU quota: it waits to the horizon (8,760 h) and is unserved.
  const des::PathOutcome never = replay(s, {job_at(0.0, 16, 5.0)});
  CHECK(never.jobs.unfinished == 1);
  CHECK(never.jobs.unserved_gpu_hours == doctest::Approx(16.0 * 5.0).epsilon(kEps));
  CHECK(never.gpu_hours.waited == doctest::Approx(16.0 * 8760.0).epsilon(kEps));
  CHECK(never.jobs.no_venue_capacity == 8760 * 2);  // a request every half hour
  CHECK(category_total(never, Category::cloud_on_demand) == 0.0);
}

TEST_CASE("venue replay: a venue's availability is drawn per request") {
  // 400 one-hour jobs, hours apart: each finds the neocloud ($10) with probability 0.5, else the
  // hyperscaler ($16). n on the neocloud ~ Binomial(400, 0.5): mean 200, sd 10.
  const Scenario s = venue_scenario(Json::array({neocloud({{"availability", 0.5}}), hyperscaler()}));
  std::vector<des::SimJob> jobs;
  for (int i = 0; i < 400; ++i) jobs.push_back(job_at(2.0 * i, 8, 1.0));
  const des::PathOutcome o = replay(s, jobs);
  const double usd = category_total(o, Category::cloud_on_demand);
  const double on_neocloud = (400.0 * 16.0 - usd) / 6.0;  // each job there saves $6
  INFO("jobs on the neocloud: " << on_neocloud);
  CHECK(std::fabs(on_neocloud - std::round(on_neocloud)) < 1e-6);
  CHECK(std::fabs(on_neocloud - 200.0) < 40.0);  // 4 sd
  CHECK(o.jobs.no_venue_capacity == 0);
  // Another path draws again.
  const des::PathOutcome other = replay(s, jobs, 1);
  CHECK(category_total(other, Category::cloud_on_demand) != usd);
}

TEST_CASE("venue replay: the report's per-venue figures are the paths' means and add up to the plan's bill") {
  const MonteCarloRun mc =
      replay_poisson(Json::array({neocloud({{"quota_gpus", 16}, {"availability", 0.8}}), hyperscaler()}), {}, 3);
  const PlanResult& r = mc.run.plans.at(0);
  REQUIRE(r.venues.size() == 2);
  CHECK(r.venues[0].name == "neocloud");
  CHECK(r.venues[0].price == "on_demand");
  double usd = 0.0, work = 0.0, billed = 0.0;
  for (const VenueFigures& v : r.venues) {
    CHECK(v.totals.cost_usd > 0.0);  // the quota sends some jobs on, the neocloud takes others
    CHECK(v.totals.instance_hours == doctest::Approx(v.totals.billed_gpu_hours / 8.0).epsilon(kEps));
    CHECK(v.totals.launched_instances >= 1.0);
    usd += v.totals.cost_usd;
    work += v.totals.work_gpu_hours;
    billed += v.totals.billed_gpu_hours;
  }
  CHECK(usd == doctest::Approx(r.ledger.category_total_usd(Category::cloud_on_demand)).epsilon(1e-12));
  CHECK(work == doctest::Approx(r.gpu_hours.cloud_work).epsilon(1e-12));
  CHECK(billed == doctest::Approx(r.gpu_hours.on_demand_billed).epsilon(1e-12));
}

// The venue scenario with the plan's spot market set: `preemptions_per_instance_hour`, no
// checkpoints (a preemption loses the run's work), restart 0.1 h.
Scenario spot_venue_scenario(const Json& venues, double preemptions_per_instance_hour) {
  Json doc = des_scenario_json({{"steady", {{"gpus", 8}, {"gpus_per_job", 8}, {"job_duration_h", 10}}}});
  doc["waiting_usd_per_gpu_hour"] = 2.0;
  doc["cloud"]["spot"] = {{"retry_h", 0.5}, {"restart_h", 0.1},
                          {"preemptions_per_instance_hour", preemptions_per_instance_hour}};
  doc["plans"] = Json::array({{{"name", "venues"}, {"kind", "cloud"}, {"venues", venues}}});
  doc["baseline"] = "venues";
  return load_des_scenario(doc);
}

TEST_CASE("venue replay: a spot venue runs the job on spot at its price") {
  // Never preempted: two 8-GPU jobs of 10 h on the hyperscaler's spot ($8/h), 2 x 10 x $8 = $160;
  // the neocloud after it takes nothing.
  const Scenario s = spot_venue_scenario(Json::array({hyperscaler({{"price", "spot"}}), neocloud()}), 0.0);
  const des::PathOutcome o = replay(s, {job_at(0.0, 8, 10.0), job_at(3.0, 8, 10.0)});
  CHECK(category_total(o, Category::cloud_spot) == doctest::Approx(160.0).epsilon(kEps));
  CHECK(category_total(o, Category::cloud_on_demand) == 0.0);
  CHECK(o.gpu_hours.spot_billed == doctest::Approx(160.0).epsilon(kEps));
  CHECK(o.jobs.completed_spot == 2);
  CHECK(o.jobs.spot_requests == 2);
  REQUIRE(o.venue_totals.size() == 2);
  CHECK(o.venue_totals[0] == VenueTotals{160.0, 160.0, 160.0, 20.0, 2.0});
  CHECK(o.venue_totals[1] == VenueTotals{});
}

TEST_CASE("venue replay: a job preempted on a spot venue asks the venues again, by hand with its draws") {
  // One 8-GPU job of 10 h without checkpoints on the hyperscaler's spot ($8/h, 0.15 preemptions
  // an instance-hour), quota one instance, then the neocloud on demand ($10/h). Run k starts at
  // t_k (a restart of 0.1 h from the second on) and is preempted at t_k + E_k, E_k =
  // Exp(0.15) of the job's k-th preemption draw, unless it finishes first; each preemption loses
  // the run's work and the job asks again from the spot venue, whose one instance the
  // preempted run has left. Each run is billed its time, by the second.
  constexpr double kRate = 0.15;
  const Scenario s = spot_venue_scenario(Json::array({hyperscaler({{"price", "spot"}, {"quota_gpus", 8}}), neocloud()}),
                                         kRate);
  const des::PathOutcome o = replay(s, {job_at(0.0, 8, 10.0)});
  double t = 0.0, spot_usd = 0.0;
  int preemptions = 0;
  for (std::uint32_t k = 0;; ++k) {
    const double overhead_h = k == 0 ? 0.0 : 0.1;
    const double finish_h = t + overhead_h + 10.0;
    const double preempt_h = t + exponential_quantile(uniform(7, 0, RandomSource::preemption, 0, k), kRate);
    const double end_h = std::min(preempt_h, finish_h);
    spot_usd += std::ceil((end_h - t) * 3600.0 - 1e-9) / 3600.0 * 8.0;
    if (preempt_h >= finish_h) break;
    ++preemptions;
    t = preempt_h;
  }
  INFO("preemptions by hand: " << preemptions);
  CHECK(preemptions >= 1);  // the draws of path 0 preempt it (else this test shows nothing)
  CHECK(o.jobs.preemptions == preemptions);
  CHECK(o.jobs.spot_requests == preemptions + 1);
  CHECK(o.jobs.completed_spot == 1);
  CHECK(category_total(o, Category::cloud_spot) == doctest::Approx(spot_usd).epsilon(1e-12));
  CHECK(o.jobs.lost_gpu_hours > 0.0);
  CHECK(o.jobs.no_venue_capacity == 0);  // the preempted run left the quota at once
}

TEST_CASE("venue replay: spot and on-demand venues' figures add up to the plan's bills") {
  const MonteCarloRun mc = replay_poisson(
      Json::array({hyperscaler({{"price", "spot"}, {"availability", 0.6}}), neocloud()}),
      {{"preemptions_per_instance_hour", 0.05}}, 2);
  const PlanResult& r = mc.run.plans.at(0);
  REQUIRE(r.venues.size() == 2);
  CHECK(r.venues[0].price == "spot");
  CHECK(r.venues[0].totals.cost_usd == doctest::Approx(r.ledger.category_total_usd(Category::cloud_spot)).epsilon(1e-12));
  CHECK(r.venues[1].totals.cost_usd ==
        doctest::Approx(r.ledger.category_total_usd(Category::cloud_on_demand)).epsilon(1e-12));
  CHECK(r.venues[0].totals.cost_usd > 0.0);
  CHECK(r.venues[1].totals.cost_usd > 0.0);
  CHECK(job_mean(mc_plan(mc, "venues"), "preemptions") > 0.0);
}

}  // namespace tco::test
