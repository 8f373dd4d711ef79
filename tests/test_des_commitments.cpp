// Commitments in the discrete-event replay (engine/des/cloud/committed_pool.hpp, docs/des.md
// "Commitments"): jobs on a capacity block by hand (inside it, crowded out of it, leaving it when
// its window closes), the block's prepaid bill and its used and unused GPU-hours in the Monte
// Carlo's report, a campaign of jobs on a block against the same campaign on demand, and a
// savings plan's dollars on the replay's on-demand hours (engine/des/cloud/savings_plan_meter.hpp).
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "core/error.hpp"
#include "engine/des/cloud/committed_pool.hpp"

namespace tco::test {

namespace {

// The fixture's cloud plan (test/gpu8: 8-GPU instances at $16 an hour) and the same plan with a
// 14-day block of 4 instances (32 GPUs) at $10 per instance-hour from day 30 (hours 720 to
// 1,056), booked 14 days ahead.
Json block_scenario(const Json& jobs) {
  Json doc = des_scenario_json(jobs);
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}},
                              {{"name", "block"},
                               {"kind", "cloud"},
                               {"commitments",
                                {{{"kind", "capacity_block"},
                                  {"name", "q1"},
                                  {"start_day", 30},
                                  {"days", 14},
                                  {"instances", 4},
                                  {"lead_days", 14},
                                  {"usd_per_instance_hour", 10.0}}}}}});
  return doc;
}

}  // namespace

TEST_CASE("committed pool: whole hours held, first come first served, the run cut where room ends") {
  std::vector<double> committed(10, 0.0);
  for (int h = 2; h < 6; ++h) committed[h] = 32.0;  // 32 GPUs over hours [2, 6)
  des::CommittedPool pool(committed);
  CHECK(pool.place(1.0, 3.0, 32.0) == 1.0);  // hour 1 has none: no room now
  CHECK(pool.place(2.0, 3.5, 24.0) == 3.5);  // holds hours 2 and 3
  CHECK(pool.place(2.5, 3.0, 16.0) == 2.5);  // 24 + 16 > 32 in hour 2
  CHECK(pool.place(2.5, 9.0, 8.0) == 6.0);   // 24 + 8 fits hours 2-5; hour 6 has none: leaves at 6
  CHECK(pool.place(4.0, 5.0, 24.0) == 5.0);  // hour 4: 8 + 24 = 32
  CHECK(pool.place(4.2, 4.8, 8.0) == 4.2);   // hour 4 is full
}

TEST_CASE("replay commitments: jobs on a capacity block, by hand") {
  const Scenario s = load_des_scenario(block_scenario({{"steady", {{"gpus", 1}}}}));
  const des::DesPlans plans = des::prepare_des_plans(s);
  // A: 32 GPUs x 100 h at hour 720: all on the block, no bill; 32 x 100 = 3,200 GPU-hours.
  // B: 8 GPUs x 10 h at hour 720: the block is full (A holds 32): on demand, 1 instance x 10 h
  //    x $16 = $160.
  // C: 32 GPUs x 100 h at hour 1,000: the block until its window closes at hour 1,056 (56 h,
  //    no checkpoints: 56 h of work done, 44 left), then on demand after a restart of 0.1 h
  //    (scheduling.restart_h): 4 instances x 44.1 h x $16 = $2,822.40, 32 x 44.1 = 1,411.2 GPU-hours.
  VectorFeed feed({job_at(720.0, 32, 100.0), job_at(720.0, 8, 10.0), job_at(1000.0, 32, 100.0)});
  const des::PathOutcome o = des::simulate_feed(s, plans.plans[1], feed, {1, 0, 0.0});
  CHECK(o.jobs.completed == 3);
  CHECK(o.jobs.completed_reserved == 1);
  CHECK(o.jobs.completed_on_demand == 2);
  CHECK(o.gpu_hours.reserved_used == doctest::Approx(3200.0 + 32.0 * 56.0).epsilon(1e-12));
  CHECK(o.gpu_hours.on_demand_billed == doctest::Approx(80.0 + 1411.2).epsilon(1e-12));
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(160.0 + 2822.4).epsilon(1e-12));
  CHECK(o.gpu_hours.useful == doctest::Approx(3200.0 + 80.0 + 3200.0).epsilon(1e-12));
  // The block's use: A's 3,200 and C's 32 x 56 = 1,792 GPU-hours.
  REQUIRE(o.commitment_used_gpu_hours.size() == 1);
  CHECK(o.commitment_used_gpu_hours[0] == doctest::Approx(4992.0).epsilon(1e-12));
  // The plan without the block pays every hour on demand: (4 x 100 + 10 + 4 x 100) x $16.
  VectorFeed same({job_at(720.0, 32, 100.0), job_at(720.0, 8, 10.0), job_at(1000.0, 32, 100.0)});
  const des::PathOutcome plain = des::simulate_feed(s, plans.plans[0], same, {1, 0, 0.0});
  CHECK(category_total(plain, Category::cloud_on_demand) == doctest::Approx(810.0 * 16.0).epsilon(1e-12));
}

TEST_CASE("replay commitments: a block kept for one job class") {
  // An 8-GPU job of class 0 and a 32-GPU job of class 1 ("train") arrive at hour 720 in that
  // order. For any job, the first takes 8 of the block's 32 GPUs and the second no longer fits:
  // 4 instances x 100 h x $16 = $6,400 on demand. Kept for "train", the block runs the second
  // and the first pays 1 x 10 h x $16 = $160.
  const std::vector<std::string> names = {"steady", "train"};
  const auto run = [&](const char* job_class) {
    Json doc = block_scenario({{"steady", {{"gpus", 1}}},
                               {"campaigns", {{"gpus", 32}, {"every_days", 91}, {"duration_days", 1}, {"class", "train"}}}});
    if (job_class) doc["plans"][1]["commitments"][0]["job_class"] = job_class;
    const Scenario s = load_des_scenario(doc);
    const des::DesPlans plans = des::prepare_des_plans(s);
    des::SimJob small = job_at(720.0, 8, 10.0), train = job_at(720.0, 32, 100.0);
    train.job_class = 1;
    VectorFeed feed({small, train});
    des::PathInputs in{1, 0, 0.0};
    in.class_names = &names;
    return des::simulate_feed(s, plans.plans[1], feed, in);
  };
  const des::PathOutcome any = run(nullptr);
  CHECK(category_total(any, Category::cloud_on_demand) == doctest::Approx(6400.0).epsilon(1e-12));
  CHECK(any.gpu_hours.reserved_used == doctest::Approx(80.0).epsilon(1e-12));
  const des::PathOutcome kept = run("train");
  CHECK(category_total(kept, Category::cloud_on_demand) == doctest::Approx(160.0).epsilon(1e-12));
  CHECK(kept.gpu_hours.reserved_used == doctest::Approx(3200.0).epsilon(1e-12));
  // A class no job has would leave the block idle: refused, naming the field and the classes.
  Json doc = block_scenario({{"steady", {{"gpus", 1}}}});
  doc["plans"][1]["commitments"][0]["job_class"] = "campaigns";  // the generator's class is "campaign"
  try {
    load_des_scenario(doc);
    FAIL("a block kept for a class no job has was accepted");
  } catch (const InputError& e) {
    CHECK(e.where() == "/plans/1/commitments/0/job_class");
    CHECK(e.message().find("the jobs' classes: steady") != std::string::npos);
  }
}

TEST_CASE("replay commitments: the block's prepaid bill and a campaign run inside it") {
  // A 32-GPU campaign of 10 days every 91 days from day 31: the first one runs inside the block
  // (days 30 to 44), the others (days 122, 213, 304) on demand.
  Json doc = block_scenario({{"campaigns", {{"gpus", 32}, {"every_days", 91}, {"duration_days", 10}, {"first_day", 31}}}});
  doc["monte_carlo"] = {{"paths", 2}, {"seed", 3}};
  const Scenario s = load_des_scenario(doc);
  MonteCarloOptions options;
  const MonteCarloRun mc = run_monte_carlo(s, options);
  const PlanResult& plain = mc.run.plans.at(0);
  const PlanResult& block = mc.run.plans.at(1);
  // The block: 4 instances x 336 h x $10 = $13,440, prepaid whatever it runs.
  CHECK(block.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(13440.0).epsilon(1e-12));
  CHECK(plain.ledger.category_total_usd(Category::cloud_reserved) == 0.0);
  // 4 campaigns x 4 instances x 240 h x $16 on demand without it; one fewer with it.
  CHECK(plain.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(4 * 4 * 240 * 16.0).epsilon(1e-9));
  CHECK(block.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(3 * 4 * 240 * 16.0).epsilon(1e-9));
  CHECK(block.gpu_hours.reserved_used == doctest::Approx(32.0 * 240.0).epsilon(1e-12));
  // The report's figures: committed 32 GPUs x 336 h = 10,752 GPU-hours, used 32 x 240 = 7,680,
  // unused 3,072, whose share of the bill is 13,440 x 3,072 / 10,752 = $3,840.
  REQUIRE(block.commitments.size() == 1);
  const CommitmentFigures& q1 = block.commitments[0];
  CHECK(q1.committed_gpu_hours == doctest::Approx(10752.0).epsilon(1e-12));
  CHECK(q1.used_gpu_hours == doctest::Approx(7680.0).epsilon(1e-12));
  CHECK(q1.unused_gpu_hours == doctest::Approx(3072.0).epsilon(1e-12));
  CHECK(q1.cost_nominal_usd == doctest::Approx(13440.0).epsilon(1e-12));
  CHECK(q1.unused_usd == doctest::Approx(3840.0).epsilon(1e-12));
  CHECK(plain.commitments.empty());
}

// The cloud plan with a 12-month savings plan of $18 an hour at $12 an instance-hour (25% off
// the fixture's $16): it covers 18 / 12 = 1.5 instance-hours of each hour's on-demand usage.
Json savings_plan_scenario(const Json& jobs) {
  Json doc = des_scenario_json(jobs);
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}},
                              {{"name", "saver"},
                               {"kind", "cloud"},
                               {"commitments",
                                {{{"kind", "savings_plan"},
                                  {"name", "sp"},
                                  {"usd_per_hour", 18.0},
                                  {"usd_per_instance_hour", 12.0},
                                  {"term_months", 12}}}}}});
  return doc;
}

TEST_CASE("replay savings plan: its dollars on the on-demand hours, by hand") {
  const Scenario s = load_des_scenario(savings_plan_scenario({{"steady", {{"gpus", 1}}}}));
  const des::DesPlans plans = des::prepare_des_plans(s);
  // A: 16 GPUs (2 instances) x 3 h from hour 0.5 on demand: 1, 2, 2 and 1 instance-hours in
  //    hours 0 to 3; covered min(x, 1.5): 1 + 1.5 + 1.5 + 1 = 5.
  // B: 8 GPUs x 0.5 h from hour 5.25: 0.5 instance-hours in hour 5, covered whole.
  // Bill: (6 + 0.5) x $16 = $104 on demand, less the covered 5.5 x $16 = $88: $16.
  VectorFeed feed({job_at(0.5, 16, 3.0), job_at(5.25, 8, 0.5)});
  const des::PathOutcome o = des::simulate_feed(s, plans.plans[1], feed, {1, 0, 0.0});
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(16.0).epsilon(1e-12));
  CHECK(o.gpu_hours.on_demand_billed == doctest::Approx(52.0).epsilon(1e-12));  // billed, covered or not
  REQUIRE(o.commitment_used_gpu_hours.size() == 1);
  CHECK(o.commitment_used_gpu_hours[0] == doctest::Approx(5.5 * 8.0).epsilon(1e-12));
  // Without the plan the same jobs pay $104.
  VectorFeed same({job_at(0.5, 16, 3.0), job_at(5.25, 8, 0.5)});
  const des::PathOutcome plain = des::simulate_feed(s, plans.plans[0], same, {1, 0, 0.0});
  CHECK(category_total(plain, Category::cloud_on_demand) == doctest::Approx(104.0).epsilon(1e-12));
  CHECK(plain.commitment_used_gpu_hours.empty());
}

TEST_CASE("replay savings plan: the Monte Carlo's ledger and figures") {
  // A 32-GPU (4-instance) campaign of 10 days every 91 days from day 31: 4 campaigns x 240 h,
  // each hour 4 instance-hours of which the plan covers 1.5 ($24 of the hour's $64).
  Json doc = savings_plan_scenario(
      {{"campaigns", {{"gpus", 32}, {"every_days", 91}, {"duration_days", 10}, {"first_day", 31}}}});
  doc["monte_carlo"] = {{"paths", 2}, {"seed", 3}};
  const MonteCarloRun mc = run_monte_carlo(load_des_scenario(doc), MonteCarloOptions{});
  const PlanResult& plain = mc.run.plans.at(0);
  const PlanResult& saver = mc.run.plans.at(1);
  // On demand: 4 x 240 x (4 - 1.5) x $16 = $38,400 against 4 x 240 x 4 x $16 = $61,440.
  CHECK(plain.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(61440.0).epsilon(1e-9));
  CHECK(saver.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(38400.0).epsilon(1e-9));
  // The commitment, paid every hour of its term: 12 x 730 h x $18 = $157,680.
  CHECK(saver.ledger.category_total_usd(Category::cloud_reserved) == doctest::Approx(157680.0).epsilon(1e-12));
  // Committed: 8,760 h x 1.5 instances x 8 GPUs = 105,120 GPU-hours; used 4 x 240 x 1.5 x 8 =
  // 11,520; unused 93,600, whose share of the bill is 157,680 x 93,600 / 105,120 = $140,400.
  REQUIRE(saver.commitments.size() == 1);
  const CommitmentFigures& sp = saver.commitments[0];
  CHECK(sp.committed_gpu_hours == doctest::Approx(105120.0).epsilon(1e-12));
  CHECK(sp.used_gpu_hours == doctest::Approx(11520.0).epsilon(1e-12));
  CHECK(sp.unused_gpu_hours == doctest::Approx(93600.0).epsilon(1e-12));
  CHECK(sp.unused_usd == doctest::Approx(140400.0).epsilon(1e-12));
}

TEST_CASE("replay savings plan: over generated jobs, the cover is what comes off the bill") {
  // At a flat $16 an instance-hour (no growth, no shocks) the on-demand bill falls by exactly
  // $16 per covered instance-hour, never by more than the bill, and the cover never exceeds
  // 1.5 instance-hours in any hour: at most 1.5 x (the last job's end + 1) instance-hours.
  const Scenario s = load_des_scenario(savings_plan_scenario({{"steady", {{"gpus", 1}}}}));
  const des::DesPlans plans = des::prepare_des_plans(s);
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> start_h(0.0, 200.0), duration_h(0.05, 30.0);
  std::uniform_int_distribution<int> instances(1, 4);
  for (int scenario = 0; scenario < 40; ++scenario) {
    std::vector<des::SimJob> jobs;
    double last_end_h = 0.0;
    for (int j = 0; j < 1 + scenario % 7; ++j) {
      jobs.push_back(job_at(start_h(rng), 8 * instances(rng), duration_h(rng)));
      last_end_h = std::max(last_end_h, jobs.back().submit_h + jobs.back().duration_h);
    }
    std::sort(jobs.begin(), jobs.end(), [](const des::SimJob& a, const des::SimJob& b) { return a.submit_h < b.submit_h; });
    VectorFeed with(jobs), without(jobs);
    const des::PathOutcome saver = des::simulate_feed(s, plans.plans[1], with, {1, 0, 0.0});
    const des::PathOutcome plain = des::simulate_feed(s, plans.plans[0], without, {1, 0, 0.0});
    const double covered_instance_hours = saver.commitment_used_gpu_hours.at(0) / 8.0;
    const double off_usd = category_total(plain, Category::cloud_on_demand) - category_total(saver, Category::cloud_on_demand);
    CHECK(off_usd == doctest::Approx(16.0 * covered_instance_hours).epsilon(1e-9));
    CHECK(covered_instance_hours > 0.0);
    CHECK(category_total(saver, Category::cloud_on_demand) >= -1e-9);
    CHECK(covered_instance_hours <= 1.5 * (std::floor(last_end_h) + 1.0) + 1e-9);
    CHECK(saver.gpu_hours.on_demand_billed == plain.gpu_hours.on_demand_billed);
  }
}

}  // namespace tco::test
