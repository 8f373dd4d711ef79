#include "models/finance/economic_depreciation.hpp"

#include "core/calendar.hpp"
#include "models/finance.hpp"

namespace tco {

std::vector<EconomicYear> economic_depreciation(double paid_usd, double resale_base_usd, double decline_per_year,
                                                const GenerationStep& resale_step, int delivery_month, int years,
                                                const ResalePricePath* price_path) {
  std::vector<EconomicYear> out;
  double value_before_usd = paid_usd;
  for (int k = 1; k <= years; ++k) {
    const long last_hour_of_year = static_cast<long>(delivery_month + 12 * k - 1) * kHoursPerMonth;
    double value_usd = residual_value_usd(resale_base_usd, decline_per_year, k) * resale_step.at(last_hour_of_year);
    if (price_path) value_usd *= price_path->ratio(static_cast<long>(delivery_month) * kHoursPerMonth, last_hour_of_year);
    out.push_back({value_before_usd - value_usd, value_usd});
    value_before_usd = value_usd;
  }
  return out;
}

}  // namespace tco
