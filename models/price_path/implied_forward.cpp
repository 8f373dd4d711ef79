#include "models/price_path/implied_forward.hpp"

#include "models/finance.hpp"

namespace tco {

double implied_forward_usd_per_hour(double reserved_1y_usd_per_hour, double reserved_3y_usd_per_hour,
                                    double discount_rate_per_year) {
  double first_year = 0.0, later_years = 0.0;  // A(0, 12), A(12, 36)
  for (int m = 0; m < 36; ++m) (m < 12 ? first_year : later_years) += discount_end_of_month(discount_rate_per_year, m);
  return (reserved_3y_usd_per_hour * (first_year + later_years) - reserved_1y_usd_per_hour * first_year) / later_years;
}

}  // namespace tco
