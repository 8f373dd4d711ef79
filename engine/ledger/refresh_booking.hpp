// A refreshing plan's two fleets (models/next_generation/refresh.hpp; docs/model.md "Refresh"):
// the old fleet owned from its delivery p to the refresh month r and sold at the start of r, the
// successor bought at the start of r and owned to the horizon's end, each booked as
// engine/ledger/ownership_costs.hpp books one fleet (the successor: its server's price, the old
// fleet's network, storage and install per node, no room capex, no next-generation step on its
// resale). A refresh month at or past the horizon's end books the old fleet alone.
// Example: 8 H100 nodes at p = 0 refreshed at r = 10 to 4 B200 nodes: H100 maintenance in months
// 0..9, the H100s' residual (20 months old, stepped) at the end of month 9, B200 capex at the
// start of month 10, B200 maintenance from month 10, the B200s' residual (50 months old) at the end
// of month 59.
#pragma once

#include <optional>
#include <string>

#include "engine/ledger/hourly/hourly_model.hpp"
#include "engine/ledger/ownership_costs.hpp"
#include "models/scenario.hpp"

namespace tco {

struct RefreshFigures {
  int month = 0;                 // r (the deterministic run's: at the scenario's arrival month)
  bool inside_horizon = false;   // r < H: the refresh happens
  int nodes = 0;                 // the successor's nodes
  std::string server;            // the successor server's catalog id
  double old_fleet_sale_usd = 0.0;     // the old fleet's resale at r
  double successor_capex_usd = 0.0;    // what the successor fleet costs at r
  double successor_sale_usd = 0.0;     // its residual at the horizon's end
  int successor_racks = 0;
};

// The successor fleet as an on-prem section: the old one's terms with the successor's server and
// GPU, bought at month r.
OnPremSpec successor_onprem(const OnPremSpec& old, const PlanRefresh& refresh);

// The hourly fleet after the refresh (GPUs per node, perf, idle and peak kW of the successor).
FleetParams refreshed_fleet_params(const FleetParams& before, const PlanRefresh& refresh);

// Books both fleets' ownership costs; returns the two summaries' sum (depreciation by month
// added; the first fleet's delivery and deposit) and fills `figures`.
OwnershipSummary book_refreshed_ownership(const Plan& plan, int old_racks, int horizon_months, Ledger& ledger,
                                          RefreshFigures& figures);

// The plan's embodied CO2 (engine/ledger/ownership_costs.hpp), the old fleet's to the refresh and
// the successor's from it; returns the kg inside the horizon.
double book_plan_embodied_carbon(const Plan& plan, int horizon_months, Ledger& ledger);

}  // namespace tco
