// A plan's ordered cloud venues in the discrete-event replay (issue #24, docs/model.md §3b): a
// job that leaves for the cloud asks venue 1, then venue 2, and so on. Venue i takes it when
//   its capacity draw says yes:  u(venue_availability, entity = the job's, draw = 8 attempt + i)
//                                 < availability_i (a venue of availability 1 draws nothing), and
//   its quota has room:          the plan's instances held there at every moment of the run
//                                 [t, finish) plus the job's stay within floor(quota_gpus / g_i).
// The job then runs there, played to its end as CloudRuns plays any cloud job: on-demand, or on
// spot at a spot venue, where the plan's spot market preempts it (its instances leave the quota
// then) and the job, with the work it saved and a restart to pay, asks the venues again from
// venue 1 at once (the hourly model's spot_overhead_factor stands for these re-runs). When no
// venue takes it, it waits the plan's cloud.spot.retry_h and asks again from venue 1, its wait
// costed like any wait (waiting_usd_per_gpu_hour) and the request counted (no_venue_capacity);
// at the horizon it is unfinished, its work unserved. A retry is decided when the job first
// fails, so its run holds its place in the quota ahead of jobs that arrive later (first come,
// first served). With one venue of availability 1 and no quota, every job runs on that venue at
// once: the plan's plain burst to that offer, bit for bit.
// Example: a quota of 1 instance and two 8-GPU jobs of 10 h arriving at t = 0 (8-GPU instances,
// retry_h 0.5): the first runs over [0, 10); the second asks at 0, 0.5, ..., 9.5 (20 refusals,
// 8 x 10 = 80 GPU-hours waited) and runs over [10, 20).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/des/cloud/cloud_runs.hpp"
#include "models/venues/venue_limit.hpp"

namespace tco::des {

// The instances a plan holds at one venue over time, to test a quota.
class VenueHolds {
 public:
  // Forgets the holds that ended by t_h (requests come at non-decreasing event times).
  void forget_before(double t_h) {
    holds_.erase(std::remove_if(holds_.begin(), holds_.end(), [&](const Hold& h) { return h.end_h <= t_h; }),
                 holds_.end());
  }
  // Whether `instances` more fit under `quota` at every moment of [start_h, end_h).
  bool fits(double start_h, double end_h, int instances, int quota) {
    if (instances > quota) return false;
    steps_.clear();
    int held = 0;
    for (const Hold& h : holds_) {
      if (h.end_h <= start_h || h.start_h >= end_h) continue;
      if (h.start_h <= start_h) {
        held += h.instances;
      } else {
        steps_.push_back({h.start_h, h.instances});
      }
      if (h.end_h < end_h) steps_.push_back({h.end_h, -h.instances});
    }
    if (held + instances > quota) return false;
    // Ends before starts at one instant: a run that ends at t frees its instances for one at t.
    std::sort(steps_.begin(), steps_.end(), [](const Step& a, const Step& b) {
      return a.t_h < b.t_h || (a.t_h == b.t_h && a.delta < b.delta);
    });
    for (const Step& s : steps_) {
      held += s.delta;
      if (held + instances > quota) return false;
    }
    return true;
  }
  void hold(double start_h, double end_h, int instances) { holds_.push_back({start_h, end_h, instances}); }
  // The last run held ended early at end_h (a spot run preempted): its instances are free from then.
  void end_last_at(double end_h) { holds_.back().end_h = end_h; }

 private:
  struct Hold {
    double start_h, end_h;
    int instances;
  };
  struct Step {
    double t_h;
    int delta;
  };
  std::vector<Hold> holds_;
  std::vector<Step> steps_;
};

class VenueRouter {
 public:
  VenueRouter(const DesPlan& p, const PathInputs& in, const MonthIndex& month_index, int months, double horizon_h)
      : p_(p), in_(in), horizon_h_(horizon_h), holds_(p.venues.size()) {
    runs_.reserve(p.venues.size());
    for (const DesVenue& v : p.venues) runs_.emplace_back(v.terms, in, month_index, months, horizon_h);
  }

  // The job's life in the cloud from t_h: the first venue that takes it, or waiting.
  void run(const CloudEntry& entry, double t_h) {
    const double retry_h = std::max(p_.spot.retry_h, CloudRuns::kMinimumRetryH);
    for (auto& h : holds_) h.forget_before(t_h);
    CloudEntry e = entry;
    for (std::uint32_t attempt = 0;; ++attempt) {
      bool preempted = false;
      for (std::size_t i = 0; i < runs_.size() && !preempted; ++i) {
        if (!takes(i, e, t_h, attempt)) continue;
        if (!p_.venues[i].spot) {
          runs_[i].run(e, t_h);
          return;
        }
        if (runs_[i].run_spot_venue(e, t_h)) return;
        if (p_.venues[i].quota_instances >= 0) holds_[i].end_last_at(t_h);
        preempted = true;
      }
      if (preempted) continue;  // a new request at the preemption, from venue 1
      CloudRuns& first = runs_.front();
      ++first.outcome().jobs.no_venue_capacity;
      const double next_h = t_h + retry_h;
      if (!(next_h < horizon_h_)) {
        first.book_waiting(e.job->gpus, t_h, horizon_h_);
        book_unfinished(first.outcome().jobs, e.job->gpus, e.remaining_h, e.deadline_abs_h, horizon_h_);
        return;
      }
      first.book_waiting(e.job->gpus, t_h, next_h);
      ++first.outcome().events;  // the retry
      t_h = next_h;
    }
  }

  // Each venue's bills, waits and counters (the waits and refusals are booked on the first).
  std::vector<CloudRuns>& venue_runs() { return runs_; }

 private:
  // Whether venue i has capacity for the job's `attempt`-th request at t_h; if so, its quota
  // now holds the run.
  bool takes(std::size_t i, const CloudEntry& e, double t_h, std::uint32_t attempt) {
    const DesVenue& v = p_.venues[i];
    if (v.availability < 1.0 &&
        !(uniform(in_.seed, in_.path, RandomSource::venue_availability, e.job->entity,
                  attempt * kMaxVenuesPerPlan + static_cast<std::uint32_t>(i)) < v.availability))
      return false;
    if (v.quota_instances < 0) return true;
    const int instances = runs_[i].instances_for(e.job->gpus);
    const double end_h = runs_[i].on_demand_finish_h(e, t_h);
    if (!holds_[i].fits(t_h, end_h, instances, v.quota_instances)) return false;
    holds_[i].hold(t_h, end_h, instances);
    return true;
  }

  const DesPlan& p_;
  const PathInputs& in_;
  double horizon_h_;
  std::vector<CloudRuns> runs_;    // one per venue, on its terms
  std::vector<VenueHolds> holds_;  // one per venue (used with a quota)
};

}  // namespace tco::des
