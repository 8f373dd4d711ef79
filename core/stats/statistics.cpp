#include "core/stats/statistics.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/students_t.hpp>

namespace tco {

double sorted_quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double position = (static_cast<double>(sorted.size()) - 1.0) * q;
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

double student_t_975(long dof) {
  if (dof < 1) return 0.0;
  // A report asks for the same degrees of freedom (paths - 1) for every statistic, and each
  // quantile costs about 10 us of long-double pow: the thread keeps the last one.
  thread_local long last_dof = 0;
  thread_local double last_t = 0.0;
  if (dof != last_dof) {
    last_t = boost::math::quantile(boost::math::students_t_distribution<double>(static_cast<double>(dof)), 0.975);
    last_dof = dof;
  }
  return last_t;
}

double compensated_sum(std::span<const double> values) {
  double sum = 0.0;
  double compensation = 0.0;  // the low-order bits each addition lost
  for (double v : values) {
    const double t = sum + v;
    compensation += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  return sum + compensation;
}

double mean_of(std::span<const double> values) {
  if (values.empty()) return 0.0;
  const double first = values.front();
  if (std::all_of(values.begin(), values.end(), [&](double v) { return v == first; })) return first;
  return compensated_sum(values) / static_cast<double>(values.size());
}

Summary summarize(const std::vector<double>& values, WorstTail worst) {
  Summary s;
  s.n = static_cast<long>(values.size());
  if (s.n == 0) return s;
  s.mean = mean_of(values);
  if (s.n > 1) {
    // Exactly 0 for a constant sample: its mean is its value, every deviation 0.
    double squares = 0.0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.stderr_ = std::sqrt(squares / (s.n - 1)) / std::sqrt(static_cast<double>(s.n));
  }
  const double half_width = s.n > 1 ? student_t_975(s.n - 1) * s.stderr_ : 0.0;
  s.ci95_low = s.mean - half_width;
  s.ci95_high = s.mean + half_width;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  s.p5 = sorted_quantile(sorted, 0.05);
  s.p10 = sorted_quantile(sorted, 0.10);
  s.p50 = sorted_quantile(sorted, 0.50);
  s.p90 = sorted_quantile(sorted, 0.90);
  s.p95 = sorted_quantile(sorted, 0.95);
  const auto tail = static_cast<std::size_t>(std::ceil(0.05 * static_cast<double>(s.n)));
  const std::size_t first = worst == WorstTail::high ? sorted.size() - tail : 0;
  s.cvar95 = mean_of(std::span<const double>(sorted).subspan(first, tail));
  s.min = sorted.front();
  s.max = sorted.back();
  return s;
}

double fraction_negative(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  long negative = 0;
  for (double v : values) negative += v < 0.0 ? 1 : 0;
  return static_cast<double>(negative) / static_cast<double>(values.size());
}

}  // namespace tco
