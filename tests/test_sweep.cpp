// The sweep's Monte Carlo fluid model and its CPU backend (engine/sweep/sweep_kernel.hpp,
// engine/sweep/sweep_cpu.cpp): a zero-variance point equals the deterministic evaluator, Monte Carlo
// means agree with it where shocks are mean-one, common random numbers shrink paired
// differences, threads do not change a bit, and the CPU's vector lanes agree with the device's
// hour-by-hour loop.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "core/stats/statistics.hpp"
#include "engine/sweep/sweep_kernel.hpp"
#include "engine/sweep/sweep_over_ranks.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

namespace {

double npv_of(const ScenarioOutcome& o, int plan) { return o.run.plans[plan].npv_usd; }

std::vector<double> plan_npvs(const OnePointRun& r, int plan, long paths) {
  std::vector<double> v(paths);
  for (long k = 0; k < paths; ++k) v[k] = r.npv(plan, k);
  return v;
}

}  // namespace

TEST_CASE("sweep: the rich fixture books every cost the hot loop handles") {
  // Guards the zero-variance test below: each branch of the hourly loop must carry money.
  const ScenarioOutcome o = run_scenario_json(rich_sweep_json());
  const PlanResult& cloud = o.plan("cloud");
  const PlanResult& hybrid = o.plan("buy-2");
  const PlanResult& owned = o.plan("own-4");
  CHECK(cloud.ledger.category_total_usd(Category::cloud_spot) > 0.0);
  CHECK(cloud.ledger.category_total_usd(Category::cloud_on_demand) > 0.0);
  CHECK(cloud.ledger.category_total_usd(Category::cloud_reserved) > 0.0);
  CHECK(cloud.ledger.category_total_usd(Category::egress) > 0.0);
  CHECK(hybrid.ledger.category_total_usd(Category::energy) > 0.0);
  CHECK(hybrid.throttled_hours > 0);
  CHECK(owned.ledger.category_total_usd(Category::waiting) > 0.0);
  CHECK(owned.ledger.category_total_usd(Category::financing_interest) > 0.0);
  CHECK(owned.ledger.category_total_usd(Category::residual) < 0.0);
}

TEST_CASE("sweep: a zero-variance grid point equals the foundation's deterministic result exactly") {
  const Json doc = rich_sweep_json();
  const ScenarioOutcome det = run_scenario_json(doc);
  const Scenario s = load_sweep_scenario(doc);
  const long paths = 5;
  const OnePointRun r = run_one_point(s, 7, paths);
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    CHECK(r.point.deterministic_npv_usd[j] == npv_of(det, j));
    for (long k = 0; k < paths; ++k) {
      // Same hourly numbers; only the order of the sums differs (months, then categories).
      CHECK(r.npv(j, k) == doctest::Approx(npv_of(det, j)).epsilon(1e-12));
      CHECK(r.total(j, k) == doctest::Approx(det.run.plans[j].total_usd).epsilon(1e-12));
    }
    // The device's hour-by-hour loop, run here on the host, gives the same.
    const SweepPlanParams& p = r.chunk.plans[j];
    const SweepPathResult device_loop = sweep_plan_path(r.chunk.points[0], p, r.chunk.data.data(), 3, nullptr);
    CHECK(device_loop.status == kSweepOk);
    CHECK(device_loop.npv_usd == doctest::Approx(npv_of(det, j)).epsilon(1e-12));
  }
}

TEST_CASE("sweep: multiplying by exact reciprocals (8-GPU nodes and instances, perf 1) gives the bits of division") {
  const Scenario s = load_sweep_scenario(random_sweep_json());
  OnePointRun r = run_one_point(s, 21, 9);
  for (const auto& p : r.chunk.plans) REQUIRE(p.power_of_two_divisors == 1);
  for (auto& p : r.chunk.plans) p.power_of_two_divisors = 0;
  const SweepPathValues plain = run_sweep_cpu(r.chunk, 9, 1);
  CHECK(plain.npv_usd == r.values.npv_usd);
  CHECK(plain.total_usd == r.values.total_usd);
  // And hour by hour, on awkward numbers.
  FleetParams f;
  f.gpus_per_node = 8;
  f.gpus_per_instance = 8;
  f.perf_cloud = 1;
  f.idle_kw = 1.3;
  f.peak_kw = 10.7;
  f.spot_share = 0.37;
  f.spot_overhead_factor = 1.13;
  f.on_demand_usd_per_instance_hour = 98.32;
  f.spot_usd_per_instance_hour = 19.66;
  for (int k = 0; k < 1000; ++k) {
    HourInputs in;
    in.demand_gpus = 0.1 + 0.731 * k;
    in.nodes_up = (k % 7) * 0.9;
    in.work_rate = k % 3 ? 1.0 : 0.8;
    const HourOutcome a = step_hour(f, in, 0.0);
    const HourOutcome b = step_hour(f, in, 0.0, PowerOfTwoDivision{});
    REQUIRE(a.spot_usd == b.spot_usd);
    REQUIRE(a.on_demand_usd == b.on_demand_usd);
    REQUIRE(a.it_kw == b.it_kw);
  }
}

TEST_CASE("sweep: power price shocks are mean-one: the mean NPV is within 4 stderr of the deterministic one") {
  Json doc = rich_sweep_json();
  doc["onprem"]["power"]["monthly_price_sigma"] = 0.3;
  doc["cloud"]["spot"]["price_sigma"] = 0.3;
  const ScenarioOutcome det = run_scenario_json(doc);
  const long paths = 400;
  const OnePointRun r = run_one_point(load_sweep_scenario(doc), 11, paths, 2);
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    const Summary s = summarize(plan_npvs(r, j, paths));
    CHECK(s.stderr_ > 0.0);
    CHECK(std::fabs(s.mean - npv_of(det, j)) < 4.0 * s.stderr_);
  }
}

TEST_CASE("sweep: common random numbers: a saving between node counts has a smaller stderr than either NPV") {
  Json a = random_sweep_json();
  Json b = a;
  b["plans"][1]["onprem_nodes"] = 3;
  const long paths = 200;
  const OnePointRun ra = run_one_point(load_sweep_scenario(a), 5, paths);
  const OnePointRun rb = run_one_point(load_sweep_scenario(b), 5, paths);
  const std::vector<double> npv_a = plan_npvs(ra, 1, paths);
  const std::vector<double> npv_b = plan_npvs(rb, 1, paths);
  std::vector<double> saving(paths);
  for (long k = 0; k < paths; ++k) saving[k] = npv_a[k] - npv_b[k];
  const double se_a = summarize(npv_a).stderr_;
  const double se_b = summarize(npv_b).stderr_;
  const double se_saving = summarize(saving).stderr_;
  CAPTURE(se_a);
  CAPTURE(se_b);
  CAPTURE(se_saving);
  CHECK(se_saving > 0.0);
  CHECK(se_saving < std::min(se_a, se_b));
  // The cloud plan does not depend on the node count: the same numbers on every path.
  for (long k = 0; k < paths; ++k) CHECK(ra.npv(0, k) == rb.npv(0, k));
}

TEST_CASE("sweep: 1 and 2 threads give the same bits") {
  const Scenario s = load_sweep_scenario(random_sweep_json());
  const OnePointRun one = run_one_point(s, 3, 37, 1);
  const OnePointRun two = run_one_point(s, 3, 37, 2);
  CHECK(one.values.npv_usd == two.values.npv_usd);
  CHECK(one.values.total_usd == two.values.total_usd);
}

namespace {

// Three points of the random scenario: buy-2 with 2, 3 and 2 nodes (the first and last alike).
std::vector<SweepPoint> three_node_counts(std::uint64_t seed) {
  std::vector<SweepPoint> points;
  for (int nodes : {2, 3, 2}) {
    Json doc = random_sweep_json();
    doc["plans"][1]["onprem_nodes"] = nodes;
    points.push_back(prepare_sweep_point(load_sweep_scenario(doc), seed));
  }
  return points;
}

}  // namespace

TEST_CASE("sweep point: CVaR95 averages a cost's highest paths and a saving's lowest (hand-computed)") {
  SweepInputs in;
  in.base.plans.resize(2);
  in.base.plans[0].name = "cloud";
  in.base.plans[1].name = "buy";
  in.base.baseline_index = 0;
  SweepPointValues v;
  const int paths = 40;
  v.deterministic_npv_usd = {100.0, 90.0};
  v.npv_usd.assign(2, std::vector<double>(paths));
  v.total_usd.assign(2, std::vector<double>(paths, 1.0));
  for (int k = 0; k < paths; ++k) {
    v.npv_usd[0][k] = 100.0;
    v.npv_usd[1][k] = 100.0 - (k + 1);  // savings 1, 2, ..., 40
  }
  const Json point = sweep_point_json(in, v);
  // ceil(0.05 x 40) = 2 worst paths.
  CHECK(point.at("plans").at(0).at("npv_usd").at("cvar95") == 100.0);
  // Costs 99, 98, ..., 60: the two highest are 99 and 98, (99 + 98) / 2 = 98.5.
  CHECK(point.at("plans").at(1).at("npv_usd").at("cvar95") == 98.5);
  const Json& saving = point.at("plans").at(1).at("saving_vs_baseline_usd");
  // Savings 1..40: the two lowest are 1 and 2, (1 + 2) / 2 = 1.5; P95 at position 39 x 0.95 = 37.05:
  // 38 + 0.05 x (39 - 38) = 38.05.
  CHECK(saving.at("cvar95") == 1.5);
  CHECK(saving.at("p95").get<double>() == doctest::Approx(38.05).epsilon(1e-12));
  CHECK(saving.at("mean") == 20.5);
}

TEST_CASE("sweep chunk: points share equal series and name each plan's earlier twin") {
  const std::vector<SweepPoint> points = three_node_counts(4);
  const SweepChunk chunk = make_sweep_chunk(points);
  // Every series of points 2 and 3 (demand, discounting, the site's hours, price factors) is
  // point 1's: the chunk holds one point's data.
  CHECK(chunk.data.size() == points[0].data.size());
  REQUIRE(chunk.same_as.size() == 9);
  // Plans: cloud, buy-2, own-4 per point. cloud and own-4 do not depend on buy-2's node count;
  // buy-2 of point 3 (2 nodes) is buy-2 of point 1, not of point 2 (3 nodes).
  CHECK(chunk.same_as == std::vector<int>{-1, -1, -1, 0, -1, 2, 3, 1, 5});
}

TEST_CASE("sweep: prepared points cross ranks as bytes and come back bit for bit") {
  const std::vector<SweepPoint> points = three_node_counts(4);
  const PreparedGridPoints prepared = pack_grid_points({5, 8}, points);
  REQUIRE(prepared.deterministic_npv_usd.size() == 3);
  CHECK(prepared.deterministic_npv_usd[1] == points[1].deterministic_npv_usd);
  const std::string bytes = prepared_grid_points_bytes(prepared);
  const PreparedGridPoints back = prepared_grid_points_from_bytes(bytes);
  CHECK(back.range == PointRange{5, 8});
  const SweepChunk& a = prepared.chunk;
  const SweepChunk& b = back.chunk;
  REQUIRE(b.points.size() == a.points.size());
  CHECK(std::memcmp(b.points.data(), a.points.data(), a.points.size() * sizeof(SweepPointHeader)) == 0);
  CHECK(b.plans == a.plans);
  REQUIRE(b.data.size() == a.data.size());
  CHECK(std::memcmp(b.data.data(), a.data.data(), a.data.size() * sizeof(double)) == 0);
  CHECK(b.same_as == a.same_as);
  CHECK(b.max_failure_scratch == a.max_failure_scratch);
  CHECK(back.deterministic_npv_usd == prepared.deterministic_npv_usd);
  CHECK(run_sweep_cpu(b, 5, 1).npv_usd == run_sweep_cpu(a, 5, 1).npv_usd);
  // A broadcast cut short, or with bytes left over, is refused rather than read past its end.
  CHECK_THROWS_AS(prepared_grid_points_from_bytes(bytes.substr(0, bytes.size() - 1)), std::runtime_error);
  CHECK_THROWS_AS(prepared_grid_points_from_bytes(bytes + "x"), std::runtime_error);
}

TEST_CASE("sweep: evaluating twins once gives the bits of evaluating every plan, with any blocks of points") {
  const SweepChunk chunk = make_sweep_chunk(three_node_counts(8));
  SweepChunk unshared = chunk;
  std::fill(unshared.same_as.begin(), unshared.same_as.end(), -1);
  const long paths = 9;
  const SweepPathValues reference = run_sweep_cpu(unshared, paths, 1);
  // One thread takes all three points per path; 3 threads and 9 paths give blocks of two
  // points (about four items per thread), 8 threads blocks of one point: twins across blocks
  // are evaluated again.
  for (int threads : {1, 3, 8}) {
    CAPTURE(threads);
    const SweepPathValues v = run_sweep_cpu(chunk, paths, threads);
    CHECK(v.npv_usd == reference.npv_usd);
    CHECK(v.total_usd == reference.total_usd);
  }
  // And twins really are equal: cloud of points 1 and 2, buy-2 of points 1 and 3.
  for (long k = 0; k < paths; ++k) {
    CHECK(reference.npv_usd[reference.index(chunk.points[0], k, 0)] ==
          reference.npv_usd[reference.index(chunk.points[1], k, 0)]);
    CHECK(reference.npv_usd[reference.index(chunk.points[0], k, 1)] ==
          reference.npv_usd[reference.index(chunk.points[2], k, 1)]);
    CHECK(reference.npv_usd[reference.index(chunk.points[0], k, 1)] !=
          reference.npv_usd[reference.index(chunk.points[1], k, 1)]);
  }
}

TEST_CASE("sweep: the CPU's vector lanes agree with the device's hour-by-hour loop, every random input on") {
  const Scenario s = load_sweep_scenario(random_sweep_json());
  const long paths = 12;
  const OnePointRun r = run_one_point(s, 99, paths);
  std::vector<double> scratch(static_cast<std::size_t>(r.chunk.max_failure_scratch) + 1);
  double spread = 0.0;
  for (int j = 0; j < 3; ++j) {
    for (long k = 0; k < paths; ++k) {
      const SweepPathResult d = sweep_plan_path(r.chunk.points[0], r.chunk.plans[j], r.chunk.data.data(),
                                                static_cast<std::uint32_t>(k), scratch.data());
      REQUIRE(d.status == kSweepOk);
      CHECK(d.npv_usd == doctest::Approx(r.npv(j, k)).epsilon(1e-12));
      CHECK(d.total_usd == doctest::Approx(r.total(j, k)).epsilon(1e-12));
      spread = std::max(spread, std::fabs(r.npv(j, k) - r.npv(j, 0)));
    }
  }
  CHECK(spread > 1000.0);  // the paths really differ
}

TEST_CASE("sweep kernel: failure ages invert the cumulative hazard (hand-computed)") {
  const double rate = 0.1 / 8760.0;
  // No ageing: one unit of hazard is 1 / rate = 87,600 hours.
  CHECK(failure_age_at_hazard(1.0, rate, 0.0) == doctest::Approx(87600.0).epsilon(1e-12));
  // AFR growth 100 %/year: b = 1 / 17,520; x = 87,600; age = 2x / (1 + sqrt(1 + 4 b x))
  // = 175,200 / (1 + sqrt(21)) = 31,383.36 h, and Lambda(age) = 1.
  const double b = 1.0 / 17520.0;
  const double age = failure_age_at_hazard(1.0, rate, b);
  CHECK(age == doctest::Approx(175200.0 / (1.0 + std::sqrt(21.0))).epsilon(1e-12));
  CHECK(age == doctest::Approx(31383.36).epsilon(1e-6));
  CHECK(failure_cumulative_hazard(age, rate, b) == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("sweep kernel: node-hours down per hour from sorted failure times (hand-computed)") {
  // Two failures, 2 h repairs: [10.5, 12.5) and [11, 13).
  const double starts[] = {10.5, 11.0};
  DownTracker t;
  CHECK(sweep_nodes_down(starts, 2, 2.0, 9, t) == 0.0);
  CHECK(sweep_nodes_down(starts, 2, 2.0, 10, t) == 0.5);   // the first, from 10:30
  CHECK(sweep_nodes_down(starts, 2, 2.0, 11, t) == 2.0);   // both, all hour
  CHECK(sweep_nodes_down(starts, 2, 2.0, 12, t) == 1.5);   // the first until 12:30, the second all hour
  CHECK(sweep_nodes_down(starts, 2, 2.0, 13, t) == 0.0);
  // A repair shorter than an hour inside one hour: [20.25, 20.75).
  const double short_start[] = {20.25};
  DownTracker u;
  CHECK(sweep_nodes_down(short_start, 1, 0.5, 20, u) == 0.5);
  CHECK(sweep_nodes_down(short_start, 1, 0.5, 21, u) == 0.0);
}

TEST_CASE("sweep kernel: failure times are sorted, start at purchase, and more nodes keep the first nodes' failures") {
  SweepPlanParams p;
  p.nodes_from_hour = 730;
  p.failure_rate_per_h = 2.0 / 8760.0;
  p.repair_h = 24.0;
  p.failure_capacity = 1000;
  std::vector<double> two(1000), five(1000);
  p.failure_nodes = 2;
  const int n2 = sweep_failure_starts(p, 3 * 8760, 42, 9, two.data());
  p.failure_nodes = 5;
  const int n5 = sweep_failure_starts(p, 3 * 8760, 42, 9, five.data());
  REQUIRE(n2 > 0);
  REQUIRE(n5 > n2);
  CHECK(std::is_sorted(five.begin(), five.begin() + n5));
  CHECK(five[0] >= 730.0);
  for (int i = 0; i < n2; ++i) CHECK(std::find(five.begin(), five.begin() + n5, two[i]) != five.begin() + n5);
  // Too little room is reported, not overrun.
  p.failure_capacity = n5 - 1;
  CHECK(sweep_failure_starts(p, 3 * 8760, 42, 9, five.data()) == -1);
}

TEST_CASE("sweep kernel: a node is down about rate x repair / (1 + rate x repair) of the time") {
  // Renewal: up for Exp(rate), down repair_h: the long-run down fraction is r d / (1 + r d).
  SweepPlanParams p;
  p.nodes_from_hour = 0;
  p.failure_nodes = 1;
  p.failure_rate_per_h = 4.0 / 8760.0;
  p.repair_h = 72.0;
  p.failure_capacity = 10000;
  const long hours = 10 * 8760;
  std::vector<double> starts(10000);
  std::vector<double> fractions;
  for (std::uint32_t path = 0; path < 200; ++path) {
    const int n = sweep_failure_starts(p, hours, 1, path, starts.data());
    REQUIRE(n >= 0);
    DownTracker t;
    double down = 0.0;
    for (long h = 0; h < hours; ++h) down += sweep_nodes_down(starts.data(), n, p.repair_h, h, t);
    fractions.push_back(down / hours);
  }
  const double rd = p.failure_rate_per_h * p.repair_h;
  const Summary s = summarize(fractions);
  CHECK(std::fabs(s.mean - rd / (1.0 + rd)) < 4.0 * s.stderr_);
}

TEST_CASE("sweep kernel: spot availability and preemptions per hour match their probabilities") {
  Json doc = random_sweep_json();
  const SweepPoint point = prepare_sweep_point(load_sweep_scenario(doc), 0);
  const SweepPlanParams& p = point.plans[0];
  // Young: tau = sqrt(2 x 0.05 / 0.05) = 1.41421 h; base = 1 + 0.05 / tau; loss = tau / 2 + 0.1.
  const double tau = std::sqrt(2.0);
  CHECK(p.preemption_base_factor == doctest::Approx(1.0 + 0.05 / tau).epsilon(1e-12));
  CHECK(p.preemption_loss_h == doctest::Approx(tau / 2.0 + 0.1).epsilon(1e-12));
  const long hours = 200000;
  double unavailable = 0.0;
  std::vector<double> factors(hours);
  for (long h = 0; h < hours; ++h) {
    unavailable += 1.0 - sweep_spot_available(p, sweep_hour_word(5, 1, RandomSource::spot_availability, h));
    factors[h] = sweep_preemption_factor(p, sweep_hour_word(5, 1, RandomSource::preemption, h));
  }
  const double q = 0.1;
  CHECK(std::fabs(unavailable / hours - q) < 4.0 * std::sqrt(q * (1 - q) / hours));
  // E[factor] = base + rate x loss.
  const Summary f = summarize(factors);
  CHECK(std::fabs(f.mean - (p.preemption_base_factor + 0.05 * p.preemption_loss_h)) < 4.0 * f.stderr_);
  // Without preemptions the factor is exactly 1 (spot_overhead_factor alone, as deterministic).
  SweepPlanParams none;
  CHECK(sweep_preemption_factor(none, 0xFFFFFFFFu) == 1.0);
}

TEST_CASE("sweep kernel: heap sort sorts") {
  std::vector<double> v = {5, 3, 9, 1, 1, 8, 2, 7, 0, 6};
  sweep_heap_sort(v.data(), static_cast<int>(v.size()));
  CHECK(std::is_sorted(v.begin(), v.end()));
  sweep_heap_sort(v.data(), 0);
}

TEST_CASE("hourly model: a bursting hour with no node up skips the on-prem part and keeps every bit") {
  // step_cloud_only_hour is what the CPU sweep runs in months with no node; it must equal
  // step_hour with nodes_up = 0 field for field, on hours that bill reserved, spot and
  // on-demand, on tiny overflows under the 1e-12 floor, and on no demand at all.
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  FleetParams f;
  f.gpus_per_node = 8.0;
  f.idle_kw = 1.5;
  f.peak_kw = 10.2;
  f.perf_cloud = 1.3;
  f.gpus_per_instance = 8.0;
  f.reserved_gpus = 16.0;
  f.spot_share = 0.4;
  f.spot_overhead_factor = 1.07;
  f.cloud_billed_per_gpu = 1.0 / 0.85;
  f.on_demand_usd_per_instance_hour = 98.3;
  f.spot_usd_per_instance_hour = 41.1;
  int billed_both = 0;
  for (int k = 0; k < 5000; ++k) {
    HourInputs in;
    in.demand_gpus = k % 50 == 0 ? 0.0 : k % 50 == 1 ? 5e-13 : 200.0 * unit(rng);
    in.nodes_up = 0.0;
    in.work_rate = unit(rng) < 0.1 ? 0.8 : 1.0;
    in.pue = 1.1 + unit(rng);
    in.usd_per_kwh = 0.2 * unit(rng);
    in.cloud_price_factor = 0.9 + 0.2 * unit(rng);
    in.spot_available = unit(rng) < 0.2 ? 0.0 : 1.0;
    in.spot_preemption_factor = 1.0 + unit(rng);
    in.spot_price_multiplier = 0.5 + unit(rng);
    for (const bool power_of_two : {false, true}) {
      const HourOutcome a = power_of_two ? step_hour(f, in, 0.0, PowerOfTwoDivision{}) : step_hour(f, in, 0.0);
      const HourOutcome b =
          power_of_two ? step_cloud_only_hour(f, in, PowerOfTwoDivision{}) : step_cloud_only_hour(f, in);
      REQUIRE(std::memcmp(&a, &b, sizeof a) == 0);
    }
    const HourOutcome o = step_hour(f, in, 0.0);
    billed_both += o.spot_usd > 0.0 && o.on_demand_usd > 0.0 ? 1 : 0;
  }
  CHECK(billed_both > 1000);  // the hours really reach spot and on-demand
}

}  // namespace tco::test
