// Hot spares (docs/model.md "Spares and goodput"; the replay's side in engine/des/fleet/spare_pool.hpp).
// S spare nodes are bought, racked, staffed and powered like the plan's N nodes, but take no jobs:
//   owned nodes    = N + S   (capex, maintenance, staff per node, colocation kW, racks, residual,
//                             depreciation, embodied carbon)
//   idle power     = S x idle_kw x PUE while no spare is in use (each spare in use draws as the
//                    node it replaced, which the replay counts among the nodes up)
// In the replay, when a node fails and a spare is free (and swap_h < repair_h) the spare takes its
// place after swap_h instead of repair_h; the failed node is repaired repair_h after the failure
// and becomes a spare. Each failure costs repair_cost_usd_per_failure (category `repair`), spare
// or not. The fluid models carry the spares' costs and idle power only (no failures there to
// swap, docs/model.md).
// Example: 2 spares of a $300,000 node with idle_kw 1.0 at PUE 1.2 and $0.10/kWh: capex $600,000,
// idle power 2 x 1.0 x 1.2 x 0.10 = $0.24 an hour.
#pragma once

#include <optional>

#include "core/io/json_reader.hpp"

namespace tco {

struct SparesSpec {
  int nodes = 0;                               // hot spares S
  double swap_h = 1.0;                         // a spare in place of a failed node
  double repair_cost_usd_per_failure = 0.0;    // parts and labour, per node failure

  bool operator==(const SparesSpec&) const = default;
};

// Reads an onprem "spares" object (strict; pointers and ranges from models/input_limits.hpp).
SparesSpec parse_spares(JsonObjectReader& r);
Json to_json(const SparesSpec& spares);

}  // namespace tco
