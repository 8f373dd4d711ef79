// Statistics of Monte Carlo results (SPEC §7, §12.11). For values x_1..x_n (path order):
//   mean, standard error s / sqrt(n) (s with n - 1), 95% CI = mean -/+ t_{0.975, n-1} x stderr
//   quantile q: linear interpolation between order statistics at (n - 1) q (numpy's default)
//   CVaR95 = the mean of the worst ceil(0.05 n) values (the largest costs, the smallest savings)
// Sums run in path order, compensated (Neumaier), so results do not depend on how paths were
// split over threads or ranks; a constant sample's mean is its value exactly and its standard
// error exactly 0, whatever n (a plain sum of n copies of x divided by n is not always x).
// Example: {1, 2, 3, 4}: mean 2.5, P50 2.5, P95 = 3 + 0.85 x (4 - 3) = 3.85, CVaR95 = 4.
#pragma once

#include <span>
#include <vector>

namespace tco {

struct Summary {
  long n = 0;
  double mean = 0.0;
  double stderr_ = 0.0;
  double ci95_low = 0.0;
  double ci95_high = 0.0;
  double p5 = 0.0;
  double p10 = 0.0;
  double p50 = 0.0;
  double p90 = 0.0;
  double p95 = 0.0;
  double cvar95 = 0.0;
  double min = 0.0;
  double max = 0.0;
};

// The Neumaier-compensated sum of the values in their order.
double compensated_sum(std::span<const double> values);
// Their mean: the common value exactly when all are equal, else the compensated sum / n; 0 when
// empty. Example: 0.1 ten times -> 0.1 exactly (a plain sum gives 0.9999999999999999 / 10).
double mean_of(std::span<const double> values);

// Linear-interpolation quantile of already sorted values.
double sorted_quantile(const std::vector<double>& sorted, double q);

// Which end of the values is the bad one, for CVaR95: costs are worst when high, savings when
// low.
enum class WorstTail { high, low };

// Summarizes the values (a copy is sorted). An empty input gives n = 0 and zeros.
// Example: savings {1, 2, 3, 4} with WorstTail::low: CVaR95 = 1 (the worst ceil(0.2) = 1 path).
Summary summarize(const std::vector<double>& values, WorstTail worst = WorstTail::high);

// Fraction of values strictly below zero (e.g. P(a plan is cheaper) on paired differences
// plan - baseline).
double fraction_negative(const std::vector<double>& values);

// t_{0.975, dof}: the two-sided 95% Student t critical value.
double student_t_975(long degrees_of_freedom);

}  // namespace tco
