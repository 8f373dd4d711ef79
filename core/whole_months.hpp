// A span of months as the first whole month it reaches (a drawn delivery slip, a drawn arrival
// month): ceil(x) with 1e-9 of tolerance, so that 8.0 stays 8, cut at cap_months (a lognormal's
// far tail lands past every horizon) and at 0.
// Example: 7.2 -> 8; 8.0000000001 -> 8; 1e9 with a cap of 600 -> 600.
#pragma once

#include <cmath>

#include "core/hd.hpp"

namespace tco {

TCO_HD int whole_months(double months, double cap_months) {
  const double capped = months < cap_months ? months : cap_months;
  const double month = std::ceil(capped - 1e-9);
  return month > 0.0 ? static_cast<int>(month) : 0;
}

}  // namespace tco
