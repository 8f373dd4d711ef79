// The replay's on-prem queue and the horizon's end, on hand-made jobs: strict FIFO moves on when
// the blocked head bursts, first-fit backfill starts a job that fits at once, every job a plan
// with nodes sends to the cloud counts as a burst, unfinished jobs past their deadline miss it
// and leave only the work their run has not done, a job's life on spot (played without queue
// events) books its waiting by month and what the horizon finds, and an onprem plan's checkpoint
// writes take the scenario's time, not another plan's.
#include <doctest/doctest.h>

#include <string>

#include "des_support.hpp"
#include "core/error.hpp"

namespace tco {

using namespace des;
using test::category_total;
using test::job_at;

namespace {

SimJob waiting_job(double submit_h, int gpus, double duration_h, double max_wait_h) {
  SimJob j = job_at(submit_h, gpus, duration_h);
  j.max_wait_h = max_wait_h;
  return j;
}

// One plan of one 8-GPU node (test-node-8) or renting 8-GPU instances at $16/h.
PathOutcome replay(const Json& plan, std::vector<SimJob> jobs) {
  Json doc = test::des_scenario_json({{"steady", {{"gpus", 1}}}});
  doc["plans"] = Json::array({plan});
  doc["baseline"] = plan["name"];
  const Scenario s = test::load_des_scenario(doc);
  const DesPlans plans = prepare_des_plans(s);
  test::VectorFeed feed(std::move(jobs));
  return simulate_feed(s, plans.plans[0], feed, {1, 0, 0.0});
}

const Json kOneNode = Json::parse(R"({"name": "own-1", "kind": "hybrid", "onprem_nodes": 1})");

}  // namespace

TEST_CASE("queue: when the blocked head bursts, the job behind it starts if it fits") {
  // A (6 GPUs, 10 h) runs from 0. B (4 GPUs) arrives at 1 and waits 1 h, then bursts at 2.
  // C (2 GPUs) arrives at 1.5 behind B (strict FIFO: it may not pass B) and fits as soon as B
  // has gone: it starts on-prem at 2 h, not when A ends at 10 h.
  const PathOutcome o = replay(kOneNode, {job_at(0.0, 6, 10.0), waiting_job(1.0, 4, 1.0, 1.0),
                                          waiting_job(1.5, 2, 1.0, 20.0)});
  CHECK(o.jobs.completed_onprem == 2);
  CHECK(o.jobs.completed_on_demand == 1);
  CHECK(o.jobs.bursts == 1);
  // Waited: B 4 GPUs x 1 h + C 2 GPUs x 0.5 h = 5 GPU-hours; first waits 0 + 1 + 0.5 = 1.5 h.
  CHECK(o.jobs.waited_gpu_hours == doctest::Approx(5.0).epsilon(1e-12));
  CHECK(o.jobs.first_wait_h_sum == doctest::Approx(1.5).epsilon(1e-12));
  // On-prem: 6 x 10 + 2 x 1 = 62 busy GPU-hours; B on one instance for 1 h: $16.
  CHECK(o.gpu_hours.onprem_busy == doctest::Approx(62.0).epsilon(1e-12));
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(16.0).epsilon(1e-12));
}

TEST_CASE("queue: first-fit backfill starts an arriving job that fits while others wait") {
  // A (6 GPUs, 10 h) runs from 0; B (4 GPUs) arrives at 1 and waits for A (max_wait 20 h);
  // C (2 GPUs, 1 h, max_wait 0) arrives at 1.5. First fit: C starts on-prem at once. Strict
  // FIFO: C may not pass B and may not wait, so it bursts.
  const std::vector<SimJob> jobs = {job_at(0.0, 6, 10.0), waiting_job(1.0, 4, 1.0, 20.0),
                                    waiting_job(1.5, 2, 1.0, 0.0)};
  Json first_fit = kOneNode;
  first_fit["scheduling"] = {{"backfill", "first_fit"}};
  const PathOutcome backfilled = replay(first_fit, jobs);
  CHECK(backfilled.jobs.completed_onprem == 3);
  CHECK(backfilled.jobs.bursts == 0);
  CHECK(category_total(backfilled, Category::cloud_on_demand) == 0.0);
  // B waits 1 -> 10: 4 x 9 = 36 GPU-hours, and runs [10, 11): busy 60 + 2 + 4 = 66.
  CHECK(backfilled.jobs.waited_gpu_hours == doctest::Approx(36.0).epsilon(1e-12));
  CHECK(backfilled.gpu_hours.onprem_busy == doctest::Approx(66.0).epsilon(1e-12));

  const PathOutcome strict = replay(kOneNode, jobs);
  CHECK(strict.jobs.completed_onprem == 2);
  CHECK(strict.jobs.completed_on_demand == 1);
  CHECK(strict.jobs.bursts == 1);  // max_wait 0 with the pool busy is a burst too
  CHECK(strict.jobs.waited_gpu_hours == doctest::Approx(36.0).epsilon(1e-12));
}

TEST_CASE("queue: a job larger than the pool bursts, a cloud plan's jobs do not") {
  // 16 GPUs on one 8-GPU node: straight to the cloud, on 2 instances for 1 h = $32.
  const PathOutcome hybrid = replay(kOneNode, {job_at(0.0, 16, 1.0)});
  CHECK(hybrid.jobs.bursts == 1);
  CHECK(hybrid.jobs.completed_on_demand == 1);
  CHECK(category_total(hybrid, Category::cloud_on_demand) == doctest::Approx(32.0).epsilon(1e-12));
  const PathOutcome cloud = replay(Json::parse(R"({"name": "cloud", "kind": "cloud"})"), {job_at(0.0, 16, 1.0)});
  CHECK(cloud.jobs.bursts == 0);
  CHECK(cloud.jobs.completed_on_demand == 1);
}

TEST_CASE("horizon: an unfinished job past its deadline misses it and leaves only the work not done") {
  // The horizon is 12 x 730 = 8,760 h. X: 8 GPUs, 20 h, no checkpoints, from 8,750 h on the
  // node, due 5 h after submission: at the horizon it has run 10 h, so 8 x (20 - 10) = 80
  // GPU-hours are left (not 160), and its deadline (8,755 h) has passed.
  SimJob x = job_at(8750.0, 8, 20.0);
  x.deadline_h = 5.0;
  // Y: 8 GPUs, 4 h, from 8,758 h with checkpoints every hour, queued behind X on an onprem plan
  // (it never starts): all of its 32 GPU-hours are left, and its deadline is still ahead.
  SimJob y = job_at(8758.0, 8, 4.0);
  y.deadline_h = 10.0;
  const PathOutcome own =
      replay(Json::parse(R"({"name": "own-1", "kind": "onprem", "onprem_nodes": 1})"), {x, y});
  CHECK(own.jobs.unfinished == 2);
  CHECK(own.jobs.deadline_misses == 1);
  CHECK(own.jobs.unserved_gpu_hours == doctest::Approx(80.0 + 32.0).epsilon(1e-12));

  // On the cloud: Z, 8 GPUs for 10 h from 8,755 h, has done 5 h at the horizon; it is billed
  // for the 5 h used (8 x 5 = 40 GPU-hours, $80) and leaves 8 x 5 = 40 GPU-hours.
  const PathOutcome cloud =
      replay(Json::parse(R"({"name": "cloud", "kind": "cloud"})"), {job_at(8755.0, 8, 10.0)});
  CHECK(cloud.jobs.unfinished == 1);
  CHECK(cloud.jobs.deadline_misses == 0);  // no deadline
  CHECK(cloud.jobs.unserved_gpu_hours == doctest::Approx(40.0).epsilon(1e-12));
  CHECK(cloud.gpu_hours.on_demand_billed == doctest::Approx(40.0).epsilon(1e-12));
  CHECK(category_total(cloud, Category::cloud_on_demand) == doctest::Approx(80.0).epsilon(1e-12));
}

TEST_CASE("spot lives without events: retries split their waiting by month, the horizon finds jobs waiting or running") {
  // A spot-only cloud plan: capacity with probability `availability`, no preemptions, a request
  // every 0.25 h; waiting costs $2 per GPU-hour.
  auto spot_plan = [](double availability, const std::string& policy, int max_tries) {
    Json doc = test::des_scenario_json({{"steady", {{"gpus", 1}}}});
    doc["waiting_usd_per_gpu_hour"] = 2.0;
    doc["cloud"]["spot"] = {{"availability", availability}, {"retry_h", 0.25}, {"max_tries", max_tries},
                            {"policy", policy}, {"preemptions_per_instance_hour", 0.0}};
    doc["plans"] = Json::parse(R"([{"name": "spot", "kind": "cloud", "spot_share": 1.0}])");
    doc["baseline"] = "spot";
    return doc;
  };
  auto run = [](const Json& doc, SimJob job) {
    const Scenario s = test::load_des_scenario(doc);
    const DesPlans plans = prepare_des_plans(s);
    job.preemptible = true;
    test::VectorFeed feed({job});
    return simulate_feed(s, plans.plans[0], feed, {1, 0, 0.0});
  };
  const int waiting = static_cast<int>(Category::waiting);

  // A: 8 GPUs from 729.9 h (month 0 ends at 730 h), fallback after 2 tries: requests at 729.9
  // and 730.15, on-demand from 730.4. Waited 8 x 0.5 = 4 GPU-hours: 8 x 0.1 = 0.8 in month 0
  // ($1.60), 8 x 0.4 = 3.2 in month 1 ($6.40). Events: the arrival, two retries (at 730.15, and
  // at 730.4, which finds the tries spent and falls back) and the 11 month boundaries (730 h to
  // 8,030 h).
  const PathOutcome a = run(spot_plan(0.0, "fallback", 2), job_at(729.9, 8, 2.0));
  CHECK(a.jobs.spot_requests == 2);
  CHECK(a.jobs.fallbacks_to_on_demand == 1);
  CHECK(a.jobs.completed_on_demand == 1);
  CHECK(a.jobs.waited_gpu_hours == doctest::Approx(4.0).epsilon(1e-12));
  CHECK(a.cost_by_month[0][waiting] == doctest::Approx(1.6).epsilon(1e-9));
  CHECK(a.cost_by_month[1][waiting] == doctest::Approx(6.4).epsilon(1e-9));
  CHECK(a.events == 1 + 2 + 11);

  // B: 8 GPUs for 4 h from 8,759 h (1 h before the 8,760 h horizon): requests at 8,759,
  // 8,759.25, 8,759.5 and 8,759.75, then the retry due at 8,760 is past the end. It waited
  // 8 x 1 = 8 GPU-hours ($16, month 11), is unfinished with all 32 GPU-hours left, and its
  // three retries before the horizon count as events.
  const PathOutcome b = run(spot_plan(0.0, "fallback", 1000), job_at(8759.0, 8, 4.0));
  CHECK(b.jobs.spot_requests == 4);
  CHECK(b.jobs.spot_unavailable == 4);
  CHECK(b.jobs.unfinished == 1);
  CHECK(b.jobs.started == 0);
  CHECK(b.jobs.unserved_gpu_hours == doctest::Approx(32.0).epsilon(1e-12));
  CHECK(b.jobs.waited_gpu_hours == doctest::Approx(8.0).epsilon(1e-12));
  CHECK(b.cost_by_month[11][waiting] == doctest::Approx(16.0).epsilon(1e-9));
  CHECK(b.events == 1 + 3 + 11);  // the arrival, 3 retries, 11 month boundaries before it

  // C: spot always available and never preempted: 8 GPUs for 10 h from 8,755 h runs on spot;
  // at the horizon it has done 5 h, is billed 5 h at $8/h ($40) and leaves 8 x 5 = 40 GPU-hours.
  const PathOutcome c = run(spot_plan(1.0, "fallback", 4), job_at(8755.0, 8, 10.0));
  CHECK(c.jobs.unfinished == 1);
  CHECK(c.jobs.started == 1);
  CHECK(c.jobs.completed_spot == 0);
  CHECK(c.gpu_hours.spot_billed == doctest::Approx(40.0).epsilon(1e-12));
  CHECK(category_total(c, Category::cloud_spot) == doctest::Approx(40.0).epsilon(1e-12));
  CHECK(c.jobs.unserved_gpu_hours == doctest::Approx(40.0).epsilon(1e-12));
}

TEST_CASE("checkpoints: an onprem plan writes them at the scenario's cloud write time, never another plan's") {
  // 8 GPUs for 3 h with a checkpoint every hour: 2 writes. The scenario says 0.1 h a write, a
  // cloud plan patches its own to 0.5 h: the onprem plan runs 3 + 2 x 0.1 = 3.2 h = 25.6
  // busy GPU-hours (with the cloud plan's 0.5 h it would be 4 h = 32).
  SimJob job = job_at(0.0, 8, 3.0);
  job.checkpoint_h = 1.0;
  Json doc = test::des_scenario_json({{"steady", {{"gpus", 1}}}});
  doc["cloud"]["spot"] = {{"checkpoint_write_h", 0.1}};
  doc["plans"] = Json::parse(R"([{"name": "cloud", "kind": "cloud", "cloud": {"spot": {"checkpoint_write_h": 0.5}}},
                                  {"name": "own-1", "kind": "onprem", "onprem_nodes": 1}])");
  doc["baseline"] = "cloud";
  const Scenario s = test::load_des_scenario(doc);
  const DesPlans plans = prepare_des_plans(s);
  CHECK(plans.plans[0].checkpoint_write_h == 0.5);
  CHECK(plans.plans[1].checkpoint_write_h == 0.1);
  test::VectorFeed feed({job});
  const PathOutcome own = simulate_feed(s, plans.plans[1], feed, {1, 0, 0.0});
  CHECK(own.gpu_hours.onprem_busy == doctest::Approx(25.6).epsilon(1e-12));

  // Without any plan that rents, the top-level section still sets it.
  doc["plans"] = Json::parse(R"([{"name": "own-1", "kind": "onprem", "onprem_nodes": 1}])");
  doc["baseline"] = "own-1";
  const Scenario alone = test::load_des_scenario(doc);
  CHECK(prepare_des_plans(alone).plans[0].checkpoint_write_h == 0.1);

  // A negative top-level write time is bad input even when every cloud plan patches its own
  // (the onprem plan would use it).
  doc["cloud"]["spot"] = {{"checkpoint_write_h", -1}};
  doc["plans"] = Json::parse(R"([{"name": "cloud", "kind": "cloud", "cloud": {"spot": {"checkpoint_write_h": 0.5}}},
                                  {"name": "own-1", "kind": "onprem", "onprem_nodes": 1}])");
  doc["baseline"] = "cloud";
  try {
    test::load_des_scenario(doc);
    FAIL("a negative checkpoint_write_h was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("/cloud/spot/checkpoint_write_h") != std::string::npos);
  }
}

}  // namespace tco
