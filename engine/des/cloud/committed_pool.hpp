// A plan's committed cloud capacity in the discrete-event replay (docs/des.md "Commitments"):
// the GPUs its take-or-pay contracts and capacity blocks hold in each hour
// (engine/ledger/commitment_booking.hpp's committed_gpus), prepaid, never preempted. A job
// leaving for the cloud runs there first, on whole instances, for as long as every hour of its
// run has room:
//   room(h) = committed(h) - held(h) >= the job's instances x GPUs per instance
// where held(h) counts the jobs already placed in hour h (a run that touches an hour holds it
// whole: two short runs in one hour never share its GPUs). The run ends when the job finishes,
// or at the start of the first hour without room (a block's window closing): the job
// checkpoints there, since the end is known when it starts, and goes on down the plan's list
// (its cloud offer) with the work left. First come, first served: a job placed earlier keeps its
// hours. What the runs occupy (their GPUs x the part of each hour they run) is the pool's use
// the report divides among its instruments (add_used_by_instrument).
// Example: a block of 8 instances x 8 GPUs over hours [24, 360) and a 64-GPU job arriving at hour
// 24 that needs 400 h: it runs on the block over [24, 360) and the rest, after a restart, on
// demand from hour 360.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace tco::des {

class CommittedPool {
 public:
  explicit CommittedPool(const std::vector<double>& committed_gpus_by_hour)
      : committed_(committed_gpus_by_hour), held_(committed_gpus_by_hour.size(), 0.0),
        occupied_(committed_gpus_by_hour.size(), 0.0) {}

  // Places a run of `gpus` that starts at start_h and would finish at finish_h: returns when it
  // leaves the pool (finish_h, or the first whole hour without room), start_h when there is no
  // room now. The hours it runs in are held.
  double place(double start_h, double finish_h, double gpus) {
    const long hours = static_cast<long>(committed_.size());
    const long first = static_cast<long>(std::floor(start_h));
    long h = first;
    while (h < hours && static_cast<double>(h) < finish_h && held_[h] + gpus <= committed_[h] + 1e-9) ++h;
    if (h == first) return start_h;
    const double end_h = std::min(finish_h, static_cast<double>(h));
    for (long k = first; k < h; ++k) {
      held_[k] += gpus;
      const double from_h = std::max(start_h, static_cast<double>(k));
      const double to_h = std::min(end_h, static_cast<double>(k + 1));
      occupied_[k] += gpus * (to_h - from_h);
    }
    return end_h;
  }

  // GPU-hours the runs occupied in each hour.
  const std::vector<double>& occupied_gpu_hours() const { return occupied_; }

 private:
  const std::vector<double>& committed_;
  std::vector<double> held_;
  std::vector<double> occupied_;
};

// Divides each hour's occupied GPU-hours among the pool's instruments in their order (each up
// to the GPUs it holds that hour) and adds them to used[instrument].
inline void add_used_by_instrument(const std::vector<double>& occupied_gpu_hours,
                                   const std::vector<int>& instruments,
                                   const std::vector<std::vector<double>>& gpus_by_hour_by_instrument,
                                   std::vector<double>& used) {
  for (std::size_t h = 0; h < occupied_gpu_hours.size(); ++h) {
    double left = occupied_gpu_hours[h];
    for (std::size_t i = 0; i < instruments.size() && left > 0.0; ++i) {
      const double share = std::min(left, gpus_by_hour_by_instrument[i][h]);
      used[instruments[i]] += share;
      left -= share;
    }
  }
}

}  // namespace tco::des
