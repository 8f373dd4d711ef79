// One replay path's goodput figures (engine/ledger/goodput.hpp) from its outcome.
#pragma once

#include "engine/des/simulator.hpp"
#include "engine/ledger/goodput.hpp"

namespace tco::des {

inline GoodputFigures path_goodput(const PathOutcome& o) {
  GoodputFigures g;
  g.lost_gpu_hours = o.jobs.failure_lost_gpu_hours;
  g.useful_gpu_hours = o.gpu_hours.onprem_busy - g.lost_gpu_hours;
  g.repair_wait_gpu_hours = o.jobs.repair_wait_gpu_hours;
  g.node_failures = static_cast<double>(o.jobs.node_failures);
  g.spare_swaps = static_cast<double>(o.jobs.spare_swaps);
  g.goodput = goodput_ratio(g.useful_gpu_hours, g.lost_gpu_hours, g.repair_wait_gpu_hours);
  return g;
}

// Adds b's figures to a's (sums over paths; the ratio is recomputed from the sums by the caller).
inline void add_goodput(GoodputFigures& a, const GoodputFigures& b) {
  a.useful_gpu_hours += b.useful_gpu_hours;
  a.lost_gpu_hours += b.lost_gpu_hours;
  a.repair_wait_gpu_hours += b.repair_wait_gpu_hours;
  a.node_failures += b.node_failures;
  a.spare_swaps += b.spare_swaps;
}

}  // namespace tco::des
