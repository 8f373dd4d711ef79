// The two-regime price process (models/price_path/price_process.hpp, docs/model.md §4 "Price
// processes"): its normalisation by hand, the regime share, mean and variance of the multiplier
// against their analytic values within 4 standard errors, the month-to-month correlation, equal
// levels equal to the deterministic schedule bit for bit on every fluid Monte Carlo path, a
// bill's Monte Carlo mean against the deterministic run, and a bad-input test per new input.
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"

#include "core/stats/statistics.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "models/price_path/price_process_spec.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

Json regime_json(double glut_level, double shortage_level, double a, double b) {
  return {{"type", "two_regime"},
          {"glut_level", glut_level},
          {"shortage_level", shortage_level},
          {"glut_to_shortage_per_month", a},
          {"shortage_to_glut_per_month", b}};
}

PriceProcessParams regime(double glut_level, double shortage_level, double a, double b) {
  const Json doc = regime_json(glut_level, shortage_level, a, b);
  JsonObjectReader r(doc, "process.json", "");
  return parse_price_process(r).params;
}

// The multipliers M_0..M_last of one path (seed 7, on-demand).
std::vector<double> path_multipliers(const PriceProcessParams& p, std::uint32_t path, int last) {
  std::vector<double> out;
  double state = 0.0;
  for (int m = 0; m <= last; ++m) out.push_back(price_process_step(p, 7, path, kPriceKindOnDemand, m, state));
  return out;
}

// 8 GPUs steady on one test/gpu8 instance ($16/h on-demand) for `months`, one cloud plan.
Json regime_scenario(int months, const Json& price_process) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = months;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 8}}}}};
  if (!price_process.is_null()) doc["cloud"]["price_process"] = price_process;
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  doc["baseline"] = "cloud";
  return doc;
}

}  // namespace

TEST_CASE("price regime: the levels are normalised to a stationary mean of one") {
  // a = 0.05, b = 0.15: pi_s = 0.05 / 0.20 = 0.25, pi_g = 0.75; mean level = 0.75 x 0.8 + 0.25 x 1.4
  // = 0.95; M_g = 0.8 / 0.95 = 0.8421053, M_s = 1.4 / 0.95 = 1.4736842.
  const PriceProcessParams p = regime(0.8, 1.4, 0.05, 0.15);
  CHECK(p.two_regime == 1);
  CHECK(shortage_share(p) == doctest::Approx(0.25).epsilon(1e-15));
  CHECK(p.glut_multiplier == doctest::Approx(0.8 / 0.95).epsilon(1e-15));
  CHECK(p.shortage_multiplier == doctest::Approx(1.4 / 0.95).epsilon(1e-15));
  CHECK(0.75 * p.glut_multiplier + 0.25 * p.shortage_multiplier == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(price_process_active(p));
  // Equal levels: M = 1 exactly, the process is inactive.
  const PriceProcessParams flat = regime(1.3, 1.3, 0.1, 0.2);
  CHECK(flat.glut_multiplier == 1.0);
  CHECK(flat.shortage_multiplier == 1.0);
  CHECK_FALSE(price_process_active(flat));
}

TEST_CASE("price regime: a path switches by its own draws and stays on the two levels") {
  // a = 1, b = 1: every month leaves its regime, so the path alternates exactly.
  const PriceProcessParams flip = regime(0.5, 1.5, 1.0, 1.0);  // pi_s = 0.5, mean 1: M_g 0.5, M_s 1.5
  const std::vector<double> m = path_multipliers(flip, 3, 6);
  for (int k = 1; k <= 6; ++k) {
    CHECK((m[k] == 0.5 || m[k] == 1.5));
    CHECK(m[k] != m[k - 1]);
  }
  // a = 0 (no way into a shortage) and b = 1: glut from month 1 on, whatever month 0 drew.
  const PriceProcessParams glut = regime(0.5, 1.5, 0.0, 1.0);  // pi_s = 0: mean 0.5, M_g = 1
  for (std::uint32_t path = 0; path < 20; ++path)
    for (const double x : path_multipliers(glut, path, 4)) CHECK(x == 1.0);
}

TEST_CASE("price regime: share, mean, variance and correlation match the analytic values within 4 standard errors") {
  const PriceProcessParams p = regime(0.8, 1.4, 0.05, 0.15);
  const long paths = 20000;
  const int month = 12;
  std::vector<double> at_0(paths), at_month(paths), in_shortage(paths), product(paths);
  for (long k = 0; k < paths; ++k) {
    const std::vector<double> m = path_multipliers(p, static_cast<std::uint32_t>(k), month + 1);
    at_0[k] = m[0];
    at_month[k] = m[month];
    in_shortage[k] = m[month] > 1.0 ? 1.0 : 0.0;
    product[k] = (m[month] - 1.0) * (m[month + 1] - 1.0);
  }
  // Stationary start: E[M_m] = 1 in month 0 and month 12, P(shortage) = 0.25.
  // Var = pi_g pi_s (M_s - M_g)^2 = 0.75 x 0.25 x (1.4736842 - 0.8421053)^2 = 0.1875 x 0.3988920 = 0.0747922.
  const double variance = 0.1875 * std::pow(0.6 / 0.95, 2);
  CHECK(variance == doctest::Approx(0.0747922).epsilon(1e-6));
  for (const auto* sample : {&at_0, &at_month}) {
    const Summary s = summarize(*sample);
    CHECK(std::fabs(s.mean - 1.0) < 4.0 * s.stderr_);
    CHECK(s.stderr_ == doctest::Approx(std::sqrt(variance / paths)).epsilon(0.05));
  }
  const Summary share = summarize(in_shortage);
  CHECK(std::fabs(share.mean - 0.25) < 4.0 * share.stderr_);
  // Cov(M_12, M_13) = (1 - a - b) Var = 0.8 x 0.0747922 = 0.0598338.
  const Summary cov = summarize(product);
  CHECK(std::fabs(cov.mean - 0.8 * variance) < 4.0 * cov.stderr_);
}

TEST_CASE("price regime: equal levels leave every fluid Monte Carlo path bit for bit the deterministic bill") {
  const ScenarioOutcome plain = run_scenario_json(regime_scenario(6, Json()));
  const ScenarioOutcome flat = run_scenario_json(regime_scenario(6, {{"on_demand", regime_json(1.2, 1.2, 0.1, 0.3)}}));
  const FluidMonteCarloRun a = run_fluid_monte_carlo(plain.scenario, 6, 3, 1);
  const FluidMonteCarloRun b = run_fluid_monte_carlo(flat.scenario, 6, 3, 2);
  CHECK(a.npv_by_path == b.npv_by_path);
  // 8 GPUs on one $16/h instance for 6 x 730 h: 4,380 h x $16 = $70,080 on every path.
  for (const double npv : b.npv_by_path[0]) CHECK(npv == doctest::Approx(70080.0).epsilon(1e-12));
  CHECK(flat.plan("cloud").npv_usd == plain.plan("cloud").npv_usd);
}

TEST_CASE("price regime: a bill's fluid Monte Carlo mean is the deterministic bill within 4 standard errors") {
  const ScenarioOutcome o = run_scenario_json(regime_scenario(12, {{"on_demand", regime_json(0.7, 1.6, 0.1, 0.2)}}));
  const FluidMonteCarloRun a = run_fluid_monte_carlo(o.scenario, 2000, 5, 2);
  const FluidMonteCarloRun b = run_fluid_monte_carlo(o.scenario, 2000, 5, 1);
  CHECK(a.npv_by_path == b.npv_by_path);  // the thread count changes nothing
  const Summary& npv = a.plans[0].npv_usd;
  // The deterministic bill: 12 x 730 h x $16 = $140,160 (M = 1).
  const double deterministic = o.plan("cloud").npv_usd;
  CHECK(deterministic == doctest::Approx(140160.0).epsilon(1e-12));
  INFO("mean " << npv.mean << " stderr " << npv.stderr_);
  CHECK(npv.stderr_ > 0.01 * deterministic / std::sqrt(2000.0));
  CHECK(std::fabs(npv.mean - deterministic) < 4.0 * npv.stderr_);
}

TEST_CASE("bad input: each two-regime input is rejected with exit 2, naming its JSON pointer") {
  struct Case {
    const char* name;
    Json process;
    const char* pointer;
    const char* says;
  };
  Json no_level = regime_json(0.8, 1.4, 0.05, 0.15);
  no_level.erase("glut_level");
  Json stray = regime_json(0.8, 1.4, 0.05, 0.15);
  stray["volatility_per_year"] = 0.3;
  const Case cases[] = {
      {"glut-level", regime_json(0.0, 1.4, 0.05, 0.15), "/cloud/price_process/on_demand/glut_level", "found number 0"},
      {"shortage-level", regime_json(0.8, 1000.0, 0.05, 0.15), "/cloud/price_process/on_demand/shortage_level",
       "found number 1000"},
      {"missing-level", no_level, "/cloud/price_process/on_demand/glut_level", "required"},
      {"to-shortage", regime_json(0.8, 1.4, 1.5, 0.15), "/cloud/price_process/on_demand/glut_to_shortage_per_month",
       "found number 1.5"},
      {"to-glut", regime_json(0.8, 1.4, 0.05, -0.1), "/cloud/price_process/on_demand/shortage_to_glut_per_month",
       "found number -0.1"},
      {"no-switching", regime_json(0.8, 1.4, 0.0, 0.0), "/cloud/price_process/on_demand/shortage_to_glut_per_month",
       "stationary mean"},
      {"stray-key", stray, "/cloud/price_process/on_demand/volatility_per_year", "unknown key"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    check_run_and_validate_refuse(std::string("price-regime-bad-") + c.name,
                                  regime_scenario(3, {{"on_demand", c.process}}), c.pointer, c.says);
  }
}

}  // namespace tco::test
