// Breakevens (SPEC §8, §12.7).
// Utilization breakeven of one node over its life L (months = 12 life_years), bought at
// month 0, with the §6 timing and discounting:
//   PV(on-prem) = PV(fixed) + u PV(dynamic energy)
//     fixed   = capex (as financed), maintenance, per-node staff, colocation per kW, the
//               node's share (1 / nodes_per_rack) of the rack fee, idle energy (and its
//               demand charge), minus the residual at the end of life
//     dynamic = (peak_kw - idle_kw) x PUE(h) x price(h) every hour (and its demand charge)
//   PV(cloud)   = u PV(G GPUs x cloud price per GPU-hour every hour)
//   u*          = PV(fixed) / (PV(cloud per u) - PV(dynamic per u)); "never" when u* > 1.
// The team's fixed FTEs and room capex are fleet costs, not a node's: they are left out.
// Thermal throttling is left out (u is the busy fraction).
// Price breakeven: the multiplier k on every cloud price at which a plan's NPV equals the
// baseline's, found by Boost.Math's toms748 on (0, 1000].
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/scenario.hpp"

namespace tco {

struct UtilizationBreakeven {
  std::string server_id;
  std::string plan;          // the plan whose on-prem costs were used
  std::string price_basis;   // "on_demand", "spot", "reserved_1y", "reserved_3y"
  double cloud_usd_per_gpu_hour = 0.0;
  double pv_fixed_usd = 0.0;
  double pv_dynamic_energy_per_u_usd = 0.0;
  double pv_cloud_per_u_usd = 0.0;
  std::optional<double> utilization;  // nullopt: never breaks even (u* > 1 or cloud cheaper than energy)
  std::optional<double> gpu_hours_per_month;
  int life_months = 0;
};

// One entry per price basis the reference offer has, for the on-prem spec of `plan`.
std::vector<UtilizationBreakeven> utilization_breakevens(const Scenario& scenario, const Plan& plan,
                                                         const CloudSpec& reference_cloud);

// The scenario's utilization breakevens: each distinct on-prem server of its plans against the
// reference cloud (the baseline's, else the first plan's that has one); none without a cloud.
std::vector<UtilizationBreakeven> scenario_utilization_breakevens(const Scenario& scenario);

struct PriceBreakeven {
  std::string plan;
  std::string baseline;
  std::optional<double> cloud_price_multiplier;  // nullopt: no multiplier in (0, 1000] breaks even
};

PriceBreakeven price_breakeven(const Scenario& scenario, const Plan& plan, const Plan& baseline,
                               const std::vector<double>& demand_gpus);

}  // namespace tco
