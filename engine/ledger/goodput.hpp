// Goodput of an owned fleet under node failures (docs/model.md "Spares and goodput"), in GPU-hours
// of the on-prem pool over the horizon:
//   useful      = busy - lost          (busy: GPUs running jobs; lost: the work node failures
//                                       undid, GPUs x wall time since the last checkpoint)
//   repair wait = G x the hours each failed node's place stays empty (repair_h, or swap_h when a
//                 hot spare takes it), cut at the horizon
//   goodput     = useful / (useful + lost + repair wait) = 1 - (lost + repair wait) / total
// and 1 when the pool did nothing (no busy hour, nothing down): nothing was lost.
// Example: 8 GPUs busy 700 h of which 3 h x 8 = 24 GPU-hours were lost, one 48 h repair: useful
// 676, wait 384, goodput 676 / (676 + 24 + 384) = 0.6236.
#pragma once

namespace tco {

inline double goodput_ratio(double useful_gpu_hours, double lost_gpu_hours, double repair_wait_gpu_hours) {
  const double total = useful_gpu_hours + lost_gpu_hours + repair_wait_gpu_hours;
  return total > 0.0 ? useful_gpu_hours / total : 1.0;
}

struct GoodputFigures {
  double useful_gpu_hours = 0.0;
  double lost_gpu_hours = 0.0;         // to node failures only (spot preemptions are the cloud's)
  double repair_wait_gpu_hours = 0.0;
  double node_failures = 0.0;
  double spare_swaps = 0.0;            // failures a hot spare covered
  double goodput = 1.0;                // of these figures (a Monte Carlo's: of the mean figures)
};

}  // namespace tco
