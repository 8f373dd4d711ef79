// Time shifting that never hurts (SPEC §4, docs/model.md §5.1): whether the replay holds a
// deferrable job for a cheaper start, and until when. For a job of G_j GPUs that runs run_h
// hours on-prem and draws kW_j = G_j x (peak - idle) / G more than idle nodes do:
//   E(t)    = kW_j x integral over [t, t + run_h] of PUE(h) x (usd_per_kwh(h) + carbon_usd_per_kwh(h))
//   hold(t) = waiting_usd_per_gpu_hour x G_j x (t - now)
//   t*      = argmin net(t) = E(t) + hold(t) over t = now and the whole hours t in (now, latest]
//             whose start hour is unthrottled and whose GPUs the forecast leaves idle:
//             promised(h) + G_j + known(h) + arrivals(h) <= pool GPUs - reserve (one node)
//             for every hour h the run covers, where
//   known(h)    = GPUs of the jobs running now still running at h (their known ends) + queued GPUs
//   arrivals(h) = min(L, A x (h + 1 - now)) + z x sqrt(V): the GPUs of jobs arriving after now
//             still running at h (M/G/inf), from the arrivals seen so far: A = sum G / elapsed,
//             L = sum G x run / elapsed, V = sum G^2 x run / elapsed, z = kArrivalSigmas (the .cpp)
// Nothing is held before kWarmupHours of arrivals are seen. The job is held until t* only when
// net(t*) < net(now); it saves E(now) - E(t*) and pays hold(t*). Ties go to the earliest hour, so
// equal cheap hours fill in order (valley filling: a full hour sends the next job on).
// Example: 8 GPUs of 1 kW each at PUE 1.5, a 2 h run, $0.25/kWh now and $0.05 from 3 h on,
// waiting $0.10/GPU-h: E(now) = 8 x 1.5 x 0.25 x 2 = $6, E(3) = 8 x 1.5 x 0.05 x 2 = $1.20,
// hold(3) = 0.10 x 8 x 3 = $2.40; net 3.60 < 6: held 3 h, saving $4.80 of energy for $2.40.
// At its hour a held job yields (is held one hour more, engine/des/event_loop.hpp) while others
// queue or fewer than its GPUs plus one node's are idle, as long as the next hour still keeps its
// deadline with margin and its energy costs no more than E(now) at arrival.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/ledger/plan_evaluator.hpp"

namespace tco::des {

// The site's hours as the policy reads them: running sums of PUE x price, and whether an hour
// runs at full speed. The deterministic site (no path's ambient noise, no monthly price shock):
// a forecast, as a scheduler would have one.
struct ShiftCurve {
  std::vector<double> pue_usd_before;  // sum of PUE x (usd_per_kwh + carbon) over hours [0, h); hours + 1 entries
  std::vector<std::uint8_t> full_rate; // 1 where the hour is not throttled
  bool operator==(const ShiftCurve&) const = default;

  long hours() const { return static_cast<long>(full_rate.size()); }
  // Integral of PUE x price over [a, b], 0 <= a <= b <= hours.
  double pue_usd_integral(double a_h, double b_h) const { return before(b_h) - before(a_h); }

 private:
  double before(double t_h) const;
};

// carbon_usd_per_kwh: the carbon price per facility kWh in each hour (g_co2_per_kwh(h) x
// usd_per_tonne / 10^6); one figure for every hour in the second form.
ShiftCurve shift_curve(const std::vector<SiteHour>& site, const std::vector<double>& carbon_usd_per_kwh);
inline ShiftCurve shift_curve(const std::vector<SiteHour>& site, double carbon_usd_per_kwh) {
  return shift_curve(site, std::vector<double>(site.size(), carbon_usd_per_kwh));
}

// One deferrable job at its arrival.
struct ShiftRequest {
  double now_h = 0.0;
  int gpus = 0;
  double run_h = 0.0;           // its on-prem wall time
  double latest_start_h = 0.0;  // the last start that keeps the deadline with margin
  double kw = 0.0;              // its IT kW above idle
  // known(floor(now) + k) for k = 0, 1, ...: GPUs of the jobs running or queued now that are
  // still busy at that hour; hours past its end count known(h) = queued_gpus.
  std::span<const int> known_gpus;
  int queued_gpus = 0;
  int pool_gpus = 0;            // GPUs of the nodes up now
  int reserve_gpus = 0;         // kept free of promises (one node)
};

struct ShiftDecision {
  double start_h = 0.0;
  double energy_now_usd = 0.0;    // E(now)
  double energy_saved_usd = 0.0;  // E(now) - E(start)
  double hold_usd = 0.0;          // hold(start)
};

class TimeShiftPolicy {
 public:
  static constexpr long kSearchHours = 7 * 24;   // holds never look further ahead
  static constexpr double kWarmupHours = 24.0;   // arrivals seen before the first hold

  TimeShiftPolicy() = default;
  TimeShiftPolicy(const ShiftCurve* curve, double waiting_usd_per_gpu_hour)
      : curve_(curve), waiting_usd_per_gpu_hour_(waiting_usd_per_gpu_hour),
        promised_gpus_(curve ? static_cast<std::size_t>(curve->hours()) : 0, 0) {}

  // A job that may run on the pool arrived (held or not): the arrivals' forecast learns it.
  void observe_arrival(int gpus, double run_h);
  // GPUs of jobs arriving after now_h forecast to be busy at hour h (arrivals(h) above).
  double arrival_gpus(double now_h, long hour) const;

  // The hold that pays, if any (nothing is promised yet: promise() does that).
  std::optional<ShiftDecision> choose(const ShiftRequest& r) const;
  // The job's GPUs over the hours [start, start + run_h) its run covers; release() at its start.
  void promise(double start_h, double run_h, int gpus) { add(start_h, run_h, gpus); }
  void release(double start_h, double run_h, int gpus) { add(start_h, run_h, -gpus); }
  int promised_gpus(long hour) const { return promised_gpus_[static_cast<std::size_t>(hour)]; }

 private:
  // Whether r's job, started at the whole hour start_h, leaves the forecast's room (t* above).
  bool fits(const ShiftRequest& r, long start_h) const;
  void add(double start_h, double run_h, int gpus);

  const ShiftCurve* curve_ = nullptr;
  double waiting_usd_per_gpu_hour_ = 0.0;
  std::vector<int> promised_gpus_;  // per hour: GPUs promised to held jobs
  // The arrivals seen so far: sum G, sum G x run_h, sum G^2 x run_h
  double arrived_gpus_ = 0.0;
  double arrived_gpu_h_ = 0.0;
  double arrived_gpu2_h_ = 0.0;
};

}  // namespace tco::des
