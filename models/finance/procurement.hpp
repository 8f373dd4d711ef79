// Procurement of an owned fleet (docs/model.md "Procurement"): the fleet is ordered in
// order_month, deposit_share of its capex is paid at the start of order_month, and the balance
// (cash or loan) at delivery. purchase_month is the planned delivery; the hardware arrives
//   delivered_month = purchase_month + ceil(slip_months)
// whole months later (a slip of 0.2 months misses the month's first hour), the slip fixed or drawn
// per path: triangular(low, mode, high) or lognormal(median, sigma) months, at
// u = uniform(seed, path, delivery_slip, 0, 0) (every plan sees the same u on a path). A run
// without paths (the hourly model) takes the slip's median.
// Example: capex $1,000,000, order_month 0, deposit_share 0.3, purchase_month 6, fixed slip 3:
// $300,000 at the start of month 0, $700,000 at the start of month 9, the nodes serve from hour
// 9 x 730 = 6,570. Triangular(0, 3, 12): median 12 - sqrt(0.5 x 12 x 9) = 4.65 -> delivered at
// month 6 + 5 = 11; P(delivered after month 11) = P(slip > 5) = (12 - 5)^2 / (12 x 9) = 0.4537.
#pragma once

#include <cstdint>

#include "core/io/json_reader.hpp"
#include "models/uncertain.hpp"

namespace tco {

struct ProcurementSpec {
  int order_month = 0;
  double deposit_share = 0.0;      // of the fleet's capex, paid at the start of order_month
  bool slip_drawn = false;         // false: slip_fixed_months on every path
  double slip_fixed_months = 0.0;
  UncertainDistribution slip;      // triangular or lognormal, in months (when drawn)

  double slip_months(double u) const { return slip_drawn ? slip.quantile(u) : slip_fixed_months; }
  bool operator==(const ProcurementSpec&) const = default;
};

// Whole months of delay: ceil(slip_months), with 1e-9 of tolerance so that 3.0 stays 3.
int whole_slip_months(double slip_months);

// The delivery month without a path (the hourly model): fixed slip, or the median of a drawn one.
int planned_delivery_month(int purchase_month, const ProcurementSpec& p);

// The delivery month on a Monte Carlo path.
int delivered_month(int purchase_month, const ProcurementSpec& p, std::uint64_t seed, std::uint32_t path);

// Reads a distribution in months: {"type": "triangular", "low_months", "mode_months",
// "high_months"} or {"type": "lognormal", "median_months", "sigma"} (a drawn delivery slip, a
// drawn next-generation arrival). Errors name the file and the JSON pointer.
UncertainDistribution parse_months_distribution(JsonObjectReader& r);

// Reads an onprem "procurement" object; purchase_month is the planned delivery month (the order
// cannot come after it). Errors name the file and the JSON pointer.
ProcurementSpec parse_procurement(JsonObjectReader& r, int purchase_month);

}  // namespace tco
