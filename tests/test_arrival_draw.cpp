// The next generation's arrival month drawn per Monte Carlo path (models/next_generation/
// arrival_draw.hpp; docs/model.md "Next generation"): the draw by hand, every fluid Monte Carlo
// path equal to the hourly model run at that path's month, a draw that cannot vary equal to the
// fixed month bit for bit, every replay path equal to the replay at its month, the share of
// paths by month against the distribution, the report's figures, and the bad inputs.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "cli/report_pipeline.hpp"
#include "des_support.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "models/next_generation/arrival_draw.hpp"
#include "models/next_generation/next_generation.hpp"
#include "models/workload/workload.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

ArrivalDraw triangular(double low, double mode, double high) {
  ArrivalDraw a;
  a.drawn = 1;
  a.low_months = low;
  a.mode_months = mode;
  a.high_months = high;
  return a;
}

// 16 GPUs steady for 24 months on the round-number catalog, discount 8%: renting two $16/h
// test/gpu8 instances on demand, reserving them a year at a time, or owning two test-node-8
// nodes (residual on, 30% decline a year). All three carry the GPU "ref-gpu"; the successor
// makes its rentals x0.7 and its resale value x0.55.
Json drawn_scenario(const Json& arrival_month) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 24;
  doc["discount_rate_per_year"] = 0.08;
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}},
                  {{"name", "reserved"}, {"kind", "cloud"}, {"reserved_instances", 2}, {"reserved_term_years", 1}},
                  {{"name", "buy-2"}, {"kind", "onprem"}, {"onprem_nodes", 2}}};
  doc["baseline"] = "cloud";
  doc["next_generation"] = {{"predecessor_gpu", "ref-gpu"},
                            {"arrival_month", arrival_month},
                            {"rental_price_step_factor", 0.7},
                            {"resale_step_factor", 0.55}};
  return doc;
}

const Json kTriangular = {{"type", "triangular"}, {"low_months", 3}, {"mode_months", 8}, {"high_months", 18}};

}  // namespace

TEST_CASE("next generation: the drawn arrival month by hand") {
  const ArrivalDraw a = triangular(3, 8, 18);
  // F(mode) = (8 - 3) / (18 - 3) = 1/3. u = 0.5 >= 1/3: 18 - sqrt(0.5 x 15 x 10) = 18 - 8.6603 = 9.3397.
  CHECK(arrival_draw_months(a, 0.5) == doctest::Approx(18.0 - std::sqrt(75.0)).epsilon(1e-15));
  CHECK(planned_arrival_month(a) == 10);
  // u = 0.1 < 1/3: 3 + sqrt(0.1 x 15 x 5) = 3 + 2.7386 = 5.7386 -> month 6.
  CHECK(arrival_draw_months(a, 0.1) == doctest::Approx(3.0 + std::sqrt(7.5)).epsilon(1e-15));
  CHECK(whole_arrival_month(arrival_draw_months(a, 0.1)) == 6);
  // A whole number stays (8.0 -> 8, not 9); the far tail is cut at 600 months; never below 0.
  CHECK(whole_arrival_month(8.0) == 8);
  CHECK(whole_arrival_month(8.000001) == 9);
  CHECK(whole_arrival_month(1e9) == 600);
  CHECK(whole_arrival_month(0.0) == 0);
  // Lognormal: median 9, sigma 0.5 at u = 0.5 is the median, 9 -> month 9.
  ArrivalDraw l;
  l.drawn = 1;
  l.lognormal = 1;
  l.median_months = 9.0;
  l.sigma = 0.5;
  CHECK(planned_arrival_month(l) == 9);
}

TEST_CASE("next generation: every fluid Monte Carlo path equals the hourly model at its drawn month") {
  const Scenario s = load_scenario_json(drawn_scenario(kTriangular), "drawn.json", ".");
  REQUIRE(s.next_generation->arrival_draw.drawn == 1);
  CHECK(s.next_generation->arrival_month == 10);  // the median's month, as the deterministic run's
  const long paths = 40;
  const std::uint64_t seed = 11;
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, paths, seed, 2);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  std::vector<int> months_seen;
  for (long k = 0; k < paths; ++k) {
    const int month = arrival_month_on_path(s.next_generation->arrival_draw, seed, static_cast<std::uint32_t>(k));
    months_seen.push_back(month);
    const Scenario at = with_arrival_month(s, month);
    for (std::size_t j = 0; j < s.plans.size(); ++j) {
      INFO("path " << k << " month " << month << " plan " << s.plans[j].name);
      // No other random input: the path is the hourly model at its month (summed in the kernel's order).
      CHECK(mc.npv_by_path[j][k] == doctest::Approx(evaluate_plan(at, at.plans[j], demand).npv_usd).epsilon(1e-11));
    }
  }
  // The paths drew several months, on both sides of the reserved plan's renewal (month 12).
  std::sort(months_seen.begin(), months_seen.end());
  CHECK(std::unique(months_seen.begin(), months_seen.end()) - months_seen.begin() >= 5);
  CHECK(months_seen.front() < 12);
  CHECK(months_seen.back() >= 12);
}

TEST_CASE("next generation: a lognormal arrival month prices each path at its own month") {
  // Lognormal, median 8 months, sigma 0.5: P(A > 12) = P(z > ln(12 / 8) / 0.5 = 0.81) = 0.21, so
  // some of 40 paths renew the reserved term of month 12 before the successor arrives.
  const Json lognormal = {{"type", "lognormal"}, {"median_months", 8}, {"sigma", 0.5}};
  const Scenario s = load_scenario_json(drawn_scenario(lognormal), "drawn.json", ".");
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, 40, 13, 2);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  int after_renewal = 0;
  for (long k = 0; k < 40; ++k) {
    const int month = arrival_month_on_path(s.next_generation->arrival_draw, 13, static_cast<std::uint32_t>(k));
    after_renewal += month > 12 ? 1 : 0;
    const Scenario at = with_arrival_month(s, month);
    for (std::size_t j = 0; j < s.plans.size(); ++j) {
      INFO("path " << k << " month " << month << " plan " << s.plans[j].name);
      CHECK(mc.npv_by_path[j][k] == doctest::Approx(evaluate_plan(at, at.plans[j], demand).npv_usd).epsilon(1e-11));
    }
  }
  CHECK(after_renewal > 0);
}

TEST_CASE("next generation: a draw that cannot vary equals the fixed month bit for bit") {
  const Json point = {{"type", "triangular"}, {"low_months", 8}, {"mode_months", 8}, {"high_months", 8}};
  const Scenario drawn = load_scenario_json(drawn_scenario(point), "drawn.json", ".");
  const Scenario fixed = load_scenario_json(drawn_scenario(8), "fixed.json", ".");
  const FluidMonteCarloRun a = run_fluid_monte_carlo(drawn, 12, 5, 2);
  const FluidMonteCarloRun b = run_fluid_monte_carlo(fixed, 12, 5, 2);
  for (std::size_t j = 0; j < fixed.plans.size(); ++j)
    for (std::size_t k = 0; k < 12; ++k) CHECK(a.npv_by_path[j][k] == b.npv_by_path[j][k]);
}

TEST_CASE("next generation: every replay path equals the replay of the scenario written at its drawn month") {
  // The discrete-event Monte Carlo replays path p in the world of its month A_p
  // (engine/montecarlo/replay_worlds.hpp): the same jobs, the cloud plan's prices stepped from A_p,
  // the owned plan's resale value stepped when A_p < 12. So each path is, bit for bit, path p of
  // the scenario written with arrival_month A_p.
  Json doc = des_scenario_json({{"poisson", {{"jobs_per_hour", 2}, {"duration_median_h", 3}, {"gpus", {{"8", 1.0}}}}}});
  doc["horizon_months"] = 12;
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "own-2"}, {"kind", "hybrid"}, {"onprem_nodes", 2}}};
  doc["baseline"] = "cloud";
  doc["next_generation"] = {
      {"predecessor_gpu", "ref-gpu"},
      {"arrival_month", {{"type", "triangular"}, {"low_months", 1}, {"mode_months", 4}, {"high_months", 14}}},
      {"rental_price_step_factor", 0.6},
      {"resale_step_factor", 0.5}};
  const Scenario s = load_des_scenario(doc);
  MonteCarloOptions options;
  options.paths = 6;
  options.seed = 21;
  options.threads = 2;
  const MonteCarloRun drawn = run_monte_carlo(s, options);
  std::map<int, MonteCarloRun> by_month;
  for (long k = 0; k < 6; ++k) {
    const int month = arrival_month_on_path(s.next_generation->arrival_draw, 21, static_cast<std::uint32_t>(k));
    if (!by_month.count(month)) {
      Json fixed = doc;
      fixed["next_generation"]["arrival_month"] = month;
      by_month.emplace(month, run_monte_carlo(load_des_scenario(fixed), options));
    }
    for (std::size_t j = 0; j < 2; ++j) {
      INFO("path " << k << " month " << month << " plan " << j);
      CHECK(drawn.npv_by_path[j][k] == by_month.at(month).npv_by_path[j][k]);
    }
  }
  CHECK(by_month.size() >= 2);
  // The report says which months the paths drew.
  const Json report = cli::make_report(s, options, RunMetadata{"run", 2});
  CHECK(report.at("next_generation").at("arrival_month_over_paths").at("paths") == 6);
  CHECK(markdown_summary(report).find("over the 6 paths") != std::string::npos);
}

TEST_CASE("next generation: the share of paths by arrival month follows the distribution") {
  // Triangular(3, 8, 18): P(month <= 6) = P(x <= 6) = (6 - 3)^2 / (15 x 5) = 9 / 75 = 0.12;
  // P(month <= 12) = 1 - (18 - 12)^2 / (15 x 10) = 1 - 36 / 150 = 0.76. Binomial standard error
  // over 4,000 paths: sqrt(0.12 x 0.88 / 4000) = 0.0051, sqrt(0.76 x 0.24 / 4000) = 0.0068.
  const ArrivalDraw a = triangular(3, 8, 18);
  const long paths = 4000;
  long by_6 = 0, by_12 = 0;
  for (long k = 0; k < paths; ++k) {
    const int m = arrival_month_on_path(a, 3, static_cast<std::uint32_t>(k));
    by_6 += m <= 6 ? 1 : 0;
    by_12 += m <= 12 ? 1 : 0;
    CHECK(m >= 3);
    CHECK(m <= 18);
  }
  CHECK(std::fabs(static_cast<double>(by_6) / paths - 0.12) < 4 * std::sqrt(0.12 * 0.88 / paths));
  CHECK(std::fabs(static_cast<double>(by_12) / paths - 0.76) < 4 * std::sqrt(0.76 * 0.24 / paths));
}

TEST_CASE("next generation: the report gives the drawn month, its median and the months over the paths") {
  const Scenario s = load_scenario_json(drawn_scenario(kTriangular), "drawn.json", ".");
  MonteCarloOptions options;
  options.paths = 200;
  options.seed = 7;
  options.threads = 2;
  const Json report = cli::make_report(s, options, RunMetadata{"run", 2});
  const Json& g = report.at("next_generation");
  CHECK(g.at("arrival_month") == 10);
  CHECK(g.at("arrival_month_drawn") == kTriangular);
  CHECK(report.at("inputs").at("next_generation").at("arrival_month") == kTriangular);
  const Json& o = g.at("arrival_month_over_paths");
  double sum = 0.0;
  long inside = 0;
  for (long k = 0; k < 200; ++k) {
    const int m = arrival_month_on_path(s.next_generation->arrival_draw, 7, static_cast<std::uint32_t>(k));
    sum += m;
    inside += m < 24 ? 1 : 0;
  }
  CHECK(o.at("paths") == 200);
  CHECK(o.at("mean").get<double>() == doctest::Approx(sum / 200.0).epsilon(1e-12));
  CHECK(o.at("share_inside_horizon").get<double>() == doctest::Approx(inside / 200.0).epsilon(1e-12));
  CHECK(inside == 200);  // triangular(3, 8, 18) never reaches month 24
  const std::string md = markdown_summary(report);
  CHECK(md.find("in a month drawn per path (triangular 3 / 8 / 18 months; the deterministic figures take month 10, the median's") !=
        std::string::npos);
  CHECK(md.find("over the 200 paths: mean") != std::string::npos);
}

TEST_CASE("bad input: a drawn arrival month is checked with exit 2, naming its JSON pointer") {
  struct Case {
    const char* name;
    Json arrival;
    const char* pointer;
    const char* says;
  };
  const Case cases[] = {
      {"mode-below-low", {{"type", "triangular"}, {"low_months", 8}, {"mode_months", 3}, {"high_months", 18}},
       "/next_generation/arrival_month/mode_months", "mode_months >= low_months"},
      {"uniform", {{"type", "uniform"}, {"low_months", 3}, {"high_months", 18}}, "/next_generation/arrival_month/type",
       "triangular"},
      {"no-high", {{"type", "triangular"}, {"low_months", 3}, {"mode_months", 8}}, "/next_generation/arrival_month/high_months",
       "required"},
      {"sigma", {{"type", "lognormal"}, {"median_months", 9}, {"sigma", -1}}, "/next_generation/arrival_month/sigma",
       "-1"},
      {"text", "month eight", "/next_generation/arrival_month", "integer"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    check_run_and_validate_refuse(std::string("arrival-bad-") + c.name, drawn_scenario(c.arrival), c.pointer, c.says);
  }
}

}  // namespace tco::test
