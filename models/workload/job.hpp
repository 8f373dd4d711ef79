// A GPU job (SPEC §3): what the discrete-event replay schedules. Times are hours; a job
// needs `gpus` GPUs for `duration_h` hours of wall time on the reference GPU (perf 1), so
// on a venue of speed p, with multi-node efficiency e when it spans nodes or instances:
//   wall_h = duration_h / (p x e)     (x 1 / (1 - throttle_fraction) in throttled on-prem hours)
// With a checkpoint every c hours of compute costing w hours to write, a run of T compute
// hours takes T + (ceil(T / c) - 1) w hours (no checkpoint after the last piece).
// Optional fields use a sentinel: max_wait_h < 0 = "the plan's default", deadline_h =
// infinity = none, checkpoint_h = 0 = never checkpoints.
// Example: 16 GPUs x 10 h, checkpoint every 2 h, write 0.1 h: 10 + 4 x 0.1 = 10.4 h on H100.
#pragma once

#include <limits>
#include <string>

namespace tco {

struct Job {
  double submit_h = 0.0;      // hours from the scenario start (or the trace start)
  int gpus = 1;               // >= 1
  double duration_h = 0.0;    // wall time on the reference GPU with `gpus` GPUs, > 0
  std::string gpu_type;       // "" = any
  bool preemptible = false;   // checkpoints, may run on spot
  double checkpoint_h = 0.0;  // interval between checkpoints; 0 = none
  double max_wait_h = -1.0;   // queue limit before bursting; < 0 = the plan's default
  double deadline_h = std::numeric_limits<double>::infinity();  // finish within this many hours of submit_h
  bool deferrable = false;    // may be held for a cheap window when its slack allows
  std::string job_class;      // "class" in the CSV; "" = "default"

  bool has_deadline() const { return deadline_h < std::numeric_limits<double>::infinity(); }
  bool has_max_wait() const { return max_wait_h >= 0.0; }
  double gpu_hours() const { return gpus * duration_h; }
};

}  // namespace tco
