// The next generation's arrival month drawn per Monte Carlo path (`next_generation.arrival_month`
// written as a distribution, docs/scenario.md; docs/model.md "Next generation"):
//   x = Q(u) months, u = uniform(seed, path, generation_arrival, 0, 0),
//   Q triangular(low, mode, high) or lognormal(median, sigma),
//   arrival month = ceil(x), cut at kMaxArrivalMonth (past every horizon).
// The successor ramps during month ceil(x) - 1 and its first whole month is ceil(x): a ramp 0.2
// months into month 7 leaves month 7 at the old prices. Every plan sees the same u on a path
// (common random numbers). Without a path (the hourly model) the month of the median, Q(0.5).
// Example: triangular(3, 8, 18): u = 0.5 -> 18 - sqrt(0.5 x 15 x 10) = 9.34 -> month 10;
// u = 0.1 -> 3 + sqrt(0.1 x 15 x 5) = 5.74 -> month 6.
// The functions are TCO_HD: the sweep's CPU and CUDA kernels draw the month themselves.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hd.hpp"
#include "core/whole_months.hpp"
#include "core/random/random.hpp"

namespace tco {

inline constexpr double kMaxArrivalMonths = 600.0;  // limits::kMaxArrivalMonth: the longest horizon

struct ArrivalDraw {
  int drawn = 0;      // 0: the scenario's fixed arrival_month on every path
  int lognormal = 0;  // 1: lognormal(median, sigma); 0: triangular(low, mode, high)
  double low_months = 0.0;
  double mode_months = 0.0;
  double high_months = 0.0;
  double median_months = 0.0;
  double sigma = 0.0;

  bool operator==(const ArrivalDraw&) const = default;
};

// Q(u) in months (the triangular inverse CDF of models/uncertain.cpp).
TCO_HD double arrival_draw_months(const ArrivalDraw& a, double u) {
  if (a.lognormal) return lognormal_quantile(u, a.median_months, a.sigma);
  const double width = a.high_months - a.low_months;
  if (width <= 0.0) return a.low_months;
  if (u < (a.mode_months - a.low_months) / width)
    return a.low_months + std::sqrt(u * width * (a.mode_months - a.low_months));
  return a.high_months - std::sqrt((1.0 - u) * width * (a.high_months - a.mode_months));
}

// The first whole month at the new prices (core/whole_months.hpp).
TCO_HD int whole_arrival_month(double months) { return whole_months(months, kMaxArrivalMonths); }

TCO_HD int planned_arrival_month(const ArrivalDraw& a) { return whole_arrival_month(arrival_draw_months(a, 0.5)); }

TCO_HD int arrival_month_on_path(const ArrivalDraw& a, std::uint64_t seed, std::uint32_t path) {
  return whole_arrival_month(arrival_draw_months(a, uniform(seed, path, RandomSource::generation_arrival, 0, 0)));
}

}  // namespace tco
