// How a savings plan's hourly commitment covers an hour's usage (AWS Savings Plans User Guide,
// "How Savings Plans apply to your usage": the commitment goes to the usage with the highest
// discount percentage first, at the plan's rates; what it does not reach is billed on-demand):
//   for each usage type k in decreasing discount 1 - rate_k / on_demand_k:
//     covered_k = min(instance_hours_k, remaining / rate_k),  remaining -= covered_k x rate_k
//   hour's bill = C (always) + sum_k (instance_hours_k - covered_k) x on_demand_k
// Example (tests/test_commitments.cpp): C = $50/h; A 5 h at $10 on-demand, $6 plan rate (40% off);
// B 3 h at $20, $15 (25% off). A first: covered 5, $30 used, $20 left; B: covered 20 / 15 =
// 1.3333 h; bill 50 + (3 - 1.3333) x 20 = $83.33 against $110 on-demand.
#pragma once

#include "core/hd.hpp"

namespace tco {

struct SavingsPlanUsage {
  double instance_hours = 0.0;
  double plan_usd_per_instance_hour = 0.0;  // > 0
  double on_demand_usd_per_instance_hour = 0.0;
  double covered_instance_hours = 0.0;      // out
};

// The share of on-demand the plan's rate leaves off (0.4 for $6 against $10).
TCO_HD double savings_plan_discount(const SavingsPlanUsage& u) {
  return u.on_demand_usd_per_instance_hour > 0.0 ? 1.0 - u.plan_usd_per_instance_hour / u.on_demand_usd_per_instance_hour
                                                 : 0.0;
}

// Fills covered_instance_hours of n usages (any order: they are visited by decreasing discount,
// ties in the given order) and returns the commitment left unused (USD).
TCO_HD double savings_plan_cover(double commitment_usd, SavingsPlanUsage* usage, int n) {
  double remaining = commitment_usd;
  for (int k = 0; k < n; ++k) usage[k].covered_instance_hours = 0.0;
  for (int visited = 0; visited < n && remaining > 0.0; ++visited) {
    int best = -1;
    for (int k = 0; k < n; ++k) {
      if (usage[k].covered_instance_hours > 0.0 || usage[k].instance_hours <= 0.0) continue;
      if (best < 0 || savings_plan_discount(usage[k]) > savings_plan_discount(usage[best])) best = k;
    }
    if (best < 0) break;
    SavingsPlanUsage& u = usage[best];
    const double reachable = remaining / u.plan_usd_per_instance_hour;
    u.covered_instance_hours = reachable < u.instance_hours ? reachable : u.instance_hours;
    remaining -= u.covered_instance_hours * u.plan_usd_per_instance_hour;
    if (remaining < 1e-9 * commitment_usd) remaining = 0.0;
  }
  return remaining;
}

// The one-type case the fluid model steps (the plan has one cloud offer): covered instances.
TCO_HD double savings_plan_covered_instances(double commitment_usd, double plan_usd_per_instance_hour,
                                                    double instances) {
  if (commitment_usd <= 0.0 || instances <= 0.0) return 0.0;
  const double reachable = commitment_usd / plan_usd_per_instance_hour;
  return reachable < instances ? reachable : instances;
}

}  // namespace tco
