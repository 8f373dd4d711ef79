// A refresh in the discrete-event replay (engine/des/fleet_events.cpp, refresh_fleet; docs/des.md
// "Refresh"): the cutover of running jobs to the successor fleet by hand (with and without
// checkpoints, ahead of the queue, a job the new pool cannot hold), and every replay path of a
// steady load equal to the hourly model at its (drawn) refresh month.
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "des_support.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/next_generation/arrival_draw.hpp"
#include "models/next_generation/next_generation.hpp"
#include "models/workload/workload.hpp"
#include "refresh_support.hpp"

namespace tco::test {

namespace {

using des::PathOutcome;

// refresh_scenario(6, 2) as a jobs scenario (r = 8: the cutover at 8 x 730 = 5,840 h of 17,520):
// plan "move" owns one test-node-8 (8 GPUs, perf 1, idle 2 kW, peak 10 kW) and refreshes to one
// test-node-2x (8 GPUs, perf 2, idle 3 kW, peak 12 kW); it does not burst, restarts take 0.5 h,
// checkpoints take 0.05 h to write.
Scenario cutover_scenario(int old_nodes) {
  Json doc = refresh_scenario(6, 2);
  doc.erase("workload");
  doc["jobs"] = {{"steady", {{"gpus", 8}}}};  // replaced by each test's jobs
  doc["cloud"]["spot"] = {{"checkpoint_write_h", 0.05}};
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}},
                              {{"name", "move"},
                               {"kind", "onprem"},
                               {"onprem_nodes", old_nodes},
                               {"scheduling", {{"restart_h", 0.5}}},
                               {"refresh", {{"months_after_arrival", 2}, {"nodes", 1}}}}});
  return load_des_scenario(doc);
}

PathOutcome replay_move(const Scenario& s, std::vector<des::SimJob> jobs) {
  const des::DesPlans plans = des::prepare_des_plans(s);
  VectorFeed feed(std::move(jobs));
  return des::simulate_feed(s, plans.plans[1], feed, {1, 0, 0.0});
}

}  // namespace

TEST_CASE("refresh replay: a running job without checkpoints loses its run at the cutover and restarts on the successor") {
  const Scenario s = cutover_scenario(1);
  // One 8-GPU job of 6,000 reference hours from t = 0. Old node [0, 5,840): 5,840 h done and
  // lost (no checkpoint): 8 x 5,840 = 46,720 GPU-hours. Successor: 0.5 h restart + 6,000 / 2 =
  // 3,000.5 h, done at 8,840.5 h.
  const PathOutcome o = replay_move(s, {job_at(0.0, 8, 6000.0)});
  CHECK(o.jobs.completed_onprem == 1);
  CHECK(o.jobs.unfinished == 0);
  CHECK(o.jobs.lost_gpu_hours == doctest::Approx(46720.0).epsilon(1e-12));
  CHECK(o.jobs.failure_lost_gpu_hours == 0.0);
  // Busy 8 x (5,840 + 3,000.5) = 70,724; capacity 8 GPUs x 17,520 h (one node either side).
  CHECK(o.gpu_hours.onprem_busy == doctest::Approx(70724.0).epsilon(1e-12));
  CHECK(o.gpu_hours.onprem_capacity == doctest::Approx(140160.0).epsilon(1e-12));
  // IT energy: old node busy 10 kW x 5,840 h = 58,400 kWh; successor busy 12 kW x 3,000.5 h =
  // 36,006 kWh, then idle 3 kW x (17,520 - 8,840.5) h = 26,038.5 kWh: 120,444.5 kWh. At PUE 1.5
  // and $0.10/kWh: $18,066.675.
  CHECK(o.it_energy_kwh == doctest::Approx(120444.5).epsilon(1e-12));
  CHECK(category_total(o, Category::energy) == doctest::Approx(18066.675).epsilon(1e-12));
}

TEST_CASE("refresh replay: a checkpointing job keeps its work at the cutover") {
  const Scenario s = cutover_scenario(1);
  // c = 1 h, w = 0.05 h: at 5,840 h of run, k = floor(5,840 / 1.05) = 5,561 checkpoints
  // (5,839.05 h), 0.95 h into the next piece: done 5,561.95 h, kept by the cutover's checkpoint;
  // 6,000 - 5,561.95 = 438.05 h left. Successor: 0.5 h restart + 438.05 / 2 = 219.025 h of compute
  // + (ceil(219.025) - 1) x 0.05 = 10.95 h of writes = 230.475 h, done at 6,070.475 h.
  des::SimJob job = job_at(0.0, 8, 6000.0);
  job.checkpoint_h = 1.0;
  const PathOutcome o = replay_move(s, {job});
  CHECK(o.jobs.completed_onprem == 1);
  CHECK(o.jobs.lost_gpu_hours == 0.0);
  CHECK(o.gpu_hours.onprem_busy == doctest::Approx(8.0 * 6070.475).epsilon(1e-12));
}

TEST_CASE("refresh replay: the moved job goes ahead of the queue") {
  const Scenario s = cutover_scenario(1);
  // The 6,000 h job (no checkpoints) as above, done at 8,840.5 h; a 100 h job submitted at
  // 1,000 h waits for the node, and the moved job starts first on the successor: it starts at
  // 8,840.5 h and runs 100 / 2 = 50 h. Waited 8 x (8,840.5 - 1,000) = 62,724 GPU-hours (the
  // moved job starts at the cutover: no wait); busy 70,724 + 8 x 50 = 71,124.
  const PathOutcome o = replay_move(s, {job_at(0.0, 8, 6000.0), job_at(1000.0, 8, 100.0)});
  CHECK(o.jobs.completed_onprem == 2);
  CHECK(o.jobs.waited_gpu_hours == doctest::Approx(62724.0).epsilon(1e-12));
  CHECK(o.gpu_hours.onprem_busy == doctest::Approx(71124.0).epsilon(1e-12));
}

TEST_CASE("refresh replay: a job the successor pool cannot hold leaves it") {
  // Two old nodes (16 GPUs) refreshed to one successor node (8 GPUs). The 16-GPU job running at
  // the cutover (no checkpoints: 6,000 h left) cannot run on the new pool, and the plan does not
  // burst: unservable, its 16 x 6,000 = 96,000 GPU-hours unserved; a queued 16-GPU job submitted
  // at 10 h leaves the queue the same way (16 x 50 = 800 GPU-hours).
  const Scenario s = cutover_scenario(2);
  const PathOutcome o = replay_move(s, {job_at(0.0, 16, 6000.0), job_at(10.0, 16, 50.0)});
  CHECK(o.jobs.completed_onprem == 0);
  CHECK(o.jobs.unservable == 2);
  CHECK(o.jobs.unserved_gpu_hours == doctest::Approx(96800.0).epsilon(1e-12));
  CHECK(o.jobs.lost_gpu_hours == doctest::Approx(16.0 * 5840.0).epsilon(1e-12));
  // The successor idles from the cutover: 2 x 10 kW x 5,840 h + 3 kW x 11,680 h = 151,840 kWh.
  CHECK(o.it_energy_kwh == doctest::Approx(151840.0).epsilon(1e-12));
}

TEST_CASE("refresh replay: every path of a steady load equals the hourly model at its refresh month") {
  // 16 GPUs as back-to-back 8-GPU jobs of 1 h: the old fleet (2 nodes) runs them as they come;
  // the successor (1 node, twice as fast) runs each hour's two jobs in turn (0.5 h each; max_wait
  // 1 h, so none bursts). Busy GPU-equivalents, energy, ownership and the cloud's bill are the
  // hourly model's, so each path's NPV is that of the hourly model with the path's arrival month.
  const Json drawn = {{"type", "triangular"}, {"low_months", 2}, {"mode_months", 6}, {"high_months", 12}};
  for (const Json& arrival : {Json(6), drawn}) {
    INFO("arrival " << arrival.dump());
    const Json hourly_doc = refresh_scenario(arrival, 1);
    Json doc = hourly_doc;
    doc.erase("workload");
    doc["jobs"] = {{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 1}}}};
    doc["plans"][2]["scheduling"] = {{"max_wait_h", 1}};
    const Scenario s = load_des_scenario(doc);
    const Scenario hourly = load_scenario_json(hourly_doc, "refresh.json", ".");
    const long paths = 12;
    MonteCarloOptions options;
    options.paths = paths;
    options.seed = 17;
    options.threads = 2;
    const MonteCarloRun mc = run_monte_carlo(s, options);
    const std::vector<double> demand = demand_gpus_by_hour(hourly.workload, hourly.horizon_hours(), hourly.calendar);
    std::set<int> months;
    for (long k = 0; k < paths; ++k) {
      const bool is_drawn = hourly.next_generation->arrival_draw.drawn;
      const int month =
          is_drawn ? arrival_month_on_path(hourly.next_generation->arrival_draw, *options.seed, static_cast<std::uint32_t>(k)) : 6;
      const Scenario at = is_drawn ? with_arrival_month(hourly, month) : hourly;
      months.insert(at.plans.back().refresh->month);
      for (std::size_t j = 0; j < s.plans.size(); ++j) {
        INFO("path " << k << " arrival month " << month << " plan " << s.plans[j].name);
        CHECK(mc.npv_by_path[j][k] == doctest::Approx(evaluate_plan(at, at.plans[j], demand).npv_usd).epsilon(1e-9));
      }
    }
    CHECK(months.size() >= (arrival.is_number() ? 1u : 3u));
    // The report's refresh block, at the scenario's arrival month (r = 6 + 1 = 7 when fixed).
    const PlanResult& r = mc.run.plans.back();
    REQUIRE(r.refresh.has_value());
    CHECK(r.refresh->month == hourly.plans.back().refresh->month);
    if (arrival.is_number()) CHECK(r.refresh->month == 7);
    CHECK(r.refresh->successor_capex_usd == doctest::Approx(300000.0));
    CHECK(mc.plans.back().job_means[job_counter_index("bursts")] == 0.0);
  }
}

TEST_CASE("bad input: a replayed refresh with time shifting is refused, naming its JSON pointer") {
  Json doc = refresh_scenario(6, 1);
  doc.erase("workload");
  doc["jobs"] = {{"steady", {{"gpus", 16}}}};
  doc["plans"][2]["scheduling"] = {{"time_shift", true}};
  check_run_and_validate_refuse("refresh-replay-time-shift", doc, "/plans/2/refresh", "shifts time and refreshes");
}

}  // namespace tco::test
