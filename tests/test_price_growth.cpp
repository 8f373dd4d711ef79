// The replay's cloud price growth (engine/des/cloud/price_growth.hpp): e^{k t} from a table and a
// series, and its integral over a run, against the exp and expm1 themselves.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/des/cloud/price_growth.hpp"

namespace tco {

using des::PriceGrowth;

TEST_CASE("price growth: e^{k t} from the hour table and the series equals exp to 1e-15") {
  for (double change : {-0.9, -0.1, 0.05, 2.0}) {
    const PriceGrowth g(change, 26280, 8760.0);
    const double k = std::log1p(change) / 8760.0;
    for (double t : {0.0, 0.37, 1.0, 729.999, 730.5, 12345.678, 26279.99, 26280.0}) {
      CHECK(g.at(t) == doctest::Approx(std::exp(k * t)).epsilon(1e-15));
      CHECK(g.at_hour_of(t) == std::exp(k * std::floor(t)));
    }
    // Beyond the table: the exp itself.
    CHECK(g.at(30000.5) == std::exp(k * 30000.5));
  }
}

TEST_CASE("price growth: the integral over a run, by hand and against expm1") {
  // A 10%/yr fall: k = ln(0.9) / 8760 = -1.2027456e-5; over [0, 100] h:
  // (e^{100 k} - 1) / k = 99.93988682207574 hours at the starting price.
  const PriceGrowth fall(-0.1, 26280, 8760.0);
  CHECK(fall.integral(0.0, 100.0, 1.0) == doctest::Approx(99.93988682207574).epsilon(1e-15));
  // A run of 14 days from t = 5,000 h (k d = -4.0e-3: expm1): e^{5000 k} (e^{336 k} - 1) / k.
  const double k = std::log(0.9) / 8760.0;
  const double a = 5000.0, b = 5336.0;
  CHECK(fall.integral(a, b, fall.at(a)) == doctest::Approx(std::exp(k * a) * std::expm1(k * (b - a)) / k).epsilon(1e-15));
  // Split at any point, the pieces add up to the whole.
  CHECK(fall.integral(a, 5100.25, fall.at(a)) + fall.integral(5100.25, b, fall.at(5100.25)) ==
        doctest::Approx(fall.integral(a, b, fall.at(a))).epsilon(1e-15));
  // No change: the hours themselves, and a growth of 1.
  const PriceGrowth flat(0.0, 26280, 8760.0);
  CHECK(flat.integral(3.5, 10.0, 1.0) == 6.5);
  CHECK(flat.at(1234.5) == 1.0);
}

}  // namespace tco
