#include "models/price_path/implied_forward.hpp"

#include "models/finance.hpp"

namespace tco {

double implied_forward_usd_per_hour(double reserved_1y_usd_per_hour, double reserved_3y_usd_per_hour,
                                    double discount_rate_per_year) {
  double first_year = 0.0, later_years = 0.0;  // A(0, 12), A(12, 36)
  for (int m = 0; m < 36; ++m) (m < 12 ? first_year : later_years) += discount_end_of_month(discount_rate_per_year, m);
  return (reserved_3y_usd_per_hour * (first_year + later_years) - reserved_1y_usd_per_hour * first_year) / later_years;
}

// A(a, b) = sum_{m=a}^{b-1} (1 + r)^(-(m+1)/12).
static double annuity_months(double discount_rate_per_year, int first_month, int end_month) {
  double sum = 0.0;
  for (int m = first_month; m < end_month; ++m) sum += discount_end_of_month(discount_rate_per_year, m);
  return sum;
}

std::vector<ForwardSegment> implied_forwards_from_curve(const std::vector<TermPoint>& curve,
                                                        double discount_rate_per_year) {
  std::vector<ForwardSegment> forwards;
  forwards.reserve(curve.size());
  int previous_term = 0;
  double previous_cost = 0.0;  // P_{k-1} A(0, T_{k-1}): the shorter term's discounted cost per GPU-hour-month
  for (const TermPoint& point : curve) {
    const double cost = point.usd_per_gpu_hour * annuity_months(discount_rate_per_year, 0, point.term_months);
    const double span = annuity_months(discount_rate_per_year, previous_term, point.term_months);
    forwards.push_back({previous_term, point.term_months, (cost - previous_cost) / span});
    previous_term = point.term_months;
    previous_cost = cost;
  }
  return forwards;
}

}  // namespace tco
