// The replay's month lookup (engine/des/month_index.hpp) gives the ledger's answer,
// min(months - 1, int(t / 730)), bit for bit: at every month boundary and the doubles next to
// it, and on a clock that only moves forward.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "engine/des/month_index.hpp"

namespace tco::des {

namespace {

int by_division(double t_h, int months) { return std::min(months - 1, static_cast<int>(t_h / 730.0)); }

}  // namespace

TEST_CASE("DES month index: hand-computed months of a 36-month horizon") {
  const MonthIndex index(36);
  CHECK(index.at(0.0) == 0);
  CHECK(index.at(729.9999) == 0);
  CHECK(index.at(730.0) == 1);    // 730 / 730 = 1 exactly
  CHECK(index.at(1460.5) == 2);   // 1460.5 / 730 = 2.0007
  CHECK(index.at(25549.9) == 34); // 25549.9 / 730 = 34.9999
  CHECK(index.at(25550.0) == 35); // the last month, 35 x 730
  CHECK(index.at(1e6) == 35);     // past the horizon: the last month
  CHECK(index.start_h(1) == 730.0);
}

TEST_CASE("DES month index: the division's answer at every boundary, 200 doubles either side") {
  for (int months : {1, 2, 13, 36, 120}) {
    CAPTURE(months);
    const MonthIndex index(months);
    for (int m = 1; m <= months; ++m) {
      double below = static_cast<double>(m) * 730.0;
      double above = below;
      for (int step = 0; step < 200; ++step) {
        REQUIRE(index.at(below) == by_division(below, months));
        REQUIRE(index.at(above) == by_division(above, months));
        below = std::nextafter(below, 0.0);
        above = std::nextafter(above, 1e300);
      }
    }
  }
}

}  // namespace tco::des
