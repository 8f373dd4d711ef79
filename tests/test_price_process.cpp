// Stochastic price processes (models/price_path/price_process.hpp, docs/model.md §4 "Price
// processes"): the multiplier's analytic mean and variance against its Monte Carlo, zero
// volatility equal to the deterministic schedule bit for bit in the fluid Monte Carlo and the
// replay, a bill's Monte Carlo mean against the deterministic run, the replay's monthly bill
// against the drawn multipliers, and a bad-input test per new input.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"

#include "core/stats/statistics.hpp"
#include "des_support.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "models/price_path/price_process_spec.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

// The process of the scenario's numbers (docs/model.md §4): s = vol / sqrt(12), lambda = jumps / 12.
PriceProcessParams process(double volatility_per_year, double jumps_per_year, double jump_log_size) {
  Json doc = {{"type", "lognormal_jumps"},
              {"volatility_per_year", volatility_per_year},
              {"jumps_per_year", jumps_per_year},
              {"jump_log_size", jump_log_size}};
  JsonObjectReader r(doc, "process.json", "");
  return parse_price_process(r).params;
}

// M_month on `path` (seed 7, on-demand), stepping months 0..month in order.
double multiplier_at(const PriceProcessParams& p, std::uint32_t path, int month) {
  double log_m = 0.0, m_at = 1.0;
  for (int m = 0; m <= month; ++m) m_at = price_process_step(p, 7, path, kPriceKindOnDemand, m, log_m);
  return m_at;
}

// 8 GPUs steady on one test/gpu8 instance ($16/h on-demand, $8/h spot) for `months`, one cloud
// plan, with a price schedule and a process on on-demand prices.
Json process_scenario(int months, const Json& price_process) {
  Json doc = base_scenario_json();
  doc["start"] = "2026-01-01";
  doc["horizon_months"] = months;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 8}}}}};
  doc["cloud"]["price_schedule"] = {{"on_demand", {{"interpolation", "log_linear"},
                                                   {"points", {{{"date", "2026-01-01"}, {"factor", 1.0}},
                                                               {{"date", "2026-06-01"}, {"factor", 0.6}}}}}}};
  if (!price_process.is_null()) doc["cloud"]["price_process"] = price_process;
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  doc["baseline"] = "cloud";
  return doc;
}

const Json kVolatile = {{"on_demand", {{"type", "lognormal_jumps"},
                                       {"volatility_per_year", 0.4},
                                       {"jumps_per_year", 2.0},
                                       {"jump_log_size", -0.3}}}};

}  // namespace

TEST_CASE("price process: the parameters per month and the compensator") {
  // vol 0.3 a year: s = 0.3 / sqrt(12) = 0.08660254; 1 jump a year: lambda = 1/12;
  // J = ln 0.7 = -0.35667494: compensator = -s^2/2 - lambda (e^J - 1) = -0.00375 + 0.3/12 = 0.02125.
  const PriceProcessParams p = process(0.3, 1.0, std::log(0.7));
  CHECK(p.sigma_per_month == doctest::Approx(0.0866025404).epsilon(1e-9));
  CHECK(p.jumps_per_month == doctest::Approx(1.0 / 12.0).epsilon(1e-15));
  CHECK(p.compensator_per_month == doctest::Approx(-0.00375 + 0.025).epsilon(1e-12));
  CHECK(price_process_active(p));
  CHECK_FALSE(price_process_active(process(0.0, 0.0, 0.0)));
}

TEST_CASE("price process: Poisson inversion counts jumps by the CDF") {
  // lambda = 0.5: P(0) = e^-0.5 = 0.60653, P(<=1) = 0.60653 x 1.5 = 0.90980, P(<=2) = 0.98561.
  CHECK(poisson_by_inversion(0.6, 0.5) == 0);
  CHECK(poisson_by_inversion(0.61, 0.5) == 1);
  CHECK(poisson_by_inversion(0.95, 0.5) == 2);
  CHECK(poisson_by_inversion(0.99, 0.5) == 3);
}

TEST_CASE("price process: month 0 is 1 and the multiplier's mean and variance match the analytic values") {
  const PriceProcessParams p = process(0.4, 2.0, -0.3);
  const int month = 12;
  const long paths = 20000;
  std::vector<double> at_month(paths);
  for (long k = 0; k < paths; ++k) {
    CHECK(multiplier_at(p, static_cast<std::uint32_t>(k), 0) == 1.0);
    at_month[k] = multiplier_at(p, static_cast<std::uint32_t>(k), month);
  }
  const Summary s = summarize(at_month);
  // E[M_12] = 1. Var[M_m] = exp(m (s^2 + lambda (e^J - 1)^2)) - 1 with s^2 = 0.16 / 12 = 0.013333,
  // lambda (e^J - 1)^2 = (2 / 12) x (e^-0.3 - 1)^2 = 0.166667 x 0.0671752 = 0.0111959:
  // Var = exp(12 x 0.0245292) - 1 = exp(0.2943505) - 1 = 0.342254, sd 0.58503.
  const double variance = std::exp(12.0 * (0.16 / 12.0 + (2.0 / 12.0) * std::pow(std::expm1(-0.3), 2))) - 1.0;
  CHECK(variance == doctest::Approx(0.342254).epsilon(1e-5));
  CHECK(std::fabs(s.mean - 1.0) < 4.0 * s.stderr_);
  CHECK(s.stderr_ == doctest::Approx(std::sqrt(variance / paths)).epsilon(0.1));
  // The paths do move: not every path is 1.
  CHECK(s.p95 > 1.5);
}

TEST_CASE("price process: zero volatility and no jumps leave every fluid Monte Carlo path bit for bit") {
  const ScenarioOutcome plain = run_scenario_json(process_scenario(12, Json()));
  const ScenarioOutcome zero = run_scenario_json(process_scenario(
      12, {{"on_demand", {{"type", "lognormal_jumps"}, {"volatility_per_year", 0.0}, {"jumps_per_year", 0.0}}}}));
  const FluidMonteCarloRun a = run_fluid_monte_carlo(plain.scenario, 6, 3, 1);
  const FluidMonteCarloRun b = run_fluid_monte_carlo(zero.scenario, 6, 3, 2);
  CHECK(a.npv_by_path == b.npv_by_path);
  // And each path is the deterministic schedule's bill.
  for (const double npv : b.npv_by_path[0]) CHECK(npv == doctest::Approx(plain.plan("cloud").npv_usd).epsilon(1e-12));
  // The deterministic run does not read the process (it is the Monte Carlo's expectation).
  CHECK(zero.plan("cloud").npv_usd == plain.plan("cloud").npv_usd);
}

TEST_CASE("price process: a bill's fluid Monte Carlo mean is the deterministic bill within 4 standard errors") {
  const ScenarioOutcome o = run_scenario_json(process_scenario(12, kVolatile));
  const FluidMonteCarloRun a = run_fluid_monte_carlo(o.scenario, 2000, 5, 2);
  const FluidMonteCarloRun b = run_fluid_monte_carlo(o.scenario, 2000, 5, 1);
  CHECK(a.npv_by_path == b.npv_by_path);  // the thread count changes nothing
  const Summary& npv = a.plans[0].npv_usd;
  const double deterministic = o.plan("cloud").npv_usd;
  INFO("mean " << npv.mean << " stderr " << npv.stderr_ << " deterministic " << deterministic);
  CHECK(npv.stderr_ > 0.01 * deterministic / std::sqrt(2000.0));
  CHECK(std::fabs(npv.mean - deterministic) < 4.0 * npv.stderr_);
}

TEST_CASE("price process: the replay bills each month at the path's multiplier") {
  // One 8-GPU job from t = 0 for 3 months on one instance ($16/h), no schedule: month m bills
  // 730 h x $16 x M_m(path) for m = 1, 2 (whole months of the run).
  // (The scenario's own jobs are not used: the feed below replaces them.)
  Json doc = des_scenario_json({{"poisson", {{"jobs_per_hour", 1}, {"duration_median_h", 1}, {"gpus", {{"8", 1.0}}}}}});
  doc["horizon_months"] = 3;
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  doc["baseline"] = "cloud";
  doc["cloud"]["price_process"] = kVolatile;
  Json plain_doc = doc;
  plain_doc["cloud"].erase("price_process");
  Json zero_doc = doc;
  zero_doc["cloud"]["price_process"]["on_demand"] = {{"type", "lognormal_jumps"}};
  const Scenario s = load_des_scenario(doc);
  const Scenario plain = load_des_scenario(plain_doc);
  const Scenario zero = load_des_scenario(zero_doc);
  const des::DesPlans plans = des::prepare_des_plans(s);
  const des::DesPlans plain_plans = des::prepare_des_plans(plain);
  const des::DesPlans zero_plans = des::prepare_des_plans(zero);
  const PriceProcessParams p = s.plans[0].cloud->price_processes.on_demand_params();
  for (std::uint32_t path = 0; path < 3; ++path) {
    INFO("path " << path);
    const des::PathInputs in{9, path};
    VectorFeed feed({job_at(0.0, 8, 2190.0)});
    const des::PathOutcome o = des::simulate_feed(s, plans.plans[0], feed, in);
    VectorFeed plain_feed({job_at(0.0, 8, 2190.0)});
    const des::PathOutcome base = des::simulate_feed(plain, plain_plans.plans[0], plain_feed, in);
    VectorFeed zero_feed({job_at(0.0, 8, 2190.0)});
    const des::PathOutcome z = des::simulate_feed(zero, zero_plans.plans[0], zero_feed, in);
    const int od = static_cast<int>(Category::cloud_on_demand);
    double log_m = 0.0;
    for (int m = 0; m < 3; ++m) {
      const double mult = price_process_step(p, 9, path, kPriceKindOnDemand, m, log_m);
      CHECK(o.cost_by_month[m][od] == doctest::Approx(base.cost_by_month[m][od] * mult).epsilon(1e-12));
      CHECK(z.cost_by_month[m][od] == base.cost_by_month[m][od]);  // zero volatility: bit for bit
      if (m > 0) CHECK(base.cost_by_month[m][od] == doctest::Approx(730.0 * 16.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("bad input: each price process input is rejected with exit 2, naming its JSON pointer") {
  struct Case {
    const char* name;
    Json process;
    const char* pointer;
    const char* says;
  };
  const Case cases[] = {
      {"type", {{"on_demand", {{"type", "garch"}}}}, "/cloud/price_process/on_demand/type", "garch"},
      {"no-type", {{"on_demand", {{"volatility_per_year", 0.2}}}}, "/cloud/price_process/on_demand/type", "required"},
      {"volatility", {{"on_demand", {{"type", "lognormal_jumps"}, {"volatility_per_year", -0.1}}}},
       "/cloud/price_process/on_demand/volatility_per_year", "found number -0.1"},
      {"volatility-high", {{"on_demand", {{"type", "lognormal_jumps"}, {"volatility_per_year", 30}}}},
       "/cloud/price_process/on_demand/volatility_per_year", "found number 30"},
      {"jumps", {{"spot", {{"type", "lognormal_jumps"}, {"jumps_per_year", 13}, {"jump_log_size", -0.2}}}},
       "/cloud/price_process/spot/jumps_per_year", "found number 13"},
      {"jump-size", {{"on_demand", {{"type", "lognormal_jumps"}, {"jumps_per_year", 1}, {"jump_log_size", -5}}}},
       "/cloud/price_process/on_demand/jump_log_size", "found number -5"},
      {"jump-size-missing", {{"on_demand", {{"type", "lognormal_jumps"}, {"jumps_per_year", 1}}}},
       "/cloud/price_process/on_demand/jump_log_size", "jumps_per_year is above 0"},
      {"reserved", {{"reserved", {{"type", "lognormal_jumps"}}}}, "/cloud/price_process/reserved", "term starts"},
      {"kind", {{"capacity_block", {{"type", "lognormal_jumps"}}}}, "/cloud/price_process/capacity_block",
       "unknown key"},
      {"key", {{"on_demand", {{"type", "lognormal_jumps"}, {"sigma", 0.2}}}}, "/cloud/price_process/on_demand/sigma",
       "unknown key"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    check_run_and_validate_refuse(std::string("price-process-bad-") + c.name, process_scenario(3, c.process), c.pointer,
                                  c.says);
  }
}

}  // namespace tco::test

namespace tco::test {

TEST_CASE("implied forward: the report shows it beside the schedule in JSON, Markdown, HTML and CSV") {
  // test/gpu8: P1 = $12/h, P3 = $10/h. At r = 8%: with q^12 = 1 / 1.08, A(0, 12) / A(12, 36) =
  // 1 / (q^12 (1 + q^12)) = 1.08^2 / 2.08 = 0.5607692; F = 10 - 2 x 0.5607692 = $8.8784615/h,
  // per GPU 8.8784615 / 8 = $1.1098077, vs P1: 8.8784615 / 12 - 1 = -26.01%.
  Json doc = base_scenario_json();
  doc["discount_rate_per_year"] = 0.08;
  const ScenarioOutcome o = run_scenario_json(doc);
  const Json report = o.report();
  REQUIRE(report.at("pricing").contains("implied_forwards"));
  const Json& forwards = report.at("pricing").at("implied_forwards");
  REQUIRE(forwards.size() == 1);  // two plans, one offer
  const Json& f = forwards[0];
  const double forward = 10.0 - 2.0 * 1.1664 / 2.08;
  CHECK(f.at("offer") == "test/gpu8/region-a");
  CHECK(f.at("reserved_1y_usd_per_instance_hour").get<double>() == 12.0);
  CHECK(f.at("reserved_3y_usd_per_instance_hour").get<double>() == 10.0);
  CHECK(f.at("implied_forward_usd_per_instance_hour").get<double>() == doctest::Approx(forward).epsilon(1e-13));
  CHECK(f.at("implied_forward_usd_per_gpu_hour").get<double>() == doctest::Approx(forward / 8.0).epsilon(1e-13));
  CHECK(f.at("forward_change_vs_1y").get<double>() == doctest::Approx(forward / 12.0 - 1.0).epsilon(1e-13));
  CHECK(forward / 12.0 - 1.0 == doctest::Approx(-0.2601282).epsilon(1e-6));
  // Markdown and HTML: $8.878 per instance-hour, $1.110 per GPU-hour, -26.0%.
  const std::string md = markdown_summary(report);
  CHECK(md.find("| test/gpu8/region-a | $12.000 | $10.000 | $8.878 | $1.110 | -26.0% |") != std::string::npos);
  const std::string html = html_report(report);
  CHECK(html.find("<td class=n>$8.878</td><td class=n>$1.110</td><td class=n>-26.0%</td>") != std::string::npos);
  bool csv_found = false;
  for (const auto& [name, text] : csv_tables(report))
    if (name == "implied_forwards.csv") {
      csv_found = true;
      CHECK(text.find("implied_forward_usd_per_instance_hour") != std::string::npos);
      // Columns in the tables' order (offer, 1-year, 3-year, forward, ...), the discount rate last.
      CHECK(text.find("\ntest/gpu8/region-a,12.0,10.0,8.878461538461") != std::string::npos);
    }
  CHECK(csv_found);

  // An offer without a 1-year / 3-year pair: no field, so other reports keep their bytes.
  Json no_pair = base_scenario_json();
  no_pair["cloud"]["offer"] = "test/gpu1/region-a";
  CHECK_FALSE(run_scenario_json(no_pair).report().at("pricing").contains("implied_forwards"));
}

}  // namespace tco::test
