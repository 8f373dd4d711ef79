// The block lengths a provider sells (pricing-data/README.md "Capacity-block durations"):
//   aws    1 to 14 days in 1-day steps, then 7-day steps up to 182 days: 1, 2, ..., 14, 21, 28,
//          ..., 182 (AWS EC2 User Guide, "Capacity Blocks for ML";
//          ../shared/data/published-prices/README.md)
//   other  any whole number of days from 1 to 182 (no published rule to check against)
// Example: 20 days from aws: refused (between 14 and 21, not a multiple of 7); 20 days from a
// provider without a rule: sold.
#pragma once

#include <string>
#include <string_view>

#include "models/input_limits.hpp"

namespace tco {

// Whether `provider` sells a capacity block of `days` days (days in [1, kMaxCapacityBlockDays]).
inline bool capacity_block_days_sold(std::string_view provider, long days) {
  if (days < 1 || days > limits::kMaxCapacityBlockDays) return false;
  if (provider == "aws") return days <= 14 || days % 7 == 0;
  return true;
}

// The rule in words, for an error message: "1 to 14 days, then 21, 28, ..., 182 (7-day steps)".
inline std::string capacity_block_days_rule(std::string_view provider) {
  if (provider == "aws") return "1 to 14 days in 1-day steps, then 21, 28, ..., 182 days in 7-day steps";
  return "1 to 182 whole days";
}

}  // namespace tco
