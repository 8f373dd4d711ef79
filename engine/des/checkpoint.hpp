// Checkpointed progress (SPEC §4, §12.13), as closed forms rather than one event per
// checkpoint: a job computes c hours, writes a checkpoint for w hours, computes c hours, ...
// and writes no checkpoint after its last piece. With s = c + w, after e hours of running
// (past any provisioning and restart overhead):
//   k = floor(e / s) checkpoints completed, saved = k c, done = k c + min(e - k s, c)
//   lost wall time on an interruption = e - k s (the work since the last checkpoint, and a
//   write cut short); an emergency checkpoint inside the notice saves `done` instead
//   wall time for T hours of compute = T + (ceil(T / c) - 1) w
// With c = 0 (no checkpoints) nothing is ever saved: lost = e.
// Example: c = 2, w = 0.5, preempted at e = 6: k = 2, saved 4 h, done 4 + min(1, 2) = 5 h,
// lost 1 h; T = 10 h of compute takes 10 + 4 x 0.5 = 12 h.
#pragma once

#include <algorithm>
#include <cmath>

namespace tco::des {

struct Progress {
  double done_h = 0.0;   // compute hours done
  double saved_h = 0.0;  // compute hours safe in a completed checkpoint
  double lost_h = 0.0;   // wall hours since the last completed checkpoint
};

// x / d, without the division when d is 1 (x / 1 is x, bit for bit). Speeds, work rates and
// checkpoint intervals are 1 most of the time, and the replay's divisions sat on the dependency
// chain from a job's start to its finish event.
inline double divide_exactly(double x, double d) { return d == 1.0 ? x : x / d; }

inline double wall_with_checkpoints_h(double compute_h, double interval_h, double write_h) {
  if (interval_h <= 0.0 || compute_h <= interval_h) return compute_h;
  return compute_h + (std::ceil(divide_exactly(compute_h, interval_h) - 1e-12) - 1.0) * write_h;
}

inline Progress progress_after(double elapsed_h, double interval_h, double write_h) {
  if (elapsed_h <= 0.0) return {};
  if (interval_h <= 0.0) return {elapsed_h, 0.0, elapsed_h};
  const double s = interval_h + write_h;
  const double k = std::floor(elapsed_h / s);
  const double into = elapsed_h - k * s;
  return {k * interval_h + std::min(into, interval_h), k * interval_h, into};
}

// Young's approximation of the optimal checkpoint interval for a preemption rate (per hour).
inline double young_interval_h(double write_h, double rate_per_h) { return std::sqrt(2.0 * write_h / rate_per_h); }

}  // namespace tco::des
