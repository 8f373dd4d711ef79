#include <doctest/doctest.h>

#include <cmath>

#include "core/stats/statistics.hpp"

using namespace tco;

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
