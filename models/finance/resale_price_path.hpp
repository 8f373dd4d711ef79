// A resale value tied to the rental price path (`onprem.residual.follows_cloud_price`,
// docs/model.md "Economic depreciation"): a used GPU is worth what it still earns, so the value of
// a fleet delivered at month p and sold at hour t moves with the on-demand price of its own GPU:
//   value(t) = resale_base x (1 - decline)^age x resale step(t) x R(t) / R(730 p)
// R(h) is the plan's cloud on-demand price factor (its dated schedule, or price_change_per_year)
// without the next generation's step, which the resale step already applies; on a Monte Carlo
// path of the hourly model the on-demand price process multiplies R by M (M_sale / M_delivery).
// Example: a schedule that halves the rental price by the sale: the resale value x 0.5.
#pragma once

#include <optional>

#include "models/price_path/price_schedule.hpp"

namespace tco {

struct ResalePricePath {
  std::optional<PriceSchedule> on_demand;
  double change_per_year = 0.0;

  // R(to_hour) / R(from_hour).
  double ratio(long from_hour, long to_hour) const {
    return price_factor(on_demand, change_per_year, to_hour) / price_factor(on_demand, change_per_year, from_hour);
  }
};

}  // namespace tco
