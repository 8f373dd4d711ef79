#include "models/price_path/price_schedule.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/abridged_echo.hpp"
#include "models/input_limits.hpp"
#include "models/site/power.hpp"

namespace tco {

namespace {

constexpr Bounds kPriceFactor{0.0, 100.0, true};

}  // namespace

double PriceSchedule::at(double t_h) const {
  // The first point after t: v(t) is the one before it (step), or between the two.
  const auto after = std::upper_bound(hours.begin(), hours.end(), t_h);
  if (after == hours.begin()) return factors.front();
  if (after == hours.end()) return factors.back();
  const std::size_t i = static_cast<std::size_t>(after - hours.begin()) - 1;
  if (interpolation == Interpolation::step) return factors[i];
  const double w = (t_h - hours[i]) / (hours[i + 1] - hours[i]);
  return std::exp(std::log(factors[i]) + w * (std::log(factors[i + 1]) - std::log(factors[i])));
}

double price_factor(const std::optional<PriceSchedule>& schedule, double price_change_per_year, long hour) {
  if (!schedule) return hourly_growth_factor(price_change_per_year, hour);
  const double v = schedule->at(static_cast<double>(hour));
  return schedule->replaces_rate ? v : hourly_growth_factor(price_change_per_year, hour) * v;
}

PriceSchedule parse_price_schedule(JsonObjectReader& r, const Date& start,
                                   std::optional<double> catalog_usd_per_gpu_hour) {
  PriceSchedule s;
  const std::string interpolation = r.choice_or("interpolation", {"step", "log_linear"}, "step");
  s.interpolation =
      interpolation == "step" ? PriceSchedule::Interpolation::step : PriceSchedule::Interpolation::log_linear;
  const Json& points = r.value("points");
  const std::string pointer = r.pointer_of("points");
  if (!points.is_array() || points.empty())
    throw InputError(r.file(), pointer, "expected a non-empty array of {\"date\", \"factor\" or \"usd_per_gpu_hour\"} points");
  // Echoed only: a long list is kept as its size and digest, not as a copy per plan (issue 43).
  s.as_written = {{"interpolation", interpolation}, {"points", abridged_echo(points)}};
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string at = pointer + "/" + std::to_string(i);
    if (!points[i].is_object()) throw InputError(r.file(), at, "expected a point object {\"date\": ..., \"factor\": ...}");
    JsonObjectReader pr(points[i], r.file(), at);
    Date date;
    const std::string text = pr.string("date");
    if (!parse_date(text, date)) pr.fail("date", "a date as YYYY-MM-DD", &pr.value("date"));
    const double t_h = static_cast<double>(days_between(start, date)) * 24.0;
    if (!s.hours.empty() && !(t_h > s.hours.back()))
      pr.fail("date", "a date after the previous point's (points in increasing date order)", &pr.value("date"));
    const bool usd = pr.has("usd_per_gpu_hour");
    if (i == 0) s.replaces_rate = usd;
    if (usd != s.replaces_rate)
      throw InputError(r.file(), at,
                       "expected the same key in every point: all \"factor\" (multiplies the constant rate) or all "
                       "\"usd_per_gpu_hour\" (replaces it)");
    double factor = 0.0;
    if (usd) {
      if (!catalog_usd_per_gpu_hour)
        throw InputError(r.file(), at + "/usd_per_gpu_hour",
                         "expected \"factor\" points: this price kind's USD price depends on the plan (the reserved "
                         "term), so its schedule multiplies the catalog price");
      factor = pr.number("usd_per_gpu_hour", Bounds{0.0, limits::kUsdPerGpuHour.max, true}) / *catalog_usd_per_gpu_hour;
    } else {
      factor = pr.number("factor", kPriceFactor);
    }
    pr.string_or("source", "");  // where the figure was published (provenance, not arithmetic)
    pr.finish();
    s.hours.push_back(t_h);
    s.factors.push_back(factor);
  }
  r.finish();
  return s;
}

}  // namespace tco
