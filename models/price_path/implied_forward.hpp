// The forward reserved price implied by a 1-year / 3-year pair (docs/model.md §4 "Implied
// forward price"). Paying the 3-year price P3 for 36 months costs the same, discounted, as
// paying the 1-year price P1 for months 0-11 and the forward F for months 12-35:
//   P3 A(0, 36) = P1 A(0, 12) + F A(12, 36),  A(a, b) = sum_{m=a}^{b-1} (1 + r)^(-(m+1)/12)
//   F = (P3 A(0, 36) - P1 A(0, 12)) / A(12, 36)
// (USD per instance-hour; the 730 h of each month cancel). At r = 0, F = (3 P3 - P1) / 2.
// Example: P1 = $12/h, P3 = $10/h, r = 0: F = (30 - 12) / 2 = $9/h: the 3-year price bets
// that a year from now a 1-year term will cost $9, 25% below today's $12.
#pragma once

#include <optional>
#include <vector>

namespace tco {

// Whether an offer's pair implies a forward: both prices given and positive (a price of 0 is a
// missing figure, refused where a scenario writes one; F / P1 would divide by it).
inline bool has_implied_forward(const std::optional<double>& reserved_1y_usd_per_hour,
                                const std::optional<double>& reserved_3y_usd_per_hour) {
  return reserved_1y_usd_per_hour && reserved_3y_usd_per_hour && *reserved_1y_usd_per_hour > 0.0 &&
         *reserved_3y_usd_per_hour > 0.0;
}

double implied_forward_usd_per_hour(double reserved_1y_usd_per_hour, double reserved_3y_usd_per_hour,
                                    double discount_rate_per_year);

// A term structure's point: a reserved price for `term_months` months (USD per GPU-hour).
struct TermPoint {
  int term_months = 0;
  double usd_per_gpu_hour = 0.0;
};

// The forward price over [start_month, end_month) implied by two neighbouring terms.
struct ForwardSegment {
  int start_month = 0;
  int end_month = 0;
  double usd_per_gpu_hour = 0.0;
};

// The pair's rule applied to each neighbouring pair of a curve (docs/model.md §4 "Implied
// forwards from a term structure"), terms strictly increasing and >= 1:
//   F_1 = P_1 over [0, T_1);  F_k = (P_k A(0, T_k) - P_{k-1} A(0, T_{k-1})) / A(T_{k-1}, T_k)
// One segment per point; with the points 12 and 36 the second is implied_forward_usd_per_hour.
std::vector<ForwardSegment> implied_forwards_from_curve(const std::vector<TermPoint>& curve,
                                                        double discount_rate_per_year);

}  // namespace tco
