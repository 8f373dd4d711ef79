// Time shifting that never hurts (SPEC §4, docs/model.md "Time shifting"): whether the replay
// holds a deferrable job for a cheaper start, and until when. For a job of G_j GPUs that runs
// run_h hours on-prem and draws kW_j = G_j x (peak - idle) / G more than idle nodes do:
//   E(t)    = kW_j x integral over [t, t + run_h] of PUE(h) x usd_per_kwh(h)   (the site's hours)
//   hold(t) = waiting_usd_per_gpu_hour x G_j x (t - now)
//   t*      = argmin net(t) = E(t) + hold(t) over t = now and the whole hours t in (now, latest]
//             whose start hour is unthrottled and whose GPUs are free in the promise ledger:
//             promised(h) + G_j + load_now <= pool GPUs - reserve (one node) for every hour h
//             the run covers
// The job is held until t* only when net(t*) < net(now); it saves E(now) - E(t*) of energy and
// pays hold(t*) as waiting. Ties go to the earliest hour, so equal cheap hours fill in order
// (valley filling: a full hour sends the next job to the next cheapest one, never stacks it).
// Example: 8 GPUs of 1 kW each at PUE 1.5, a 2 h run, $0.25/kWh now and $0.05 from 3 h on,
// waiting $0.10/GPU-h: E(now) = 8 x 1.5 x 0.25 x 2 = $6, E(3) = 8 x 1.5 x 0.05 x 2 = $1.20,
// hold(3) = 0.10 x 8 x 3 = $2.40; net 3.60 < 6: held 3 h, saving $4.80 of energy for $2.40.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/ledger/plan_evaluator.hpp"

namespace tco::des {

// The site's hours as the policy reads them: running sums of PUE x price, and whether an hour
// runs at full speed. The deterministic site (no path's ambient noise, no monthly price shock):
// a forecast, as a scheduler would have one.
struct ShiftCurve {
  std::vector<double> pue_usd_before;  // sum of PUE x usd_per_kwh over hours [0, h); hours + 1 entries
  std::vector<std::uint8_t> full_rate; // 1 where the hour is not throttled
  bool operator==(const ShiftCurve&) const = default;

  long hours() const { return static_cast<long>(full_rate.size()); }
  // Integral of PUE x price over [a, b], 0 <= a <= b <= hours.
  double pue_usd_integral(double a_h, double b_h) const { return before(b_h) - before(a_h); }

 private:
  double before(double t_h) const;
};

ShiftCurve shift_curve(const std::vector<SiteHour>& site);

// One deferrable job at its arrival.
struct ShiftRequest {
  double now_h = 0.0;
  int gpus = 0;
  double run_h = 0.0;           // its on-prem wall time
  double latest_start_h = 0.0;  // the last start that keeps the deadline with margin
  double kw = 0.0;              // its IT kW above idle
  int load_gpus = 0;            // GPUs busy or queued now (the load seen now is assumed to stay)
  int pool_gpus = 0;            // GPUs of the nodes up now
  int reserve_gpus = 0;         // kept free of promises (one node)
};

struct ShiftDecision {
  double start_h = 0.0;
  double energy_saved_usd = 0.0;  // E(now) - E(start)
  double hold_usd = 0.0;          // hold(start)
};

class TimeShiftPolicy {
 public:
  static constexpr long kSearchHours = 7 * 24;  // holds never look further ahead

  TimeShiftPolicy() = default;
  TimeShiftPolicy(const ShiftCurve* curve, double waiting_usd_per_gpu_hour)
      : curve_(curve), waiting_usd_per_gpu_hour_(waiting_usd_per_gpu_hour),
        promised_gpus_(curve ? static_cast<std::size_t>(curve->hours()) : 0, 0) {}

  // The hold that pays, if any (nothing is promised yet: promise() does that).
  std::optional<ShiftDecision> choose(const ShiftRequest& r) const;
  // The job's GPUs over the hours [start, start + run_h) its run covers; release() at its start.
  void promise(double start_h, double run_h, int gpus) { add(start_h, run_h, gpus); }
  void release(double start_h, double run_h, int gpus) { add(start_h, run_h, -gpus); }
  int promised_gpus(long hour) const { return promised_gpus_[static_cast<std::size_t>(hour)]; }

 private:
  bool fits(long start_h, double run_h, int gpus, int room) const;
  void add(double start_h, double run_h, int gpus);

  const ShiftCurve* curve_ = nullptr;
  double waiting_usd_per_gpu_hour_ = 0.0;
  std::vector<int> promised_gpus_;  // per hour: GPUs promised to held jobs
};

}  // namespace tco::des
