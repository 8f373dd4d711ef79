// Economic depreciation (docs/model.md §6 "Depreciation views"): what an owned fleet loses in
// resale value each year from its delivery at month p, on the curve the residual is sold on
// (engine/ledger/ownership_costs.hpp):
//   V(0) = what was paid (capex and room: install and room resell for nothing)
//   V(k) = resale_base x (1 - decline)^k x step(end of month p + 12k - 1),  k = 1, 2, ...
//   economic depreciation of year k = V(k - 1) - V(k)
// where step is the next generation's resale step once it has arrived (1 before; the price path
// that moves the cloud's prices moves the resale value by the same event), and, with
// residual.follows_cloud_price, x R(end of year k) / R(delivery) of the rental price path.
// Example: paid $1,000,000, resale base $900,000, decline 30%/yr, no step: V(1) = 630,000,
// V(2) = 441,000: $370,000 in year 1 (the install's $100,000 among it), $189,000 in year 2.
#pragma once

#include <vector>

#include "models/finance/resale_price_path.hpp"
#include "models/next_generation/generation_step.hpp"

namespace tco {

struct EconomicYear {
  double depreciation_usd = 0.0;  // V(k - 1) - V(k)
  double value_after_usd = 0.0;   // V(k)
};

// price_path (may be null): the value also x R(end of year k) / R(delivery), when it follows the
// rental price (models/finance/resale_price_path.hpp).
std::vector<EconomicYear> economic_depreciation(double paid_usd, double resale_base_usd, double decline_per_year,
                                                const GenerationStep& resale_step, int delivery_month, int years,
                                                const ResalePricePath* price_path = nullptr);

}  // namespace tco
