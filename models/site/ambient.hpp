// Ambient temperature and thermal throttling (SPEC §5, §12.9, §12.16).
//   T(h) = mean_c + seasonal_amp_c cos(2 pi (day - hottest_day) / 365)
//                 + diurnal_amp_c  cos(2 pi (hour - hottest_hour) / 24)
// with day = the model calendar's day of year and hour = hour of day. When T(h) is above
// throttle_above_c the on-prem GPUs do (1 - throttle_fraction) of their work that hour and
// draw the same power. Example: mean 15, seasonal 10 (day 200), diurnal 5 (15:00): on day
// 200 at 15:00, T = 15 + 10 + 5 = 30 °C; at 03:00 the same day 15 + 10 - 5 = 20 °C.
// Or, with "series_file", T(h) = the file's temperature_c at hour h (models/site/hourly_series.hpp)
// in place of the formula. Per-path noise and throttling apply to either.
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "core/calendar.hpp"
#include "core/hd.hpp"
#include "core/io/json_reader.hpp"
#include "models/site/hourly_series.hpp"

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
  // Hourly temperatures (column temperature_c) replacing the formula above when present.
  std::shared_ptr<const HourlySeries> series;
};

TCO_HD double ambient_c(const AmbientSpec& a, int day_of_year, int hour_of_day) {
  constexpr double two_pi = 6.283185307179586476925;
  return a.mean_c + a.seasonal_amp_c * std::cos(two_pi * (day_of_year - a.hottest_day) / 365.0) +
         a.diurnal_amp_c * std::cos(two_pi * (hour_of_day - a.hottest_hour) / 24.0);
}

// The deterministic temperature at hour `hour` (before per-path noise): the series' value, else
// the formula on the calendar's day of year and hour of day. Every site model reads this.
inline double ambient_c_at_hour(const AmbientSpec& a, long hour, const Calendar& calendar) {
  if (a.series) return a.series->at(hour);
  return ambient_c(a, calendar.day_of_year_at(hour), calendar.hour_of_day(hour));
}

// Fraction of full speed the on-prem GPUs run at, at temperature T.
TCO_HD double throttled_work_rate(double temperature_c, bool has_throttle, double throttle_above_c,
                                  double throttle_fraction) {
  return has_throttle && temperature_c > throttle_above_c ? 1.0 - throttle_fraction : 1.0;
}
TCO_HD double work_rate_at(const AmbientSpec& a, double temperature_c, bool has_throttle,
                           double throttle_above_c) {
  return throttled_work_rate(temperature_c, has_throttle, throttle_above_c, a.throttle_fraction);
}

// Parses the formula fields, or "series_file" (relative to `scenario_dir`) and "series_repeat"
// ("none", "week", "year") with none of the formula fields; then noise and throttling.
AmbientSpec parse_ambient(JsonObjectReader& r, const std::string& scenario_dir);
Json to_json(const AmbientSpec& a);

}  // namespace tco
