// The scenario's `uncertain` section (models/uncertain.hpp), its draws and rank correlation
// (engine/montecarlo/uncertain_paths.hpp, core/stats/rank_correlation.hpp), and the breakevens under
// uncertainty (engine/decisions/uncertain_breakevens.hpp): quantiles by hand, every loader error naming its
// pointer, Iman-Conover's achieved rank correlation, thread independence, and the deterministic
// limits (zero-width inputs) against the foundation's payback month and breakevens.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/stats/rank_correlation.hpp"
#include "engine/decisions/uncertain_breakevens.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"
#include "engine/decisions/uncertainty_analysis.hpp"
#include "scenario_builder.hpp"

using namespace tco;
using namespace tco::test;

namespace {

constexpr double kZ90 = 1.2815515655446004;  // Phi^-1(0.9)

UncertainDistribution dist(UncertainDistribution::Type type, double a, double b, double c = 0.0) {
  UncertainDistribution d;
  d.type = type;
  switch (type) {
    case UncertainDistribution::Type::uniform: d.low = a; d.high = b; break;
    case UncertainDistribution::Type::triangular: d.low = a; d.mode = b; d.high = c; break;
    case UncertainDistribution::Type::normal: d.mean = a; d.sd = b; break;
    case UncertainDistribution::Type::lognormal: d.median = a; d.sigma = b; break;
  }
  return d;
}

Json input(const std::string& name, const std::string& pointer, const Json& distribution) {
  return {{"name", name}, {"pointer", pointer}, {"distribution", distribution}};
}

Json uniform_json(double low, double high) { return {{"type", "uniform"}, {"low", low}, {"high", high}}; }

// base_scenario_json (16 GPUs steady, 12 months, cloud vs a 2-node hybrid) with three uncertain
// inputs; the staff escalation enters no cost (the plans have no staff).
Json uncertain_scenario() {
  Json doc = base_scenario_json();
  doc["cloud"]["price_change_per_year"] = 0.0;
  doc["onprem"]["staff"] = {{"escalation_per_year", 0.03}};
  doc["monte_carlo"] = {{"paths", 16}, {"seed", 3}};
  doc["uncertain"] = {
      {"inputs",
       {input("cloud price change", "/cloud/price_change_per_year", uniform_json(-0.3, 0.1)),
        input("maintenance", "/onprem/maintenance_per_year",
              {{"type", "triangular"}, {"low", 0.03}, {"mode", 0.06}, {"high", 0.12}}),
        input("staff escalation", "/onprem/staff/escalation_per_year",
              {{"type", "normal"}, {"mean", 0.03}, {"sd", 0.01}})}}};
  return doc;
}

Scenario load(const Json& doc) { return load_scenario_json(doc, "test-scenario.json", source_path("tests")); }

// The InputError the loader throws for the document (fails the test when it loads).
InputError uncertain_load_error(const Json& doc) {
  try {
    load(doc);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("the scenario loaded, an InputError was expected");
  return InputError("", "", "");
}

UncertaintyInputs inputs_of(const Json& doc, long paths) {
  return make_uncertainty_inputs(doc, "test-scenario.json", source_path("tests"), "", paths, std::nullopt);
}

}  // namespace

TEST_CASE("uncertain: the quantile transforms are the closed forms") {
  using T = UncertainDistribution::Type;
  // uniform(2, 10): 2 + 0.25 x 8 = 4
  CHECK(dist(T::uniform, 2, 10).quantile(0.25) == doctest::Approx(4.0).epsilon(1e-15));
  // triangular(0, 2, 10): F(mode) = 0.2; below it sqrt(u x 10 x 2), above it 10 - sqrt((1-u) x 10 x 8)
  const auto tri = dist(T::triangular, 0, 2, 10);
  CHECK(tri.quantile(0.1) == doctest::Approx(std::sqrt(2.0)).epsilon(1e-15));
  CHECK(tri.quantile(0.2) == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(tri.quantile(0.6) == doctest::Approx(10.0 - std::sqrt(32.0)).epsilon(1e-15));
  // A zero-width triangle is its one value.
  CHECK(dist(T::triangular, 3, 3, 3).quantile(0.7) == 3.0);
  // normal(5, 2): P90 = 5 + 2 z_0.9
  CHECK(dist(T::normal, 5, 2).quantile(0.9) == doctest::Approx(5.0 + 2.0 * kZ90).epsilon(1e-14));
  CHECK(dist(T::normal, 5, 2).quantile(0.5) == doctest::Approx(5.0).epsilon(1e-15));
  // lognormal(median 100, sigma 0.5): P50 = 100, P90 = 100 exp(0.5 z_0.9)
  CHECK(dist(T::lognormal, 100, 0.5).quantile(0.5) == doctest::Approx(100.0).epsilon(1e-14));
  CHECK(dist(T::lognormal, 100, 0.5).quantile(0.9) == doctest::Approx(100.0 * std::exp(0.5 * kZ90)).epsilon(1e-14));
}

TEST_CASE("uncertain: the section loads, tornado ends default to P10 and P90, integer fields round") {
  Json doc = uncertain_scenario();
  doc["uncertain"]["inputs"].push_back(
      {{"name", "nodes"}, {"pointer", "/plans/1/onprem_nodes"}, {"distribution", uniform_json(1, 3)}, {"high", 2.6}});
  const Scenario s = load(doc);
  REQUIRE(s.uncertain.has_value());
  const auto& in = s.uncertain->inputs;
  REQUIRE(in.size() == 4);
  CHECK(in[0].base == 0.0);
  // uniform(-0.3, 0.1): P10 = -0.3 + 0.1 x 0.4 = -0.26, P90 = 0.06
  CHECK(in[0].low == doctest::Approx(-0.26).epsilon(1e-14));
  CHECK(in[0].high == doctest::Approx(0.06).epsilon(1e-14));
  CHECK(in[1].base == 0.06);
  // normal(0.03, 0.01): 0.03 -/+ 0.01 z_0.9
  CHECK(in[2].low == doctest::Approx(0.03 - 0.01 * kZ90).epsilon(1e-14));
  CHECK(in[2].high == doctest::Approx(0.03 + 0.01 * kZ90).epsilon(1e-14));
  // An integer field: P10 of uniform(1, 3) = 1.2 -> 1; the given high 2.6 -> 3.
  CHECK(in[3].integer);
  CHECK(in[3].low == 1.0);
  CHECK(in[3].high == 3.0);
  const auto values = draw_uncertain_values(*s.uncertain, 200, 5);
  for (double v : values[3]) CHECK((v == 1.0 || v == 2.0 || v == 3.0));
  // The drawn values are written into the document at the pointers.
  const Json varied = document_with_values(doc, *s.uncertain, {0.05, 0.07, 0.02, 2.0});
  CHECK(varied.at(Json::json_pointer("/cloud/price_change_per_year")) == 0.05);
  CHECK(varied.at(Json::json_pointer("/plans/1/onprem_nodes")).is_number_integer());
}

TEST_CASE("uncertain: a real field written 1 (not 1.0) takes fractions, and a count written 2.0 stays whole") {
  // Issue 43, item 7: the literal's form decided, so waiting_usd_per_gpu_hour: 1 had its draws
  // rounded to whole dollars.
  Json doc = uncertain_scenario();
  doc["waiting_usd_per_gpu_hour"] = 1;
  doc["plans"][1]["onprem_nodes"] = 2.0;
  doc["uncertain"]["inputs"] = Json::array(
      {{{"name", "wait"}, {"pointer", "/waiting_usd_per_gpu_hour"}, {"distribution", uniform_json(0.5, 1.5)}},
       {{"name", "nodes"}, {"pointer", "/plans/1/onprem_nodes"}, {"distribution", uniform_json(1, 3)}}});
  const Scenario s = load(doc);
  REQUIRE(s.uncertain.has_value());
  const auto& in = s.uncertain->inputs;
  CHECK_FALSE(in[0].integer);
  // uniform(0.5, 1.5): P10 = 0.5 + 0.1 x 1 = 0.6, P90 = 1.4 (rounded, they were 1 and 1).
  CHECK(in[0].low == doctest::Approx(0.6).epsilon(1e-14));
  CHECK(in[0].high == doctest::Approx(1.4).epsilon(1e-14));
  // uniform(1, 3): P10 = 1.2 -> 1, P90 = 2.8 -> 3 (unrounded before, as 2.0 is a float literal).
  CHECK(in[1].integer);
  CHECK(in[1].low == 1.0);
  CHECK(in[1].high == 3.0);
  const Json varied = document_with_values(doc, *s.uncertain, {0.75, 2.0});
  CHECK(varied.at(Json::json_pointer("/waiting_usd_per_gpu_hour")) == 0.75);
  CHECK(varied.at(Json::json_pointer("/plans/1/onprem_nodes")).is_number_integer());
}

TEST_CASE("uncertain: every error names the pointer") {
  struct Case {
    const char* what;
    Json section;
    const char* where;
    const char* says;
  };
  const Json ok_input = input("a", "/cloud/price_change_per_year", uniform_json(0, 0.1));
  const Json ok_input_b = input("b", "/onprem/maintenance_per_year", uniform_json(0, 0.1));
  const Json ok_input_c = input("c", "/onprem/staff/escalation_per_year", uniform_json(0, 0.1));
  const std::vector<Case> cases = {
      {"missing pointer", {{"inputs", {input("a", "/cloud/no_such_field", uniform_json(0, 1))}}},
       "/uncertain/inputs/0/pointer", "\"/cloud/no_such_field\" does not exist"},
      {"not a number", {{"inputs", {input("a", "/cloud/offer", uniform_json(0, 1))}}}, "/uncertain/inputs/0/pointer",
       "is not a numeric field"},
      {"distribution low > high", {{"inputs", {input("a", "/cloud/price_change_per_year", uniform_json(0.2, 0.1))}}},
       "/uncertain/inputs/0/distribution/low", "low <= high"},
      {"tornado low > high",
       {{"inputs", {{{"name", "a"}, {"pointer", "/cloud/price_change_per_year"}, {"distribution", uniform_json(0, 1)},
                     {"low", 0.5}, {"high", 0.4}}}}},
       "/uncertain/inputs/0/low", "low <= high"},
      {"mode outside", {{"inputs", {input("a", "/cloud/price_change_per_year",
                                          {{"type", "triangular"}, {"low", 0}, {"mode", 2}, {"high", 1}})}}},
       "/uncertain/inputs/0/distribution/mode", "mode in [low, high]"},
      {"negative sd", {{"inputs", {input("a", "/cloud/price_change_per_year", {{"type", "normal"}, {"mean", 0}, {"sd", -1}})}}},
       "/uncertain/inputs/0/distribution/sd", ">= 0"},
      {"unknown distribution", {{"inputs", {input("a", "/cloud/price_change_per_year", {{"type", "beta"}})}}},
       "/uncertain/inputs/0/distribution/type", "beta"},
      {"the same pointer twice", {{"inputs", {ok_input, input("b", "/cloud/price_change_per_year", uniform_json(0, 1))}}},
       "/uncertain/inputs/1/pointer", "named by two"},
      {"the seed", {{"inputs", {input("a", "/monte_carlo/seed", uniform_json(0, 1))}}}, "/uncertain/inputs/0/pointer",
       "cannot be uncertain"},
      {"unknown key", {{"inputs", {ok_input}}, {"correlation", 1}}, "/uncertain/correlation", "unknown key"},
      {"matrix size", {{"inputs", {ok_input, ok_input_b}}, {"rank_correlation", {{1, 0.5}}}},
       "/uncertain/rank_correlation", "2 x 2 matrix"},
      {"not symmetric", {{"inputs", {ok_input, ok_input_b}}, {"rank_correlation", {{1, 0.5}, {0.4, 1}}}},
       "/uncertain/rank_correlation/1/0", "symmetric"},
      {"diagonal", {{"inputs", {ok_input, ok_input_b}}, {"rank_correlation", {{0.9, 0.5}, {0.5, 1}}}},
       "/uncertain/rank_correlation/0/0", "1 on the diagonal"},
      {"not positive definite",
       {{"inputs", {ok_input, ok_input_b, ok_input_c}},
        {"rank_correlation", {{1, 0.9, -0.9}, {0.9, 1, 0.9}, {-0.9, 0.9, 1}}}},
       "/uncertain/rank_correlation", "positive-definite"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    Json doc = uncertain_scenario();
    doc["uncertain"] = c.section;
    const InputError e = uncertain_load_error(doc);
    CHECK(e.where() == c.where);
    CHECK_MESSAGE(e.message().find(c.says) != std::string::npos, e.what());
    CHECK(e.file() == "test-scenario.json");
  }
}

TEST_CASE("uncertain: Iman-Conover gives the target rank correlation and keeps every marginal sample") {
  UncertainSpec spec;
  for (int i = 0; i < 3; ++i) {
    UncertainInput in;
    in.name = "x" + std::to_string(i);
    in.pointer = "/x" + std::to_string(i);
    in.distribution = i == 0   ? dist(UncertainDistribution::Type::uniform, 0, 1)
                      : i == 1 ? dist(UncertainDistribution::Type::lognormal, 1, 1)
                               : dist(UncertainDistribution::Type::triangular, 0, 1, 4);
    spec.inputs.push_back(in);
  }
  const long n = 2000;
  const auto independent = draw_uncertain_values(spec, n, 42);
  spec.rank_correlation = {{1, 0.7, -0.4}, {0.7, 1, 0.0}, {-0.4, 0.0, 1}};
  const auto correlated = draw_uncertain_values(spec, n, 42);
  // Sampling noise of a rank correlation at n = 2,000 is about 1/sqrt(n) = 0.022; the method
  // matches the scores' correlation exactly, the ranks' to that noise. Tolerance 0.03.
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < i; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(std::fabs(spearman(correlated[i], correlated[j]) - spec.rank_correlation[i][j]) < 0.03);
      // The independent draws are uncorrelated to the same noise.
      CHECK(std::fabs(spearman(independent[i], independent[j])) < 0.06);
    }
  for (int i = 0; i < 3; ++i) {
    auto a = independent[i], b = correlated[i];
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
  }
  // Too few paths to hold the correlation is bad input naming --paths (exit 2), not a crash.
  CHECK_THROWS_WITH_AS(draw_uncertain_values(spec, 3, 1), doctest::Contains("--paths: a rank correlation between 3"),
                       InputError);
}

TEST_CASE("uncertain: paths are the same numbers on 1 and 2 threads, and depend only on (seed, path)") {
  const UncertaintyInputs in = inputs_of(uncertain_scenario(), 12);
  const UncertainPaths one = run_uncertain_paths(in, 1);
  const UncertainPaths two = run_uncertain_paths(in, 2);
  REQUIRE(one.outcomes.size() == 12);
  CHECK(one.values == two.values);
  for (std::size_t p = 0; p < 12; ++p) {
    CHECK(one.outcomes[p].npv_usd == two.outcomes[p].npv_usd);
    CHECK(one.outcomes[p].payback_month == two.outcomes[p].payback_month);
  }
  // Without a rank correlation, the first 12 paths of a 30-path run are these.
  const UncertainPaths more = run_uncertain_paths(inputs_of(uncertain_scenario(), 30), 2);
  for (std::size_t i = 0; i < one.values.size(); ++i)
    CHECK(std::equal(one.values[i].begin(), one.values[i].end(), more.values[i].begin()));
  // A path whose drawn values the scenario rejects names the path, the values and the field.
  Json bad = uncertain_scenario();
  bad["uncertain"]["inputs"][1]["distribution"] = uniform_json(-0.5, -0.1);  // maintenance < 0
  try {
    run_uncertain_paths(inputs_of(bad, 4), 2);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where() == "/uncertain");
    CHECK(e.message().find("Monte Carlo path 0") != std::string::npos);
    CHECK(e.message().find("maintenance_per_year") != std::string::npos);
  }
}

TEST_CASE("uncertain: payback quantiles with never, by hand") {
  // months {3, 5, never, never}: P10 at position 0.3 = 3 + 0.3 x 2 = 3.6; P50 at 1.5 lies between
  // 5 and never: never; half the paths pay back.
  const PaybackDistribution d = payback_distribution({3, std::nullopt, 5, std::nullopt});
  CHECK(d.paths == 4);
  CHECK(d.never_paths == 2);
  CHECK(d.probability_within_horizon == 0.5);
  REQUIRE(d.p10_month.has_value());
  CHECK(*d.p10_month == doctest::Approx(3.6).epsilon(1e-15));
  CHECK_FALSE(d.p50_month.has_value());
  CHECK_FALSE(d.p90_month.has_value());
}

TEST_CASE("uncertain: zero-width inputs collapse every distribution onto the foundation's deterministic run") {
  // payback.json: the node pays back in month 18 (its description), the 10-million-dollar node
  // never; a zero-width input (maintenance 0 exactly, as written) changes nothing.
  Json doc = fixture_json("payback.json");
  doc["onprem"]["maintenance_per_year"] = 0.0;
  doc["uncertain"] = {{"inputs", {input("maintenance", "/onprem/maintenance_per_year", uniform_json(0, 0))}}};
  const ScenarioOutcome foundation = run_scenario_json(doc);
  REQUIRE(foundation.comparison("buy-1").payback_month == std::optional<int>(18));
  REQUIRE_FALSE(foundation.comparison("buy-1-pricey").payback_month.has_value());

  const UncertaintyInputs in = inputs_of(doc, 9);
  const UncertaintyAnalysis a = analyse_uncertainty(in, "buy-1", 2);
  REQUIRE(a.breakevens.payback.size() == 2);
  const PaybackDistribution& buy = a.breakevens.payback[0];
  CHECK(buy.plan == "buy-1");
  CHECK(buy.p10_month == std::optional<double>(18.0));
  CHECK(buy.p50_month == std::optional<double>(18.0));
  CHECK(buy.p90_month == std::optional<double>(18.0));
  CHECK(buy.probability_within_horizon == 1.0);
  CHECK(buy.base_payback_month == std::optional<int>(18));
  const PaybackDistribution& pricey = a.breakevens.payback[1];
  CHECK(pricey.never_paths == 9);
  CHECK(pricey.probability_within_horizon == 0.0);
  CHECK_FALSE(pricey.p50_month.has_value());

  // The price breakeven on the common-random-number mean is the deterministic one.
  const auto k = foundation.price_breakeven("buy-1").cloud_price_multiplier;
  REQUIRE(k.has_value());
  REQUIRE(a.breakevens.price[0].crn_mean_multiplier.has_value());
  CHECK(*a.breakevens.price[0].crn_mean_multiplier == doctest::Approx(*k).epsilon(1e-9));
  // The saving does not vary: no regression coefficient, no R^2; the tornado bar is zero.
  CHECK_FALSE(a.src.src[0].has_value());
  CHECK_FALSE(a.src.r_squared.has_value());
  CHECK(a.saving_usd.stderr_ == 0.0);
  CHECK(a.saving_usd.mean == doctest::Approx(foundation.comparison("buy-1").npv_saving_usd).epsilon(1e-12));
  REQUIRE(a.tornado.bars.size() == 1);
  CHECK(a.tornado.bars[0].swing_usd == 0.0);
  // Every plan's statistics collapse onto its deterministic NPV; the difference is the negated
  // saving, and P(cheaper) is 1 for the plan that pays back, 0 for the one that never does.
  REQUIRE(a.plans.size() == foundation.run.plans.size());
  for (std::size_t k = 0; k < a.plans.size(); ++k) {
    CHECK(a.plans[k].name == foundation.run.plans[k].name);
    CHECK(a.plans[k].npv_usd.mean == doctest::Approx(foundation.run.plans[k].npv_usd).epsilon(1e-12));
    CHECK(a.plans[k].npv_usd.cvar95 == doctest::Approx(foundation.run.plans[k].npv_usd).epsilon(1e-12));
    CHECK(a.plans[k].npv_usd.n == 9);
  }
  CHECK_FALSE(a.plans[foundation.scenario.baseline_index].npv_difference_usd.has_value());
  for (const auto& p : a.plans) {
    if (!p.npv_difference_usd) continue;
    CHECK(p.npv_difference_usd->mean ==
          doctest::Approx(-foundation.comparison(p.name).npv_saving_usd).epsilon(1e-12));
    CHECK(p.p_cheaper == (p.name == "buy-1" ? 1.0 : 0.0));
  }
}

TEST_CASE("uncertain: the simulated utilization breakeven equals the closed form on the closed form's premises") {
  // One 8-GPU node over its 3-year life = the horizon, 1-GPU instances, one node per rack, no
  // fixed FTEs (the closed form's premises, test_optimize.cpp): at the price that puts u* at 1/2,
  // the saving of the one-node hybrid crosses zero at a steady 4 GPUs: u_sim = 1/2.
  double annuity = 0.0;
  for (int m = 0; m < 36; ++m) annuity += std::pow(1.08, -(m + 1) / 12.0);
  const double pv_fixed_usd = 200000.0 + 3719.0 * annuity - 68600.0 * std::pow(1.08, -3.0);
  const double price_usd = (2.0 * pv_fixed_usd / annuity + 876.0) / 5840.0;
  Json doc = base_scenario_json();
  doc["horizon_months"] = 36;
  doc["discount_rate_per_year"] = 0.08;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 20}}}}};
  doc["cloud"] = {{"offer", {{"id", "test/gpu1/region-a"}, {"on_demand_usd_per_hour", price_usd}}}};
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 10}};
  doc["onprem"]["depreciation"] = {{"life_years", 3}};
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["onprem"]["staff"] = {{"fixed_fte", 0}, {"fte_per_node", 0.1}, {"usd_per_fte_year", 120000}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "buy-1"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  doc["uncertain"] = {{"inputs", {input("maintenance", "/onprem/maintenance_per_year", uniform_json(0.06, 0.06))}}};
  const UncertaintyInputs in = inputs_of(doc, 3);
  const UncertaintyAnalysis a = analyse_uncertainty(in, "", 2);
  const SimulatedUtilizationBreakeven& u = a.breakevens.utilization;
  CHECK(u.plan == "buy-1");
  CHECK(u.status == "ok");
  CHECK(u.capacity_gpus == 8.0);
  REQUIRE(u.closed_form_utilization.has_value());
  CHECK(*u.closed_form_utilization == doctest::Approx(0.5).epsilon(1e-12));
  REQUIRE(u.steady_demand_gpus.has_value());
  CHECK(*u.steady_demand_gpus == doctest::Approx(4.0).epsilon(1e-8));
  REQUIRE(u.utilization.has_value());
  CHECK(*u.utilization == doctest::Approx(0.5).epsilon(1e-8));

  // Dearer cloud: the node pays at a lower load; a cloud at a tenth of the price: never.
  doc["cloud"]["offer"]["on_demand_usd_per_hour"] = 0.1 * price_usd;
  const UncertaintyAnalysis never = analyse_uncertainty(inputs_of(doc, 3), "buy-1", 1);
  CHECK(never.breakevens.utilization.status == "never");
  CHECK_FALSE(never.breakevens.utilization.utilization.has_value());
}
