// Breakevens (SPEC §8, §12.7).
// Utilization breakeven of one node of a plan's N-node fleet over its life L (months =
// 12 life_years), bought at month 0, with the §6 timing and discounting (SPEC §12.7):
//   PV(on-prem) = PV(fixed) + E(u)
//     fixed   = capex (as financed), maintenance, per-node staff, colocation per kW, the node's
//               share of the fleet's costs (fixed FTEs / N, room capex / N, the plan's racks / N),
//               idle energy (and its demand charge), minus the residual at the end of life
//     E(u)    = the energy above idle: (peak_kw - idle_kw) u / s(h) x PUE(h) x price(h) every hour
//               (a throttled hour, work rate s < 1, needs 1 / s as many busy GPUs), and the
//               demand charge on the month's peak facility kW
//   PV(cloud)   = u PV(G GPUs x cloud price per GPU-hour every hour)
//   u*          = the u where they are equal: PV(fixed) / (PV(cloud per u) - E(1)) when E is linear
//                 (no demand charge, or each month's peak in the same hour at u = 0 and u = 1),
//                 else the root of the convex gap by toms748; "never" when owning is dearer at u = 1.
// With N = 1 it is the ledger of a steady single-node plan run for L years, exactly. It assumes
// the node is never asked for more than it can do (u <= s in every hour).
// Over the horizon: the same u* with L replaced by the plans' horizon H (months): the node bought at
// month 0 and sold at the end of month H-1 at its resale value then, as the plans sell theirs
// (docs/model.md "Utilization breakeven over the horizon"). The verdict quotes this one, so that its
// "never" agrees with the plans it sits beside; the breakevens table keeps SPEC §12.7's life L.
// Price breakeven: the multiplier k on every cloud price at which a plan's NPV equals the
// baseline's, found by Boost.Math's toms748 on (0, 1000].
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/scenario.hpp"

namespace tco {

// u* of one node priced over `months` (the life L, or the plans' horizon H).
struct BreakevenOverMonths {
  int months = 0;
  double pv_fixed_usd = 0.0;
  double pv_dynamic_energy_per_u_usd = 0.0;
  double pv_cloud_per_u_usd = 0.0;
  double end_usd_per_gpu_hour = 0.0;  // the cloud price in the last hour priced (its path's end)
  std::optional<double> utilization;
  std::optional<double> gpu_hours_per_month;
};

struct UtilizationBreakeven {
  std::string server_id;
  std::string offer_id;      // the cloud offer priced against: "aws/p5.48xlarge/us-east-1"
  std::string plan;          // the plan whose on-prem costs were used
  int fleet_nodes = 1;       // N: the node carries 1 / N of the fleet's costs
  std::string price_basis;   // "on_demand", "spot", "reserved_1y", "reserved_3y", "reserved_6m" (a term in months)
  double cloud_usd_per_gpu_hour = 0.0;
  double pv_fixed_usd = 0.0;
  double pv_dynamic_energy_per_u_usd = 0.0;  // (E(u*) - E(0)) / u*, or E(1) - E(0) without u*
  double pv_cloud_per_u_usd = 0.0;
  std::optional<double> utilization;  // nullopt: never breaks even (u* > 1 or cloud cheaper than energy)
  std::optional<double> gpu_hours_per_month;
  int life_months = 0;
  // The price path: cloud_usd_per_gpu_hour x the offer's factor in hour h (SPEC §12.1): a constant
  // change a year, or a schedule (scheduled: true) on top of it or in place of it.
  double start_usd_per_gpu_hour = 0.0;  // hour 0
  double life_end_usd_per_gpu_hour = 0.0;  // the last hour of the life
  double price_change_per_year = 0.0;
  bool price_scheduled = false;
  bool resale_at_end = false;  // the residual is on: the node is sold at the end of the months priced
  BreakevenOverMonths over_horizon;  // the same node over the plans' horizon, sold at its end
};

// One entry per price basis the reference offer has, for the on-prem spec of `plan`, over the node's
// life (SPEC §12.7); `over_horizon` is filled only by scenario_utilization_breakevens.
std::vector<UtilizationBreakeven> utilization_breakevens(const Scenario& scenario, const Plan& plan,
                                                         const CloudSpec& reference_cloud);

// The same, each basis priced over `months` instead of the life: one per basis, in the same order.
std::vector<BreakevenOverMonths> utilization_breakevens_over(const Scenario& scenario, const Plan& plan,
                                                             const CloudSpec& reference_cloud, int months);

// The scenario's utilization breakevens: each distinct on-prem server and fleet size of its plans against every
// cloud offer a plan uses (the baseline's first, then in plan order), on each price basis the offer has; a plan
// that overrides a catalog offer's price adds only the bases whose price differs. None without a cloud. Each
// with its figure over the scenario's horizon.
std::vector<UtilizationBreakeven> scenario_utilization_breakevens(const Scenario& scenario);

struct PriceBreakeven {
  std::string plan;
  std::string baseline;
  std::optional<double> cloud_price_multiplier;  // nullopt: no multiplier in (0, 1000] breaks even
};

PriceBreakeven price_breakeven(const Scenario& scenario, const Plan& plan, const Plan& baseline,
                               const std::vector<double>& demand_gpus);

}  // namespace tco
