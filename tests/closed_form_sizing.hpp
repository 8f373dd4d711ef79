// The cloud price at which the closed-form utilization breakeven u* is exactly 1/2 on the
// premises of tests/test_optimize.cpp (8-GPU nodes over their 3-year life = a 36-month horizon,
// 1-GPU cloud instances, one node a rack, no fixed FTEs, 8 %): per node
//   A = sum_{m<36} 1.08^(-(m+1)/12) = 32.04333
//   PV(fixed) = 200,000 + 3,719 A - 68,600 x 1.08^-3 = 264,712.26
//   p = (2 PV(fixed) / A + 876) / 5,840 = 2.97913 USD/GPU-hour
#pragma once

#include <cmath>

namespace tco::test {

inline double half_breakeven_price_usd() {
  double annuity = 0.0;
  for (int m = 0; m < 36; ++m) annuity += std::pow(1.08, -(m + 1) / 12.0);
  const double pv_fixed_usd = 200000.0 + 3719.0 * annuity - 68600.0 * std::pow(1.08, -3.0);
  return (2.0 * pv_fixed_usd / annuity + 876.0) / 5840.0;
}

}  // namespace tco::test
