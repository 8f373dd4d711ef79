// How a savings plan's hourly commitment covers an hour's usage (AWS Savings Plans User Guide,
// "How Savings Plans apply to your usage": the commitment goes to the usage with the highest
// discount percentage first, at the plan's rates; what it does not reach is billed on-demand):
//   for each usage type k in decreasing discount 1 - rate_k / on_demand_k:
//     covered_k = min(instance_hours_k, remaining / rate_k),  remaining -= covered_k x rate_k
//   hour's bill = C (always) + sum_k (instance_hours_k - covered_k) x on_demand_k
// The order is fixed when the scenario is read (models/commitment/savings_plan_venues.cpp); the
// hourly model, the sweep kernel (engine/ledger/hourly/venue_step.hpp) and the replay
// (engine/des/cloud/savings_plan_meter.hpp) take each usage's step with savings_plan_cover_step.
// Example (tests/test_commitments.cpp): C = $50/h; A 5 h at $10 on-demand, $6 plan rate (40% off);
// B 3 h at $20, $15 (25% off). A first: covered 5, $30 used, $20 left; B: covered 20 / 15 =
// 1.3333 h; bill 50 + (3 - 1.3333) x 20 = $83.33 against $110 on-demand.
#pragma once

#include "core/hd.hpp"

namespace tco {

// The instances (or instance-hours) a commitment of commitment_usd covers of `instances` at the
// plan's rate: min(instances, commitment_usd / rate).
TCO_HD double savings_plan_covered_instances(double commitment_usd, double plan_usd_per_instance_hour,
                                                    double instances) {
  if (commitment_usd <= 0.0 || instances <= 0.0) return 0.0;
  const double reachable = commitment_usd / plan_usd_per_instance_hour;
  return reachable < instances ? reachable : instances;
}

// One usage's step in the order: what `left_usd` (the hour's commitment not yet used) covers of
// `instance_hours` at `plan_usd_per_instance_hour`, taken off left_usd.
TCO_HD double savings_plan_cover_step(double& left_usd, double plan_usd_per_instance_hour, double instance_hours) {
  const double covered = savings_plan_covered_instances(left_usd, plan_usd_per_instance_hour, instance_hours);
  left_usd -= covered * plan_usd_per_instance_hour;
  return covered;
}

}  // namespace tco
