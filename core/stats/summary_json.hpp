// Small value-to-JSON conversions shared by the report's sections: an optional figure, a statistic.
#pragma once

#include <optional>

#include "core/io/json_reader.hpp"
#include "core/stats/statistics.hpp"

namespace tco {

// An optional figure, or null where the report has none.
inline Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }
inline Json optional_json(const std::optional<int>& v) { return v ? Json(*v) : Json(nullptr); }

// A Monte Carlo statistic: its mean, standard error, 95% interval, percentiles, CVaR95 and range.
inline Json summary_json(const Summary& s) {
  return {{"mean", s.mean}, {"stderr", s.stderr_}, {"ci95_low", s.ci95_low}, {"ci95_high", s.ci95_high},
          {"p5", s.p5},     {"p10", s.p10},         {"p50", s.p50},           {"p90", s.p90},
          {"p95", s.p95},   {"cvar95", s.cvar95},   {"min", s.min},           {"max", s.max}};
}

}  // namespace tco
