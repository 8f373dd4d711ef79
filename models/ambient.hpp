// Ambient temperature and thermal throttling (SPEC §5, §12.9, §12.16).
//   T(h) = mean_c + seasonal_amp_c cos(2 pi (day - hottest_day) / 365)
//                 + diurnal_amp_c  cos(2 pi (hour - hottest_hour) / 24)
// with day = the model calendar's day of year and hour = hour of day. When T(h) is above
// throttle_above_c the on-prem GPUs do (1 - throttle_fraction) of their work that hour and
// draw the same power. Example: mean 15, seasonal 10 (day 200), diurnal 5 (15:00): on day
// 200 at 15:00, T = 15 + 10 + 5 = 30 °C; at 03:00 the same day 15 + 10 - 5 = 20 °C.
#pragma once

#include <cmath>
#include <optional>

#include "engine/hd.hpp"
#include "engine/json_reader.hpp"

namespace tco {

struct AmbientSpec {
  double mean_c = 15.0;
  double seasonal_amp_c = 0.0;
  double hottest_day = 200.0;
  double diurnal_amp_c = 0.0;
  double hottest_hour = 15.0;
  double noise_sigma_c = 0.0;                // Monte Carlo: per-path hourly noise
  std::optional<double> throttle_above_c;    // absent: never throttles
  double throttle_fraction = 0.0;

  bool operator==(const AmbientSpec&) const = default;
};

TCO_HD double ambient_c(const AmbientSpec& a, int day_of_year, int hour_of_day) {
  constexpr double two_pi = 6.283185307179586476925;
  return a.mean_c + a.seasonal_amp_c * std::cos(two_pi * (day_of_year - a.hottest_day) / 365.0) +
         a.diurnal_amp_c * std::cos(two_pi * (hour_of_day - a.hottest_hour) / 24.0);
}

// Fraction of full speed the on-prem GPUs run at, at temperature T.
TCO_HD double work_rate_at(const AmbientSpec& a, double temperature_c, bool has_throttle,
                           double throttle_above_c) {
  return has_throttle && temperature_c > throttle_above_c ? 1.0 - a.throttle_fraction : 1.0;
}

AmbientSpec parse_ambient(JsonObjectReader& r);
Json to_json(const AmbientSpec& a);

}  // namespace tco
