// The discrete-event replay against hand-computed cases and analytic results: the event
// order, checkpoint closed forms, packing, the burst order, spot with zero preemptions,
// Poisson preemptions (expected lost work in closed form), an M/M/c queue (Erlang C),
// on-prem energy equal to the hourly model's on a steady load, the monthly peaks and
// throttled hours against the site's hours, the node pool against a node-by-node search, and
// the replay's own containers (TrivialVector, TrivialFifo).
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "engine/des/checkpoint.hpp"
#include "core/error.hpp"
#include "engine/des/kernel/event_queue.hpp"
#include "engine/des/job_stream.hpp"
#include "engine/des/fleet/node_pool.hpp"
#include "engine/des/cloud/spot_market.hpp"
#include "engine/des/kernel/trivial_vector.hpp"
#include "core/random/random.hpp"

namespace tco {

using namespace des;

using test::category_total;
using test::job_at;

namespace {

const DesPlan& des_plan(const DesPlans& plans, const Scenario& s, const std::string& name) {
  for (std::size_t i = 0; i < s.plans.size(); ++i)
    if (s.plans[i].name == name) return plans.plans[i];
  FAIL("no plan " << name);
  return plans.plans.front();
}

// `doc` with one plan, "own-2" (2 nodes on-prem, no cloud), replayed on path 0 of seed 5.
struct OwnTwoReplay {
  Scenario scenario;
  PathOutcome outcome;
};
OwnTwoReplay replay_own_two(Json doc) {
  doc["plans"] = Json::parse(R"([{"name": "own-2", "kind": "onprem", "onprem_nodes": 2}])");
  doc["baseline"] = "own-2";
  OwnTwoReplay r{test::load_des_scenario(doc), {}};
  const DesPlans plans = prepare_des_plans(r.scenario);
  const JobCatalog catalog = build_job_catalog(*r.scenario.jobs);
  r.outcome = simulate_path(r.scenario, plans.plans[0], catalog, {5, 0, 0.0});
  return r;
}

template <class T>
std::vector<T> listed(const TrivialVector<T>& v) {
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("trivial vector: growth keeps the values, pushing its own element is safe, copies are deep") {
  TrivialVector<int> v;
  CHECK(v.empty());
  for (int i = 0; i < 8; ++i) v.push_back(10 * i);  // fills the first allocation (8)
  v.push_back(v.front());  // the 9th grows the storage while reading its own element 0
  CHECK(listed(v) == std::vector<int>{0, 10, 20, 30, 40, 50, 60, 70, 0});
  v.pop_back();
  v.push_uninitialized() = 5;
  CHECK(v.back() == 5);
  CHECK(v.size() == 9);
  TrivialVector<int> copy = v;
  copy[0] = -1;
  CHECK(v[0] == 0);
  TrivialVector<int> moved = std::move(copy);
  CHECK(moved[0] == -1);
  CHECK(moved.size() == 9);
  v.clear();
  CHECK(v.empty());
  v = moved;
  CHECK(listed(v) == listed(moved));
}

TEST_CASE("trivial fifo: first in, first out across the compaction of its dead front") {
  // Two pushes for each pop: the queue never empties, so its dead front is moved out each time
  // it reaches 1,024 and half the vector; the order must survive every move.
  TrivialFifo<int> q;
  int pushed = 0, popped = 0;
  for (int step = 0; step < 5000; ++step) {
    q.push_back(pushed++);
    q.push_back(pushed++);
    REQUIRE(q.front() == popped);
    q.pop_front();
    ++popped;
  }
  CHECK(q.end() - q.begin() == pushed - popped);  // 5,000 still queued
  CHECK(*q.begin() == popped);
  while (!q.empty()) {
    REQUIRE(q.front() == popped++);
    q.pop_front();
  }
  CHECK(popped == pushed);
  q.push_back(7);  // emptied, it starts again from the front of its vector
  CHECK(q.front() == 7);
}

TEST_CASE("event queue: time, then the kind's priority, then insertion order") {
  EventQueue q;
  q.push(2.0, EventKind::arrival, 1, 0);
  q.push(1.0, EventKind::arrival, 2, 0);
  q.push(1.0, EventKind::finish, 3, 0);
  q.push(1.0, EventKind::hour_boundary, 4, 0);
  q.push(1.0, EventKind::finish, 5, 0);
  std::vector<std::uint32_t> order;
  while (!q.empty()) order.push_back(q.pop().target);
  CHECK(order == std::vector<std::uint32_t>{4, 3, 5, 2, 1});
}

TEST_CASE("checkpoints: closed forms of the header's example") {
  // c = 2, w = 0.5, interrupted after 6 h: 2 checkpoints done (at 2.5 and 5), saved 4 h,
  // done 4 + 1 = 5 h, lost 1 h; 10 h of compute take 10 + 4 x 0.5 = 12 h.
  const Progress p = progress_after(6.0, 2.0, 0.5);
  CHECK(p.saved_h == doctest::Approx(4.0).epsilon(1e-12));
  CHECK(p.done_h == doctest::Approx(5.0).epsilon(1e-12));
  CHECK(p.lost_h == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(wall_with_checkpoints_h(10.0, 2.0, 0.5) == doctest::Approx(12.0).epsilon(1e-12));
  CHECK(wall_with_checkpoints_h(10.0, 0.0, 0.5) == 10.0);
  // During the second write (e = 4.75): the piece is done but not saved.
  const Progress w = progress_after(4.75, 2.0, 0.5);
  CHECK(w.saved_h == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(w.done_h == doctest::Approx(4.0).epsilon(1e-12));
  CHECK(w.lost_h == doctest::Approx(2.25).epsilon(1e-12));
  CHECK(young_interval_h(0.05, 0.1) == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("node pool: whole nodes for big jobs, first-fit packing for small ones, failures free nothing") {
  NodePool pool(2, 8, true);
  NodeList a, b, c, d;
  REQUIRE(pool.place(6, 1, a));
  CHECK(listed(a) == std::vector<int>{0});
  REQUIRE(pool.place(2, 2, b));
  CHECK(listed(b) == std::vector<int>{0});
  REQUIRE(pool.place(4, 3, c));
  CHECK(listed(c) == std::vector<int>{1});
  CHECK_FALSE(pool.place(8, 4, d));
  pool.release(4, 3, c);
  REQUIRE(pool.place(8, 4, d));
  CHECK(listed(d) == std::vector<int>{1});
  CHECK_FALSE(pool.could_fit(24));
  CHECK(pool.could_fit(16));
  TrivialVector<std::uint32_t> killed;
  pool.fail(0, killed);
  CHECK(listed(killed) == std::vector<std::uint32_t>{1, 2});
  CHECK(pool.nodes_up() == 1);
  pool.release(6, 1, a);  // already dropped by the failure: no change
  NodeList e;
  CHECK_FALSE(pool.place(1, 5, e));
  pool.repair(0);
  REQUIRE(pool.place(8, 5, e));
  CHECK(listed(e) == std::vector<int>{0});
}

TEST_CASE("node pool: releases in any order keep every node's list and free GPUs right") {
  // Node 0 takes three small jobs (3 + 3 + 2 GPUs); releasing the first moves the last into its
  // place in the list, and releasing that one next must still find it.
  NodePool pool(2, 8, true);
  NodeList a, b, c, d;
  REQUIRE(pool.place(3, 10, a));
  REQUIRE(pool.place(3, 11, b));
  REQUIRE(pool.place(2, 12, c));
  CHECK(listed(pool.jobs_on(0)) == std::vector<std::uint32_t>{10, 11, 12});
  pool.release(3, 10, a);
  CHECK(listed(pool.jobs_on(0)) == std::vector<std::uint32_t>{12, 11});
  pool.release(2, 12, c);
  CHECK(listed(pool.jobs_on(0)) == std::vector<std::uint32_t>{11});
  // 5 GPUs free on node 0 now: a 5-GPU job packs there (first fit), a 6-GPU one goes to node 1.
  REQUIRE(pool.place(5, 13, d));
  CHECK(listed(d) == std::vector<int>{0});
  NodeList e;
  REQUIRE(pool.place(6, 14, e));
  CHECK(listed(e) == std::vector<int>{1});
  // A failure drops node 0's jobs; their later releases change nothing, and the repaired node
  // offers all 8 GPUs again.
  TrivialVector<std::uint32_t> killed;
  pool.fail(0, killed);
  CHECK(listed(killed) == std::vector<std::uint32_t>{11, 13});
  pool.release(3, 11, b);
  pool.release(5, 13, d);
  CHECK_FALSE(pool.is_up(0));
  pool.repair(0);
  NodeList f;
  REQUIRE(pool.place(8, 15, f));
  CHECK(listed(f) == std::vector<int>{0});
}

TEST_CASE("node pool: more than 64 nodes (the searches go 64 nodes at a time)") {
  // 130 nodes of 4 GPUs. Fill nodes 0-99 whole, then a 3-GPU job lands on node 100 and a
  // 12-GPU job takes nodes 101-103; free whole node 70 and the next 1-GPU job packs beside the
  // 3-GPU one on node 100 (first fit), while a 4-GPU job takes node 70.
  NodePool pool(130, 4, true);
  std::vector<NodeList> placed(100);
  for (std::uint32_t j = 0; j < 100; ++j) REQUIRE(pool.place(4, j, placed[j]));
  CHECK(listed(placed[99]) == std::vector<int>{99});
  NodeList small, big, one, whole;
  REQUIRE(pool.place(3, 100, small));
  CHECK(listed(small) == std::vector<int>{100});
  REQUIRE(pool.place(12, 101, big));
  CHECK(listed(big) == std::vector<int>{101, 102, 103});
  pool.release(4, 70, placed[70]);
  REQUIRE(pool.place(1, 102, one));
  CHECK(listed(one) == std::vector<int>{70});  // node 70 (all 4 free) comes before node 100 (1 free)
  REQUIRE(pool.place(4, 103, whole));
  CHECK(listed(whole) == std::vector<int>{104});
  // 25 whole nodes left (105-129; node 70 holds the 1-GPU job): a 26-node job does not fit, a
  // 25-node one takes them all.
  NodeList rest, none;
  CHECK_FALSE(pool.place(4 * 26, 104, none));
  REQUIRE(pool.place(4 * 25, 105, rest));
  CHECK(rest.front() == 105);
  CHECK(rest.back() == 129);
  CHECK(rest.size() == 25);
}

TEST_CASE("node pool: random places, releases, failures and repairs match a search node by node") {
  // 70 nodes of 8 GPUs (two words of the whole-node mask). The reference keeps each node's free
  // GPUs and searches them in order: the lowest whole free nodes for a big job, the first node
  // with room for a small one. As the replay does, a failure's jobs are released at once.
  constexpr int kNodes = 70, kGpus = 8;
  NodePool pool(kNodes, kGpus, true);
  std::vector<int> free(kNodes, kGpus);  // -1: down
  struct Job {
    int gpus;
    NodeList nodes;
  };
  std::map<std::uint32_t, Job> running;
  const auto reference_release = [&](const Job& job) {
    for (int n : job.nodes)
      if (free[n] >= 0) free[n] = job.gpus >= kGpus ? kGpus : free[n] + job.gpus;
  };
  std::mt19937_64 rng(7);
  std::uint32_t next_id = 0;
  int placed_big = 0, placed_small = 0, refused = 0, failures = 0;
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t r = rng() % 100;
    if (r < 55) {
      const int sizes[] = {1, 2, 3, 4, 8, 16, 24, 40};
      const int gpus = sizes[rng() % 8];
      std::vector<int> expected;
      if (gpus >= kGpus) {
        for (int n = 0; n < kNodes && static_cast<int>(expected.size()) < (gpus + kGpus - 1) / kGpus; ++n)
          if (free[n] == kGpus) expected.push_back(n);
        if (static_cast<int>(expected.size()) < (gpus + kGpus - 1) / kGpus) expected.clear();
      } else {
        for (int n = 0; n < kNodes; ++n)
          if (free[n] >= gpus) {
            expected.push_back(n);
            break;
          }
      }
      NodeList got;
      const bool ok = pool.place(gpus, next_id, got);
      REQUIRE(ok == !expected.empty());
      if (!ok) {
        ++refused;
        continue;
      }
      REQUIRE(listed(got) == expected);
      for (int n : got) free[n] = gpus >= kGpus ? 0 : free[n] - gpus;
      running[next_id++] = {gpus, got};
      ++(gpus >= kGpus ? placed_big : placed_small);
    } else if (r < 95 && !running.empty()) {
      auto it = std::next(running.begin(), static_cast<long>(rng() % running.size()));
      pool.release(it->second.gpus, it->first, it->second.nodes);
      reference_release(it->second);
      running.erase(it);
    } else {
      const int node = static_cast<int>(rng() % kNodes);
      if (free[node] < 0) {
        pool.repair(node);
        free[node] = kGpus;
        continue;
      }
      ++failures;
      TrivialVector<std::uint32_t> killed;
      pool.fail(node, killed);
      free[node] = -1;
      for (std::uint32_t id : killed) {
        pool.release(running.at(id).gpus, id, running.at(id).nodes);
        reference_release(running.at(id));
        running.erase(id);
      }
    }
    REQUIRE(pool.nodes_up() == static_cast<int>(std::count_if(free.begin(), free.end(), [](int f) { return f >= 0; })));
  }
  // Every branch ran many times.
  CHECK(placed_big > 1000);
  CHECK(placed_small > 1000);
  CHECK(refused > 100);
  CHECK(failures > 100);
}

TEST_CASE("checkpoint: divide_exactly skips only divisions by 1") {
  CHECK(divide_exactly(7.3, 1.0) == 7.3);
  CHECK(divide_exactly(7.3, 2.0) == 3.65);
  CHECK(divide_exactly(1.0, 3.0) == 1.0 / 3.0);
  // 10 h of compute with 1-hour checkpoints writing 0.1 h each: 10 + 9 x 0.1 = 10.9
  CHECK(wall_with_checkpoints_h(10.0, 1.0, 0.1) == doctest::Approx(10.9).epsilon(1e-15));
}

TEST_CASE("job stream: steady jobs, tiling a trace by whole weeks, growth by cloning") {
  const auto dir = test::scratch_dir("des-stream");
  {
    std::ofstream(dir / "t.csv") << "submit_h,gpus,duration_h,class\n0,8,2,a\n100,1,1,b\n";
  }
  Json doc = test::des_scenario_json({{"trace", (dir / "t.csv").string()}, {"tile", true}});
  const Scenario s = test::load_des_scenario(doc);
  const JobCatalog catalog = build_job_catalog(*s.jobs);
  CHECK(catalog.trace_period_h == 168.0);  // the last submission (100 h) rounded up to a week
  JobStream stream(*s.jobs, catalog, s.calendar, 1, 0, 400.0, 0.0);
  std::vector<double> submits;
  SimJob j;
  while (stream.next(j)) submits.push_back(j.submit_h);
  CHECK(submits == std::vector<double>{0, 100, 168, 268, 336});

  // Growth 100%/year: m(t) = 2^(t / 8760); at t = 8760 h exactly 2 copies, at t = 0 one.
  Json grow = test::des_scenario_json({{"steady", {{"gpus", 1}, {"job_duration_h", 8760}}}, {"growth_per_year", 1.0}});
  grow["horizon_months"] = 24;
  const Scenario g = test::load_des_scenario(grow);
  const JobCatalog gc = build_job_catalog(*g.jobs);
  JobStream gs(*g.jobs, gc, g.calendar, 1, 0, static_cast<double>(g.horizon_hours()), 1.0);
  std::vector<double> times;
  std::vector<std::uint32_t> entities;
  while (gs.next(j)) {
    times.push_back(j.submit_h);
    entities.push_back(j.entity);
  }
  CHECK(times == std::vector<double>{0, 8760, 8760});
  CHECK(entities == std::vector<std::uint32_t>{0, 1, 2});
}

TEST_CASE("burst order: the header's example, billed and waited by hand") {
  // 1 node of 8 GPUs; two 8-GPU jobs of 1 h at t = 0; max_wait 0.5 h: the second waits
  // 0.5 h (4 GPU-hours waited), bursts, runs on-demand [0.5, 1.5): one 8-GPU instance for
  // 1 h = 8 GPU-hours, $16.
  Json doc = test::des_scenario_json({{"steady", {{"gpus", 1}}}});
  doc["plans"] = Json::parse(R"([{"name": "own-1", "kind": "hybrid", "onprem_nodes": 1,
                                  "scheduling": {"max_wait_h": 0.5}}])");
  doc["baseline"] = "own-1";
  const Scenario s = test::load_des_scenario(doc);
  const DesPlans plans = prepare_des_plans(s);
  test::VectorFeed feed({job_at(0.0, 8, 1.0), job_at(0.0, 8, 1.0)});
  const PathOutcome o = simulate_feed(s, plans.plans[0], feed, {1, 0, 0.0});
  CHECK(o.jobs.completed_onprem == 1);
  CHECK(o.jobs.completed_on_demand == 1);
  CHECK(o.jobs.bursts == 1);
  CHECK(o.gpu_hours.on_demand_billed == doctest::Approx(8.0).epsilon(1e-12));
  CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(16.0).epsilon(1e-12));
  CHECK(o.jobs.waited_gpu_hours == doctest::Approx(4.0).epsilon(1e-12));
  CHECK(o.jobs.first_wait_h_sum == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(o.gpu_hours.onprem_busy == doctest::Approx(8.0).epsilon(1e-12));
  // Billing granularity: a 1-GPU job of 0.5 h on an 8-GPU instance with a 1-h minimum pays 8 GPU-hours.
  Json billed = doc;
  billed["cloud"] = {{"offer", {{"id", "test/gpu8/region-a"}, {"minimum_billed_s", 3600}}}};
  billed["plans"] = Json::parse(R"([{"name": "cloud", "kind": "cloud"}])");
  billed["baseline"] = "cloud";
  const Scenario b = test::load_des_scenario(billed);
  const DesPlans bp = prepare_des_plans(b);
  test::VectorFeed one({job_at(0.0, 1, 0.5)});
  const PathOutcome ob = simulate_feed(b, bp.plans[0], one, {1, 0, 0.0});
  CHECK(ob.gpu_hours.on_demand_billed == doctest::Approx(8.0).epsilon(1e-12));
  CHECK(category_total(ob, Category::cloud_on_demand) == doctest::Approx(16.0).epsilon(1e-12));
}

TEST_CASE("spot with preemption rate 0: the same GPU-hours as on-demand, at the spot price") {
  Json doc = test::des_scenario_json(
      {{"poisson",
        {{"jobs_per_hour", 0.5}, {"gpus", {{"1", 0.5}, {"8", 0.3}, {"16", 0.2}}}, {"duration_median_h", 3},
         {"duration_sigma", 1.0}, {"preemptible_fraction", 1.0}, {"checkpoint_h", 1}}}});
  doc["cloud"]["spot"] = {{"preemptions_per_instance_hour", 0.0}, {"availability", 1.0}};
  doc["plans"] = Json::parse(R"([{"name": "on-demand", "kind": "cloud"},
                                  {"name": "spot", "kind": "cloud", "spot_share": 1.0}])");
  doc["baseline"] = "on-demand";
  const Scenario s = test::load_des_scenario(doc);
  MonteCarloOptions o;
  o.paths = 3;
  const MonteCarloRun mc = run_monte_carlo(s, o);
  const PlanResult& od = mc.run.plans[0];
  const PlanResult& spot = mc.run.plans[1];
  CHECK(od.gpu_hours.on_demand_billed > 1000.0);
  CHECK(spot.gpu_hours.spot_billed == doctest::Approx(od.gpu_hours.on_demand_billed).epsilon(1e-12));
  CHECK(spot.gpu_hours.on_demand_billed == 0.0);
  // $8 vs $16 per instance-hour.
  CHECK(spot.ledger.category_total_usd(Category::cloud_spot) ==
        doctest::Approx(0.5 * od.ledger.category_total_usd(Category::cloud_on_demand)).epsilon(1e-12));
  CHECK(test::job_mean(mc.plans[1], "preemptions") == 0.0);
  CHECK(test::job_mean(mc.plans[1], "completed_spot") == test::job_mean(mc.plans[0], "completed_on_demand"));
}

TEST_CASE("Poisson preemptions: mean lost work of one job matches the closed form within 4 standard errors") {
  // One 1-GPU job of D = 4 h on a 1-GPU spot instance, checkpoint every c = 1 h, write
  // w = 0.1 h, preemptions at rate r = 0.2 per hour, no restart or provisioning time, always
  // available, never falling back (deadline-aware policy, no deadline).
  // The job is 3 pieces of s = c + w = 1.1 h (compute, then write) and a last piece of c = 1 h;
  // a preemption loses the piece in progress (work since the last checkpoint, and a write cut
  // short), and the piece restarts. A piece of length L is retried until an Exp(r) gap exceeds
  // L; the number of failed tries is geometric with mean e^{rL} - 1 and a failed try lasts
  // E[X | X < L] = 1/r - L e^{-rL} / (1 - e^{-rL}), so the expected time lost on the piece is
  //   (e^{rL} - 1)/r - L,
  // and the job loses E = 3 [(e^{1.1 r} - 1)/r - 1.1] + [(e^{r} - 1)/r - 1] GPU-hours (~0.498).
  Json doc = test::des_scenario_json({{"steady", {{"gpus", 1}}}});
  doc["cloud"] = {{"offer", "test/gpu1/region-a"},
                  {"spot",
                   {{"preemptions_per_instance_hour", 0.2}, {"restart_h", 0.0}, {"checkpoint_write_h", 0.1},
                    {"policy", "deadline_aware"}}}};
  doc["plans"] = Json::parse(R"([{"name": "spot", "kind": "cloud", "spot_share": 1.0}])");
  doc["baseline"] = "spot";
  const Scenario s = test::load_des_scenario(doc);
  const DesPlans plans = prepare_des_plans(s);
  const double r = 0.2;
  const double expected = 3.0 * ((std::exp(1.1 * r) - 1.0) / r - 1.1) + ((std::exp(r) - 1.0) / r - 1.0);
  SimJob job = job_at(0.0, 1, 4.0);
  job.preemptible = true;
  job.checkpoint_h = 1.0;
  const int paths = 4000;
  std::vector<double> lost;
  long preemptions = 0;
  for (int p = 0; p < paths; ++p) {
    test::VectorFeed feed({job});
    const PathOutcome o = simulate_feed(s, plans.plans[0], feed, {2024, static_cast<std::uint32_t>(p), 0.0});
    REQUIRE(o.jobs.completed_spot == 1);
    lost.push_back(o.jobs.lost_gpu_hours);
    preemptions += o.jobs.preemptions;
  }
  const Summary sum = summarize(lost);
  MESSAGE("mean lost " << sum.mean << " GPU-h, closed form " << expected << ", stderr " << sum.stderr_);
  CHECK(preemptions > 1000);
  CHECK(std::fabs(sum.mean - expected) < 4.0 * sum.stderr_);
}

TEST_CASE("M/M/c: the mean queueing delay of a steady Poisson load matches Erlang C within 3%") {
  // c = 8 GPUs (one node), 1-GPU jobs arriving at lambda = 6/h with Exp(1 h) durations:
  // a = 6 Erlangs, rho = 0.75. Erlang B by recursion, then C = c B / (c - a (1 - B)), and the
  // mean wait W_q = C / (c mu - lambda). A strict FIFO queue with every job fitting any free
  // GPU is exactly M/M/c. Sixteen 36-month paths (~2.5 million jobs): the spread of one
  // path's mean wait is about 2%, so of the 16-path mean about 0.5%, and 3% is six of those.
  const int c = 8;
  const double lambda = 6.0, mu = 1.0, a = lambda / mu;
  double erlang_b = 1.0;
  for (int k = 1; k <= c; ++k) erlang_b = a * erlang_b / (k + a * erlang_b);
  const double erlang_c = c * erlang_b / (c - a * (1.0 - erlang_b));
  const double expected_wait_h = erlang_c / (c * mu - lambda);

  Json doc = test::des_scenario_json({{"steady", {{"gpus", 1}}}});
  doc["horizon_months"] = 36;
  doc["plans"] = Json::parse(R"([{"name": "own-1", "kind": "onprem", "onprem_nodes": 1}])");
  doc["baseline"] = "own-1";
  const Scenario s = test::load_des_scenario(doc);
  const DesPlans plans = prepare_des_plans(s);
  double wait_sum = 0.0;
  long started = 0;
  for (std::uint32_t path = 0; path < 16; ++path) {
    std::vector<SimJob> jobs;
    double t = 0.0;
    for (std::uint32_t k = 0;; ++k) {
      t += exponential_quantile(uniform(11, path, RandomSource::arrival, 0, k), lambda);
      if (t >= s.horizon_hours()) break;
      jobs.push_back(job_at(t, 1, exponential_quantile(uniform(11, path, RandomSource::duration, 0, k), mu)));
    }
    test::VectorFeed feed(std::move(jobs));
    const PathOutcome o = simulate_feed(s, plans.plans[0], feed, {11, path, 0.0});
    wait_sum += o.jobs.first_wait_h_sum;
    started += o.jobs.started;
  }
  const double mean_wait_h = wait_sum / static_cast<double>(started);
  MESSAGE("mean wait " << mean_wait_h << " h, Erlang C " << expected_wait_h << " h");
  CHECK(mean_wait_h == doctest::Approx(expected_wait_h).epsilon(0.03));
}

TEST_CASE("on-prem energy of a steady load equals the hourly model's, kWh and USD") {
  // 12 GPUs around the clock on 2 nodes of 8 (an 8-GPU and a 4-GPU job, renewed every 24 h):
  // IT = 2 x 2 kW + 8 kW x 12 / 8 = 16 kW, x PUE 1.5 = 24 kW, at $0.10/kWh escalating 5%/yr
  // by the hour: the fluid model's busy GPUs are the same 12 every hour.
  Json doc = test::des_scenario_json({{"steady", {{"gpus", 12}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}});
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 12}}}}};
  doc["onprem"]["power"]["escalation_per_year"] = 0.05;
  const auto [s, des] = replay_own_two(doc);
  const PlanResult hourly =
      evaluate_plan(s, s.plans[0], demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar));
  CHECK(des.facility_energy_kwh == doctest::Approx(24.0 * s.horizon_hours()).epsilon(1e-12));
  CHECK(des.facility_energy_kwh == doctest::Approx(hourly.facility_energy_kwh).epsilon(1e-12));
  CHECK(des.it_energy_kwh == doctest::Approx(hourly.it_energy_kwh).epsilon(1e-12));
  CHECK(category_total(des, Category::energy) ==
        doctest::Approx(hourly.ledger.category_total_usd(Category::energy)).epsilon(1e-12));
  for (int m = 0; m < s.horizon_months; ++m)
    CHECK(des.cost_by_month[m][static_cast<int>(Category::energy)] ==
          doctest::Approx(hourly.ledger.month_category_usd(m, Category::energy)).epsilon(1e-12));
  CHECK(des.gpu_hours.onprem_busy == doctest::Approx(hourly.gpu_hours.onprem_busy).epsilon(1e-12));
}

TEST_CASE("monthly peak facility kW and throttled hours: every hour's start at the power of the moment") {
  // 12 GPUs busy on 2 nodes of 8 from t = 0 to the horizon (the jobs outlast it): IT = 2 x 2 kW
  // + 8 kW x 12 / 8 = 16 kW throughout. The ambient swings by season and hour, so the PUE and
  // the throttling change from hour to hour, and the replay samples the peak at every hour's
  // start: month m's peak is 16 kW x the largest PUE of its hours, and every throttled hour of
  // the horizon counts (a node is up in all of them).
  Json doc = test::des_scenario_json({{"steady", {{"gpus", 12}, {"gpus_per_job", 8}, {"job_duration_h", 30000}}}});
  doc["onprem"]["ambient"] = {{"mean_c", 16}, {"seasonal_amp_c", 12}, {"diurnal_amp_c", 6},
                              {"throttle_above_c", 30}, {"throttle_fraction", 0.2}};
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"pue_model", "ambient"}, {"pue", nullptr},
                              {"pue_min", 1.1}, {"pue_slope_per_c", 0.02}, {"free_cooling_c", 18}};
  const auto [s, des] = replay_own_two(doc);

  const std::vector<SiteHour> site = site_hours(*s.plans[0].onprem, s.calendar, s.horizon_hours());
  int throttled = 0;
  std::vector<double> max_pue(s.horizon_months, 0.0);
  for (long h = 0; h < s.horizon_hours(); ++h) {
    throttled += site[h].work_rate < 1.0 ? 1 : 0;
    double& m = max_pue[h / static_cast<long>(kHoursPerMonth)];
    m = std::max(m, site[h].pue);
  }
  REQUIRE(throttled > 0);
  CHECK(des.throttled_hours == throttled);
  REQUIRE(des.peak_facility_kw_by_month.size() == max_pue.size());
  for (int m = 0; m < s.horizon_months; ++m)
    CHECK(des.peak_facility_kw_by_month[m] == doctest::Approx(16.0 * max_pue[m]).epsilon(1e-14));
  CHECK(*std::min_element(max_pue.begin(), max_pue.end()) < *std::max_element(max_pue.begin(), max_pue.end()));
}

TEST_CASE("spot trace: availability and preemption at the trace's drops, from the path's offset") {
  const auto dir = test::scratch_dir("des-spot-trace");
  // Ticks of 1 h: up, up, down, up (a drop at tick 2; the wrap 3 -> 0 is not a drop).
  std::ofstream(dir / "t.json") << R"({"metadata": {"gap_seconds": 3600}, "data": [1, 1, 0, 1]})";
  const SpotTrace trace = load_spot_trace((dir / "t.json").string());
  CHECK(trace.drops == std::vector<std::uint32_t>{2});
  CHECK(trace.span_h == 4.0);
  CHECK(trace.preemptions_per_instance_hour == doctest::Approx(1.0 / 3.0).epsilon(1e-12));
  SpotSpec spec;
  const SpotMarket market(spec, &trace, 3, 0);
  const double offset_h = uniform(3, 0, RandomSource::trace_offset, 0, 0) * 4.0;
  // The drop at tick 2 happens at 2 - offset (or 6 - offset after a wrap).
  const double first_drop_h = offset_h < 2.0 ? 2.0 - offset_h : 6.0 - offset_h;
  CHECK(market.preemption_time(0.0, 100.0, 1, 0, 0) == doctest::Approx(first_drop_h).epsilon(1e-12));
  CHECK(market.preemption_time(first_drop_h, 100.0, 1, 0, 0) == doctest::Approx(first_drop_h + 4.0).epsilon(1e-12));
  CHECK_FALSE(market.available(first_drop_h + 0.5, 1, 0, 0));
  CHECK(market.available(first_drop_h + 1.5, 1, 0, 0));
}

TEST_CASE("common random numbers: a bigger fleet sees the same failures on its first nodes") {
  Json doc = test::des_scenario_json({{"steady", {{"gpus", 8}}}});
  doc["onprem"]["failures"] = {{"afr_per_year", 3.0}, {"afr_growth_per_year", 0.5}, {"repair_h", 48}};
  doc["plans"] = Json::parse(R"([{"name": "own-2", "kind": "hybrid", "onprem_nodes": 2},
                                  {"name": "own-3", "kind": "hybrid", "onprem_nodes": 3}])");
  doc["baseline"] = "own-2";
  const Scenario s = test::load_des_scenario(doc);
  const DesPlans plans = prepare_des_plans(s);
  const JobCatalog catalog = build_job_catalog(*s.jobs);
  long total2 = 0;
  for (std::uint32_t path = 0; path < 20; ++path) {
    const PathOutcome two = simulate_path(s, plans.plans[0], catalog, {9, path, 0.0});
    const PathOutcome three = simulate_path(s, plans.plans[1], catalog, {9, path, 0.0});
    CHECK(three.jobs.node_failures >= two.jobs.node_failures);
    CHECK(two.jobs.completed + two.jobs.unfinished == two.jobs.submitted);
    total2 += two.jobs.node_failures;
  }
  // 2 nodes x 3 per year (rising with age) over a year, 20 paths: about 140 failures.
  CHECK(total2 > 80);
  CHECK(total2 < 220);
}

TEST_CASE("spot policies: fallback after max_tries vs deadline-aware, when spot is never available") {
  // An 8-GPU job of 10 h due 20 h after submission, checkpointing every hour (write 0.05 h:
  // 10 + 9 x 0.05 = 10.45 h of wall time); spot never has capacity; retry every 0.25 h.
  // fallback (max_tries 3): tries at 0, 0.25, 0.5, on-demand from 0.75, done at 11.2.
  // deadline-aware: stays while the slack covers 10.45 h on-demand + 0.1 h restart +
  // max(0.25 h retry, 1.05 h checkpoint piece) = 11.6 h, i.e. until t = 8.4: tries at
  // 0 .. 8.25 (34 requests), on-demand from 8.5, done at 18.95 (on time).
  for (const std::string policy : {"fallback", "deadline_aware"}) {
    Json doc = test::des_scenario_json({{"steady", {{"gpus", 1}}}});
    doc["cloud"]["spot"] = {{"availability", 0.0}, {"retry_h", 0.25}, {"max_tries", 3}, {"policy", policy}};
    doc["plans"] = Json::parse(R"([{"name": "spot", "kind": "cloud", "spot_share": 1.0}])");
    doc["baseline"] = "spot";
    const Scenario s = test::load_des_scenario(doc);
    const DesPlans plans = prepare_des_plans(s);
    SimJob job = job_at(0.0, 8, 10.0);
    job.preemptible = true;
    job.checkpoint_h = 1.0;
    job.deadline_h = 20.0;
    test::VectorFeed feed({job});
    const PathOutcome o = simulate_feed(s, plans.plans[0], feed, {1, 0, 0.0});
    CHECK(o.jobs.completed_on_demand == 1);
    CHECK(o.jobs.fallbacks_to_on_demand == 1);
    CHECK(o.jobs.deadline_misses == 0);
    if (policy == "fallback") {
      CHECK(o.jobs.spot_requests == 3);
      CHECK(o.jobs.waited_gpu_hours == doctest::Approx(8 * 0.75).epsilon(1e-12));
    } else {
      CHECK(o.jobs.spot_requests == 34);
      CHECK(o.jobs.waited_gpu_hours == doctest::Approx(8 * 8.5).epsilon(1e-12));
    }
    // On-demand for 10.45 h: one 8-GPU instance at $16/h.
    CHECK(category_total(o, Category::cloud_on_demand) == doctest::Approx(16.0 * 10.45).epsilon(1e-9));
  }
}

}  // namespace tco

namespace tco {

TEST_CASE("job volume: the upper estimate by hand, and a workload too large to replay is bad input at /jobs") {
  // Poisson 1 job/h, diurnal amplitude 0.25, weekend factor 0.7 (below 1: the peak is the
  // weekday's), one year, growth 10%: 1 x 1.25 x 1 x 8,760 h x 1.1 = 12,045 jobs.
  JobsSpec spec;
  spec.poisson.push_back({});
  spec.poisson[0].jobs_per_hour = 1.0;
  spec.poisson[0].diurnal_amplitude = 0.25;
  spec.poisson[0].weekend_factor = 0.7;
  const des::JobCatalog none;
  CHECK(des::upper_jobs_per_path(spec, none, 8760.0, 0.1) == doctest::Approx(12045.0).epsilon(1e-12));
  // + a campaign every 91 days: floor(8,760 / 2,184) + 1 = 5; + steady 20 GPUs in 8-GPU jobs
  // of 24 h: 3 x 365 = 1,095. (12,045 / 1.1 + 5 + 1,095) x 1.1 = 13,255.
  spec.campaigns.push_back({});
  spec.steady.push_back({20, 8, 24.0, {}});
  CHECK(des::upper_jobs_per_path(spec, none, 8760.0, 0.1) == doctest::Approx(13255.0).epsilon(1e-12));

  // A rate typed a million times too large: 1e6 jobs/h over 12 months is 8.76e9 jobs.
  Json doc = test::des_scenario_json({{"poisson", {{"jobs_per_hour", 1e6}, {"duration_median_h", 1}, {"gpus", {{"8", 1.0}}}}}});
  const Scenario s = test::load_des_scenario(doc);
  MonteCarloOptions o;
  o.paths = 1;
  try {
    run_monte_carlo(s, o);
    FAIL("expected an input error");
  } catch (const InputError& e) {
    CHECK(e.where() == "/jobs");
    CHECK(std::string(e.what()).find("cannot be replayed") != std::string::npos);
  }
}

}  // namespace tco
