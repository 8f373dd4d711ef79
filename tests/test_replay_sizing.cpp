// Base-load sizing in the discrete-event replay (engine/decisions/replay_sizing.hpp, issue #44):
// the replay's curve equals the fluid model's where the two models agree (whole-node jobs that
// never wait), the neighbouring-N differences are paired (their standard error far below that
// of independent runs), the bracketing search (engine/decisions/sizing_search.hpp) finds the
// optimum of evaluating every N with fewer points, and the bytes do not depend on the threads.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/decisions/sizing_search.hpp"
#include "reports/html/html_charts.hpp"
#include "reports/json/decisions_json.hpp"
#include "reports/markdown/sizing_markdown.hpp"

using namespace tco;
using namespace tco::test;

namespace {

SizingResult size(const Json& doc, SizingOptions o) {
  return optimize_sizing(doc, "test-scenario.json", source_path("tests"), "", o);
}

SizingOptions options(long from, long to, const std::string& search, int threads = 1) {
  SizingOptions o;
  o.nodes = {from, to, 1};
  o.search = search;
  o.threads = threads;
  return o;
}

// Poisson jobs of 4 or 8 GPUs (median 3 h) on the fixture's 8-GPU nodes that fail twice a
// node-year, demand growth drawn per path: every random source of the replay is on.
Json random_jobs_scenario(double jobs_per_hour, std::uint64_t seed, long paths) {
  Json doc = des_scenario_json(
      {{"poisson", {{"jobs_per_hour", jobs_per_hour}, {"duration_median_h", 3}, {"gpus", {{"4", 0.5}, {"8", 0.5}}}}}});
  doc["onprem"]["failures"] = {{"afr_per_year", 2.0}, {"repair_h", 48}};
  doc["monte_carlo"] = {{"paths", paths}, {"seed", seed}, {"demand_growth_sigma_per_year", 0.3}};
  return doc;
}

const SizingPoint* point_at(const SizingResult& r, long nodes) {
  for (const auto& p : r.points)
    if (p.nodes == nodes) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("replay sizing: whole-node jobs that never wait give the fluid model's curve at every N, to 1e-9") {
  // 16 GPUs steady for 12 months: two 8-GPU jobs of 24 h renewed back to back (the replay), or
  // 16 GPUs every hour (the fluid model). With max_wait_h 0 a job that finds no free node
  // bursts at once, for its 24 h, as the fluid model's hour bursts: N = 0 rents 2 instances, N = 1
  // owns one and rents one, N >= 2 rents none; no random input is on, so every path is alike.
  Json hourly = base_scenario_json();
  hourly["plans"][1]["scheduling"] = {{"max_wait_h", 0}};
  hourly["monte_carlo"] = {{"paths", 2}, {"seed", 3}};
  Json jobs = hourly;
  jobs.erase("workload");
  jobs["jobs"] = {{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}};
  const SizingResult fluid = size(hourly, options(0, 4, "all"));
  const SizingResult replay = size(jobs, options(0, 4, "all"));
  CHECK(fluid.model == "monte_carlo_hourly_fluid");
  CHECK(replay.model == "monte_carlo_discrete_event");
  REQUIRE(replay.points.size() == 5);
  REQUIRE(fluid.points.size() == 5);
  for (std::size_t i = 0; i < 5; ++i) {
    INFO("N = " << replay.points[i].nodes);
    CHECK(replay.points[i].nodes == fluid.points[i].nodes);
    CHECK(replay.points[i].npv_usd.mean == doctest::Approx(fluid.points[i].npv_usd.mean).epsilon(1e-9));
    CHECK(replay.points[i].npv_usd.p90 == doctest::Approx(fluid.points[i].npv_usd.p90).epsilon(1e-9));
    CHECK(replay.points[i].npv_usd.cvar95 == doctest::Approx(fluid.points[i].npv_usd.cvar95).epsilon(1e-9));
    CHECK(replay.points[i].saving_usd.mean == doctest::Approx(fluid.points[i].saving_usd.mean).epsilon(1e-9));
    CHECK(replay.points[i].service->waited_gpu_hours == 0.0);
    CHECK(replay.points[i].service->meets_limits);
  }
  // Owning the second node saves the second instance: 8,760 h x $16 = $140,160 of cloud against
  // the node's $200,000 + 6% maintenance + $1,000/month colocation ... the fluid model's ledger;
  // both models pick N = 2 (the demand, in whole nodes) by every measure.
  for (const char* m : kRiskMeasures) CHECK(replay.points[replay.best_for(m).point].nodes ==
                                            fluid.points[fluid.best_for(m).point].nodes);
}

TEST_CASE("replay sizing: the differences between neighbouring N are paired, far below independent runs' error") {
  const SizingResult r = size(random_jobs_scenario(1.5, 5, 16), options(0, 5, "all"));
  REQUIRE(r.points.size() == 6);
  for (std::size_t i = 1; i < r.points.size(); ++i) {
    const SizingPoint &a = r.points[i - 1], &b = r.points[i];
    REQUIRE(b.minus_previous_usd.has_value());
    // The paired mean is the difference of the means; its error is that of d_p = NPV_b,p - NPV_a,p.
    CHECK(b.minus_previous_usd->mean == doctest::Approx(b.npv_usd.mean - a.npv_usd.mean).epsilon(1e-9));
    // Two independent runs of 16 paths each would give sqrt(se_a^2 + se_b^2).
    const double unpaired = std::sqrt(a.npv_usd.stderr_ * a.npv_usd.stderr_ + b.npv_usd.stderr_ * b.npv_usd.stderr_);
    const double paired = b.minus_previous_usd->stderr_;
    MESSAGE("N = " << b.nodes << ": paired stderr " << paired << ", unpaired " << unpaired << ", ratio "
                   << paired / unpaired);
    CHECK(paired < 0.5 * unpaired);
  }
}

TEST_CASE("replay sizing: the bracketing search finds every measure's optimum with fewer points, on generated scenarios") {
  // Three loads (a node's worth to four nodes' worth of GPUs), each with its own seed. Under the
  // sanitizers the middle one (the three took about 27 s of that pass: the same code three times).
  std::vector<std::pair<double, std::uint64_t>> loads{{0.6, 1}, {1.5, 2}, {3.0, 3}};
  if (kUnderSanitizers) loads = {{1.5, 2}};
  for (const auto& load : loads) {
    // Named copies, not a structured binding: doctest's INFO captures them in a lambda (clang 14).
    const double rate = load.first;
    const std::uint64_t seed = load.second;
    {
      INFO("jobs per hour " << rate << ", seed " << seed);
      const Json doc = random_jobs_scenario(rate, seed, 4);
      const SizingResult all = size(doc, options(0, 20, "all", 2));
      const SizingResult search = size(doc, options(0, 20, "bracket", 2));
      CHECK(all.points.size() == 21);
      CHECK(search.search == "bracket");
      CHECK(search.points.size() < 16);
      CHECK(search.evaluated_order.size() == search.points.size());
      for (const char* m : kRiskMeasures) {
        const long best = all.points[all.best_for(m).point].nodes;
        CHECK(search.points[search.best_for(m).point].nodes == best);
        // Confirmed against its neighbours: both were evaluated.
        if (best > 0) CHECK(point_at(search, best - 1) != nullptr);
        if (best < 20) CHECK(point_at(search, best + 1) != nullptr);
      }
      // Common random numbers: a point's NPV on every path is the same whichever round evaluated it.
      for (const auto& p : search.points) CHECK(p.npv_by_path_usd == point_at(all, p.nodes)->npv_by_path_usd);
    }
  }
}

TEST_CASE("sizing search: on convex curves the search ends on the minimum, its neighbours evaluated") {
  // f(i) = (i - m)^2 over 33 counts: s0 = ceil(32 / 8) = 4, 9 coarse points, then 2 and 2 more.
  for (std::size_t m = 0; m < 33; ++m) {
    std::vector<bool> seen(33, false);
    const SearchTrace t = bracket_search(
        33, [&](const std::vector<std::size_t>& next) { for (std::size_t i : next) seen[i] = true; },
        [&] {
          std::size_t best = 33;
          for (std::size_t i = 0; i < 33; ++i)
            if (seen[i] && (best == 33 || std::abs(double(i) - double(m)) < std::abs(double(best) - double(m)))) best = i;
          return std::vector<std::size_t>{best};
        });
    INFO("m = " << m);
    CHECK(seen[m]);
    CHECK(t.order.size() <= 13);
    CHECK(t.order.front() == 0);
  }
}

TEST_CASE("replay sizing: the same bytes for 1 and 2 threads, searched or not") {
  const Json doc = random_jobs_scenario(0.8, 9, 4);
  for (const char* search : {"all", "bracket"}) {
    const std::string one = sizing_json(size(doc, options(0, 14, search, 1))).dump();
    const std::string two = sizing_json(size(doc, options(0, 14, search, 2))).dump();
    CHECK(one == two);
  }
}

// Issue #42 item 5: optimize weighs the misses time shifting adds. The case
// (test::deferrable_jobs_night_tariff_json, 40 paths, seed 2) sized over 10-13 nodes with the
// plan that shifts; each point is replayed beside its twin without shifting on the same paths.
// Deadline misses over the 40 paths, shifted against the twin (the 10-node point is the report
// test's case, tests/test_time_shift_report.cpp):
//   10 nodes: 4 against 2: 0.10 a path, +0.05 added
//   11 nodes: 2 against 2: 0.05, +0 added
//   12 nodes: 2 against 0: 0.05, +0.05 added
//   13 nodes: 2 against 0: 0.05, +0.05 added
// Against an unshifted 9-node baseline (10 misses: 0.25 a path) every point has no more misses
// than the baseline, so before this rule 10 nodes met the limits and was the answer (mean NPV
// $2,395,890 against $2,618,548 at 11); now only 11 meets them. Against an unshifted 13-node
// baseline (0 misses) none meets them, and the best are chosen among the points where shifting
// adds no miss (11), no longer among all (10).
TEST_CASE("replay sizing: a plan that shifts time meets the limits only where shifting adds no deadline miss") {
  Json doc = deferrable_jobs_night_tariff_json();
  doc["plans"] = Json::array({{{"name", "plain-9"}, {"kind", "hybrid"}, {"onprem_nodes", 9}},
                              {{"name", "plain-13"}, {"kind", "hybrid"}, {"onprem_nodes", 13}},
                              {{"name", "shift"}, {"kind", "hybrid"}, {"onprem_nodes", 10},
                               {"scheduling", {{"time_shift", true}}}}});
  doc["baseline"] = "plain-9";
  SizingOptions o = options(10, 13, "all");
  o.plan = "shift";
  const SizingResult r = size(doc, o);
  REQUIRE(r.points.size() == 4);
  const double misses[4] = {4.0 / 40, 2.0 / 40, 2.0 / 40, 2.0 / 40};
  const double twin[4] = {2.0 / 40, 2.0 / 40, 0.0, 0.0};
  const bool meets[4] = {false, true, false, false};
  for (std::size_t i = 0; i < 4; ++i) {
    const ReplayService& service = *r.points[i].service;
    INFO("N = " << r.points[i].nodes);
    CHECK(r.points[i].nodes == static_cast<long>(10 + i));
    CHECK(service.deadline_misses == doctest::Approx(misses[i]).epsilon(1e-12));
    REQUIRE(service.deadline_misses_without_shifting.has_value());
    CHECK(*service.deadline_misses_without_shifting == doctest::Approx(twin[i]).epsilon(1e-12));
    CHECK(*service.deadline_misses_added_by_shifting == doctest::Approx(misses[i] - twin[i]).epsilon(1e-12));
    CHECK(service.meets_limits == meets[i]);
  }
  CHECK(r.baseline_deadline_misses == doctest::Approx(10.0 / 40).epsilon(1e-12));
  CHECK_FALSE(r.limits_met_by_none);
  CHECK(r.best_chosen_among == "meets_limits");
  for (const char* m : kRiskMeasures) CHECK(r.points[r.best_for(m).point].nodes == 11);
  CHECK(r.points[0].npv_usd.mean < r.points[1].npv_usd.mean);  // 10 is cheaper: the rule, not the cost, rules it out

  const Json sizing = sizing_json(r);
  CHECK(sizing.at("service_limits").at("max_deadline_misses_added_by_shifting") == 0.0);
  CHECK(sizing.at("service_limits").at("best_chosen_among") == "meets_limits");
  CHECK(sizing.at("curve").at(2).at("deadline_misses_added_by_shifting").get<double>() ==
        doctest::Approx(0.05).epsilon(1e-12));
  CHECK(sizing_shifting_sentence(sizing) ==
        "Time shifting adds deadline misses at these node counts (against the same count without shifting, on the "
        "same paths), which therefore do not meet the service limits: 10 (+0.05 a path), 12 (+0.05 a path), 13 "
        "(+0.05 a path).");

  doc["baseline"] = "plain-13";
  const SizingResult none = size(doc, o);
  CHECK(none.baseline_deadline_misses == 0.0);
  for (const auto& p : none.points) CHECK_FALSE(p.service->meets_limits);
  CHECK(none.limits_met_by_none);
  CHECK(none.best_chosen_among == "no_misses_added_by_shifting");
  for (const char* m : kRiskMeasures) CHECK(none.points[none.best_for(m).point].nodes == 11);
  CHECK(none.frontier == std::vector<std::size_t>{1});

  // A plan that does not shift has no twin: no such keys, and the rule is null.
  o.plan = "plain-9";
  o.nodes = {10, 10, 1};
  const Json plain = sizing_json(size(doc, o));
  CHECK_FALSE(plain.at("curve").at(0).contains("deadline_misses_added_by_shifting"));
  CHECK(plain.at("service_limits").at("max_deadline_misses_added_by_shifting").is_null());
  CHECK(sizing_shifting_sentence(plain).empty());
}

TEST_CASE("sizing answer: the efficient frontier of mean against CVaR95 and the reviewer's sentence, by hand") {
  // (mean, CVaR95) = (10, 20), (11, 15), (12, 16), (13, 14): (12, 16) is beaten by (11, 15) on both.
  std::vector<Summary> npv(4);
  const double pairs[4][2] = {{10, 20}, {11, 15}, {12, 16}, {13, 14}};
  for (int i = 0; i < 4; ++i) {
    npv[i].mean = pairs[i][0];
    npv[i].cvar95 = pairs[i][1];
  }
  CHECK(efficient_frontier(npv) == std::vector<std::size_t>{0, 1, 3});
  CHECK(efficient_frontier(npv, {true, false, true, true}) == std::vector<std::size_t>{0, 2, 3});
  const Json two = {{"answer",
                     {{"mean_nodes", 3}, {"mean_npv_usd", 1000000.0}, {"mean_p90_usd", 1200000.0}, {"p90_nodes", 4},
                      {"p90_npv_usd", 1010000.0}, {"p90_usd", 1150000.0}}}};
  CHECK(sizing_answer_sentence(two) ==
        "Own 3 nodes: the cheapest on average (mean NPV $1,000,000, 90th percentile $1,200,000); 4 if you want the "
        "90th percentile no worse than $1,150,000 (mean NPV $1,010,000).");
  Json one = two;
  one["answer"]["p90_nodes"] = 1;
  one["answer"]["mean_nodes"] = 1;
  one["answer"]["p90_usd"] = 1200000.0;
  CHECK(sizing_answer_sentence(one) ==
        "Own 1 node: the cheapest on average (mean NPV $1,000,000), and the lowest 90th percentile too ($1,200,000).");
}

TEST_CASE("sizing answer: the HTML frontier chart names each of its points by its node count") {
  // Three node counts on the frontier, (mean, CVaR95) = ($1.00M, $1.30M), ($1.01M, $1.22M),
  // ($1.05M, $1.20M): the axes show two costs, so only the labels say which count is which.
  Json sizing = {{"answer",
                  {{"mean_nodes", 1}, {"mean_npv_usd", 1000000.0}, {"mean_p90_usd", 1200000.0}, {"p90_nodes", 4},
                   {"p90_npv_usd", 1050000.0}, {"p90_usd", 1150000.0}}},
                 {"best", {{"mean", {{"nodes", 1}}}}},
                 {"curve", Json::array()},
                 {"frontier", Json::array()}};
  const double frontier[3][3] = {{1, 1000000.0, 1300000.0}, {2, 1010000.0, 1220000.0}, {4, 1050000.0, 1200000.0}};
  for (const auto& f : frontier) {
    sizing["curve"].push_back({{"nodes", f[0]}, {"npv_mean_usd", f[1]}, {"npv_p10_usd", f[1]}, {"npv_p90_usd", f[1]}});
    sizing["frontier"].push_back({{"nodes", static_cast<long>(f[0])}, {"reserved_instances", 0}, {"npv_mean_usd", f[1]},
                                  {"npv_p90_usd", f[1]}, {"npv_cvar95_usd", f[2]}});
  }
  Json report;
  report["sizing"] = sizing;
  const std::string html = sizing_section(report);
  CHECK(contains(html, ">1 node: the lowest mean</text>"));
  CHECK(contains(html, ">2 nodes</text>"));
  CHECK(contains(html, ">4 nodes: the lowest CVaR95</text>"));
}
