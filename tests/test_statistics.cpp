#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/stats/statistics.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "scenario_builder.hpp"

using namespace tco;
using namespace tco::test;

TEST_CASE("statistics: summary of {1, 2, 3, 4} by hand") {
  const Summary s = summarize({4.0, 1.0, 3.0, 2.0});
  CHECK(s.n == 4);
  CHECK(s.mean == doctest::Approx(2.5).epsilon(1e-15));
  // sample sd = sqrt(((1.5^2 + 0.5^2) x 2) / 3) = sqrt(5/3) = 1.2909944; stderr = / 2 = 0.6454972
  CHECK(s.stderr_ == doctest::Approx(std::sqrt(5.0 / 3.0) / 2.0).epsilon(1e-14));
  // t_{0.975, 3} = 3.182446305; half width = 3.182446305 x 0.6454972 = 2.054275
  CHECK(student_t_975(3) == doctest::Approx(3.1824463052842638).epsilon(1e-12));
  CHECK(s.ci95_high - s.mean == doctest::Approx(3.1824463052842638 * std::sqrt(5.0 / 3.0) / 2.0).epsilon(1e-12));
  // numpy: position (n-1) q; P5 at 0.15 -> 1.15; P50 at 1.5 -> 2.5; P95 at 2.85 -> 3.85
  CHECK(s.p5 == doctest::Approx(1.15).epsilon(1e-14));
  CHECK(s.p50 == doctest::Approx(2.5).epsilon(1e-14));
  CHECK(s.p95 == doctest::Approx(3.85).epsilon(1e-14));
  // CVaR95: the worst ceil(0.05 x 4) = 1 value.
  CHECK(s.cvar95 == 4.0);
}

TEST_CASE("statistics: CVaR95 averages the worst 5% (ceil)") {
  std::vector<double> v;
  for (int i = 1; i <= 41; ++i) v.push_back(i);
  // ceil(0.05 x 41) = ceil(2.05) = 3 worst values: (39 + 40 + 41) / 3 = 40
  CHECK(summarize(v).cvar95 == doctest::Approx(40.0).epsilon(1e-15));
  // Savings are worst when low: (1 + 2 + 3) / 3 = 2; the other statistics do not change.
  const Summary savings = summarize(v, WorstTail::low);
  CHECK(savings.cvar95 == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(savings.mean == summarize(v).mean);
  CHECK(savings.p5 == summarize(v).p5);
}

TEST_CASE("statistics: a single value and identical values have zero spread") {
  const Summary one = summarize({7.0});
  CHECK(one.stderr_ == 0.0);
  CHECK(one.ci95_low == 7.0);
  const Summary same = summarize({0.0, 0.0, 0.0});
  CHECK(same.stderr_ == 0.0);
  CHECK(fraction_negative({0.0, 0.0, 0.0}) == 0.0);
  CHECK(fraction_negative({-1.0, 0.0, 1.0, -2.0}) == doctest::Approx(0.5).epsilon(1e-15));
}

TEST_CASE("statistics: a constant figure is its value exactly, with a standard error of exactly 0") {
  // Issue 42: x = 13,554,174.123456 on n paths. A plain running sum of n copies of x, divided by
  // n, is not x: n = 10 gives x - 1.86e-9, n = 1,000 x - 3.48e-7, n = 20,000 x - 5.11e-6, and the
  // deviations from that mean give standard errors of 6.2e-10, 1.1e-8, 3.6e-8, so the 95%
  // interval [mean - t se, mean + t se] excluded x itself. Whatever n: mean = x, se = 0.
  const double x = 13554174.123456;
  for (const long n : {2L, 3L, 7L, 10L, 100L, 1000L, 2000L, 20000L}) {
    CAPTURE(n);
    const Summary s = summarize(std::vector<double>(static_cast<std::size_t>(n), x));
    CHECK(s.mean == x);
    CHECK(s.stderr_ == 0.0);
    CHECK(s.ci95_low == x);
    CHECK(s.ci95_high == x);
    CHECK(s.cvar95 == x);
    CHECK(s.p5 == x);
    CHECK(s.p95 == x);
  }
  // 0.1 ten times: the plain sum is 0.9999999999999999 and / 10 = 0.09999999999999999.
  CHECK(summarize(std::vector<double>(10, 0.1)).mean == 0.1);
  CHECK(summarize(std::vector<double>(10, 0.1), WorstTail::low).cvar95 == 0.1);
}

TEST_CASE("statistics: the compensated sum keeps the bits a plain sum loses") {
  // 1e16 + 1 + 1 - 1e16: a plain sum gives 0 (1e16 + 1 rounds to 1e16 twice); Neumaier 2.
  CHECK(compensated_sum(std::vector<double>{1e16, 1.0, 1.0, -1e16}) == 2.0);
  // The mean of {1e16, 1, 1, -1e16} = 2 / 4 = 0.5.
  CHECK(mean_of(std::vector<double>{1e16, 1.0, 1.0, -1e16}) == 0.5);
  // Path order is the order summed: the same values in the same order give the same bits, and
  // the mean of a non-constant sample still divides the compensated sum: (1 + 2 + 4) / 3.
  CHECK(mean_of(std::vector<double>{1.0, 2.0, 4.0}) == 7.0 / 3.0);
  CHECK(mean_of(std::vector<double>{}) == 0.0);
}

TEST_CASE("statistics: a plan without random inputs reports its value with a standard error of 0") {
  // An owned plan on a steady workload draws nothing: every path of the fluid Monte Carlo has the
  // same NPV, so the summary is that NPV exactly and a standard error of 0, for 1,999 and 2,000
  // paths alike (the mean does not move with the path count), on 1 thread or 2. Under the
  // sanitizers 199 and 200 paths (2,000 took 57 s of that pass at a load of 9).
  Json doc = base_scenario_json();
  doc["discount_rate_per_year"] = 0.08;
  doc["plans"] = {{{"name", "owned"}, {"kind", "onprem"}, {"onprem_nodes", 3}}};
  doc["baseline"] = "owned";
  const Scenario s = load_scenario_json(doc, "constant.json", fixture_catalog_dir());
  const std::vector<long> path_counts = kUnderSanitizers ? std::vector<long>{199, 200} : std::vector<long>{1999, 2000};
  for (const long paths : path_counts) {
    for (const int threads : {1, 2}) {
      CAPTURE(paths);
      CAPTURE(threads);
      const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, paths, 7, threads);
      const std::vector<double>& npv = mc.npv_by_path[0];
      REQUIRE(std::all_of(npv.begin(), npv.end(), [&](double v) { return v == npv[0]; }));
      CHECK(mc.plans[0].npv_usd.mean == npv[0]);
      CHECK(mc.plans[0].npv_usd.stderr_ == 0.0);
      CHECK(mc.plans[0].npv_usd.ci95_low == npv[0]);
      CHECK(mc.plans[0].npv_usd.ci95_high == npv[0]);
    }
  }
}
