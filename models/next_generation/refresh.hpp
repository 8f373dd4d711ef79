// A plan's refresh at the next generation (`plans[i].refresh`, docs/scenario.md; docs/model.md
// "Next generation", "Refresh"): k months after the successor arrives (month a, fixed or drawn per
// path), the plan sells its owned nodes at their then-current resale value and buys N' nodes of
// the successor server (`next_generation.successor_server`):
//   refresh month r = max(a + k, p + 1)     (p: the old fleet's delivery; it is held a month at least)
//   old fleet: owned over months p .. r - 1, sold at the start of month r at
//              resale_base x (1 - decline)^((r - p) / 12) x the resale step (the successor has
//              arrived by r), its loan's balance repaid then
//   successor: bought at the start of month r (cash or loan as the old fleet), N' nodes of its
//              server, the old fleet's network, storage and install per node, maintenance,
//              staff and colocation from r; the room is already built (no room capex); sold at
//              the horizon's end at its own resale curve from r, not stepped
//   hours h >= 730 r: the successor's GPUs per node, perf_relative and idle / peak kW
// A refresh month at or past the horizon's end is no refresh: the plan is the plan without one.
// Example: a = 8, k = 2, p = 0: the H100s serve months 0..9, are sold at the start of month 10
// at 20 months of age; the B200s serve from month 10.
#pragma once

#include <optional>

#include "core/hd.hpp"
#include "models/catalog/records.hpp"

namespace tco {

// r = max(a + k, p + 1) (for the sweep kernels too).
TCO_HD int refresh_month_for(int arrival_month, int months_after_arrival, int delivery_month) {
  const int r = arrival_month + months_after_arrival;
  return r > delivery_month ? r : delivery_month + 1;
}

struct PlanRefresh {
  int months_after_arrival = 0;    // k
  std::optional<int> nodes_as_written;
  int nodes = 0;                   // N': refresh.nodes, or the plan's onprem_nodes
  int month = 0;                   // r at the scenario's arrival month (moved with a path's draw)
  ServerModel server;              // the successor's (filled from next_generation.successor_server)
  GpuModel gpu;

  // r for arrival month a and the old fleet's delivery month p.
  int month_for(int arrival_month, int delivery_month) const {
    return refresh_month_for(arrival_month, months_after_arrival, delivery_month);
  }
};

}  // namespace tco
