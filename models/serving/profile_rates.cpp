#include "models/serving/profile_rates.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco::serving {

namespace {

// The figure at concurrency n, linear between the measured points around it, the lowest point's
// below them. Points are sorted by concurrency; every point has the figure.
template <class Figure>
double at_concurrency(const std::vector<ServingPoint>& points, double n, Figure figure) {
  if (n <= points.front().concurrency) return figure(points.front());
  for (std::size_t k = 1; k < points.size(); ++k) {
    const ServingPoint &lo = points[k - 1], &hi = points[k];
    if (n <= hi.concurrency) {
      const double share = (n - lo.concurrency) / (hi.concurrency - lo.concurrency);
      return figure(lo) + (figure(hi) - figure(lo)) * share;
    }
  }
  return figure(points.back());
}

}  // namespace

ReplicaRates replica_rates(const ServingProfile& profile, int max_concurrency, const std::string& profile_id) {
  std::vector<ServingPoint> points = profile.points;
  std::sort(points.begin(), points.end(),
            [](const ServingPoint& a, const ServingPoint& b) { return a.concurrency < b.concurrency; });
  if (points.empty()) throw ModelError(fmt::format("serving profile \"{}\" has no measured point", profile_id));
  const double highest = points.back().concurrency;
  if (max_concurrency < 1 || max_concurrency > highest)
    throw ModelError(fmt::format("serving profile \"{}\": max_concurrency {} is outside its measured concurrencies "
                                 "{:g} to {:g}; the replay does not extrapolate a profile",
                                 profile_id, max_concurrency, points.front().concurrency, highest));
  const bool all_tpot = std::all_of(points.begin(), points.end(), [](const ServingPoint& p) { return p.median_tpot_ms.has_value(); });
  if (!all_tpot)
    throw ModelError(fmt::format("serving profile \"{}\": every point needs a median TPOT (ms) for the request replay",
                                 profile_id));
  const bool all_ttft = std::all_of(points.begin(), points.end(), [](const ServingPoint& p) { return p.median_ttft_ms.has_value(); });
  ReplicaRates rates;
  for (int n = 1; n <= max_concurrency; ++n) {
    rates.decode_tokens_per_s_by_active.push_back(
        at_concurrency(points, n, [](const ServingPoint& p) { return interactivity_of_tpot_ms(*p.median_tpot_ms); }));
    if (all_ttft && profile.input_tokens_per_request > 0.0)
      rates.prefill_s_per_input_token_by_active.push_back(
          at_concurrency(points, n, [](const ServingPoint& p) { return *p.median_ttft_ms; }) / 1000.0 /
          profile.input_tokens_per_request);
  }
  return rates;
}

}  // namespace tco::serving
