// Tokens per request as the request replay draws them (issue 47 item 1): a fixed count, an
// exponential of a given mean (the queueing tests' service times), a lognormal of a given median
// and sigma, or a value of an empirical list (a trace's counts), each from one uniform u in (0, 1).
//   exponential(mean)        = -mean ln(u)
//   lognormal(median, sigma) = median exp(sigma Phi^-1(u))       (mean = median exp(sigma^2 / 2))
//   empirical(values)        = values[floor(u x size)]
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "core/random/random.hpp"

namespace tco::serving {

struct TokenLength {
  enum class Kind { fixed, exponential, lognormal, empirical };
  Kind kind = Kind::fixed;
  double value = 0.0;  // fixed: the count; exponential: the mean; lognormal: the median
  double sigma = 0.0;  // lognormal only
  std::vector<double> values;  // empirical only

  double draw(double u) const {
    switch (kind) {
      case Kind::fixed: return value;
      case Kind::exponential: return -value * std::log(u);
      case Kind::lognormal: return value * std::exp(sigma * normal_quantile(u));
      case Kind::empirical: {
        std::size_t i = static_cast<std::size_t>(u * static_cast<double>(values.size()));
        return values[i < values.size() ? i : values.size() - 1];
      }
    }
    return value;
  }

  double mean() const {
    switch (kind) {
      case Kind::fixed:
      case Kind::exponential: return value;
      case Kind::lognormal: return value * std::exp(0.5 * sigma * sigma);
      case Kind::empirical: {
        double sum = 0.0;
        for (double v : values) sum += v;
        return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
      }
    }
    return value;
  }
};

}  // namespace tco::serving
