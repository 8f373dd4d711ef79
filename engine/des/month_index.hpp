// The month of an hour t as the ledger books it, min(months - 1, int(t / 730)), without the
// division (a division's latency sat on the replay's hottest path): month m starts at the
// smallest double t with int(t / 730) >= m, found once, so every answer is the division's, bit
// for bit, rounding at the boundaries included: a multiplication guesses, two comparisons
// correct it.
// Example (36 months): at(729.9999) = 0, at(730) = 1, at(1e6) = 35.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/calendar.hpp"

namespace tco::des {

class MonthIndex {
 public:
  MonthIndex() = default;
  explicit MonthIndex(int months) : last_(std::max(0, months - 1)), start_h_(last_ + 2) {
    start_h_[0] = -std::numeric_limits<double>::infinity();
    for (int m = 1; m <= last_; ++m) {
      double t = static_cast<double>(m) * kHoursPerMonth;
      for (double below = std::nextafter(t, 0.0); by_division(below) >= m; below = std::nextafter(t, 0.0)) t = below;
      start_h_[m] = t;
    }
    start_h_[last_ + 1] = std::numeric_limits<double>::infinity();
  }

  int at(double t_h) const {
    int m = std::clamp(static_cast<int>(t_h * (1.0 / kHoursPerMonth)), 0, last_);  // at most one off
    m -= t_h < start_h_[m];
    m += t_h >= start_h_[m + 1];
    return m;
  }
  // Where month m starts (m = 0..months); -infinity for month 0, +infinity after the last.
  double start_h(int m) const { return start_h_[m]; }

 private:
  static int by_division(double t_h) { return static_cast<int>(t_h / kHoursPerMonth); }
  int last_ = 0;
  std::vector<double> start_h_;
};

}  // namespace tco::des
