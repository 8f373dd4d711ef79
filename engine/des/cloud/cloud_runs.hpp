// A job's life on spot and on-demand instances (SPEC §4, §12.12, §12.15), played to its end when
// the replay sends the job there. Such a job holds instances of its own and never returns to a
// pool, so nothing it does depends on another job or changes what another job sees: its spot
// requests, retries, preemptions, fallback and finish need no queue events. Each step is booked
// at its own time (bills and waiting split by month, counters), and what the horizon finds
// running or waiting is booked as the horizon finds it (billed for the time used, unfinished).
// Steps before the horizon that were events of their own (a preemption, a spot retry) still
// count in PathOutcome::events. Reserved instances are a pool that jobs share, so reserved runs
// stay in the event loop (engine/des/event_loop.hpp).
// A CloudRuns books into a PathOutcome of its own (outcome()), which the replay adds to the
// event loop's: plans whose event loops are alike (DesPlan::pool_group) share one event loop,
// each with its own CloudRuns, and a plan's numbers do not depend on whether it shares one.
// Header-only, so that the replay's flattened event loop inlines it (simulator.cpp's
// TCO_REPLAY_CLONES); only the spot loop stays out of line (most bursts go on-demand).
// Example: an 8-GPU job of 2 h on spot that finds no capacity at t = 0, retries at 0.5 h, gets
// capacity and is never preempted: one retry event, 8 GPUs x 0.5 h = 4 GPU-hours of waiting, and
// a spot run over [0.5, 2.5 + startup_h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/des/checkpoint.hpp"
#include "engine/des/cloud/committed_pool.hpp"
#include "engine/des/kernel/cold.hpp"
#include "engine/des/des_plan.hpp"
#include "engine/des/month_index.hpp"
#include "engine/des/cloud/savings_plan_meter.hpp"
#include "engine/des/simulator.hpp"
#include "engine/des/cloud/spot_market.hpp"
#include "core/random/random.hpp"
#include "models/price_path/price_process.hpp"

namespace tco::des {

// The job as it enters the cloud, with its progress so far (a job a node failure killed
// on-prem comes with less work left and a restart to pay).
struct CloudEntry {
  const SimJob* job = nullptr;
  double remaining_h = 0.0;  // reference compute hours still to do (speed 1)
  double ready_h = 0.0;      // when it became ready to run (for the first start's wait)
  double deadline_abs_h = 0.0;
  double pending_restart_h = 0.0;
  bool started = false;
  std::uint32_t spot_runs = 0;  // spot runs so far (a spot venue's preemption draws go on from here)
};

// The bookkeeping of a job's first start, its completion and its state at the horizon, shared
// by the cloud's runs and the event loop's (on-prem, reserved).
inline void book_first_start(JobCounters& c, bool& started, double t_h, double ready_h) {
  if (started) return;
  started = true;
  ++c.started;
  c.first_wait_h_sum += t_h - ready_h;
}

inline void book_completed(PathOutcome& out, const SimJob& job, double deadline_abs_h, double end_h) {
  ++out.jobs.completed;
  out.gpu_hours.useful += job.gpus * job.duration_h;
  if (end_h > deadline_abs_h + 1e-9) ++out.jobs.deadline_misses;
}

inline void book_unfinished(JobCounters& c, int gpus, double left_h, double deadline_abs_h, double horizon_h) {
  ++c.unfinished;
  c.unserved_gpu_hours += gpus * left_h;
  if (horizon_h > deadline_abs_h + 1e-9) ++c.deadline_misses;  // it can no longer finish in time
}

// The cloud's share of a completed job (on reserved, spot or on-demand instances): its work and
// its egress (in the month it ends).
inline void book_cloud_work(PathOutcome& out, const DesPlan& p, const MonthIndex& month_index, const SimJob& job,
                            double end_h) {
  const double work = job.gpus * job.duration_h;
  out.gpu_hours.cloud_work += work;
  if (p.egress_usd_per_gpu_hour > 0.0)
    out.cost_by_month[month_index.at(end_h)][static_cast<int>(Category::egress)] +=
        work / p.perf_cloud * p.egress_usd_per_gpu_hour;
}

class CloudRuns {
 public:
  static constexpr double kMinimumRetryH = 1.0 / 60.0;  // a zero retry_h would spin at one instant

  CloudRuns(const DesPlan& p, const PathInputs& in, const MonthIndex& month_index, int months, double horizon_h)
      : p_(p), in_(in), market_(p.spot, p.spot_trace, in.seed, in.path), month_index_(month_index), months_(months),
        horizon_h_(horizon_h), deadline_aware_(p.spot.policy == "deadline_aware"), spot_shock_(months, 1.0),
        on_demand_shock_(months, 1.0), savings_plan_(p.savings_plan) {
    out_.cost_by_month.assign(months, CostRow{});
    speed_[0] = p.perf_cloud;
    speed_[1] = p.perf_cloud * p.scheduling.cloud_multi_node_efficiency;
    if (p.cloud && p.spot.price_sigma > 0.0)
      for (int m = 0; m < months; ++m)
        spot_shock_[m] = lognormal_mean_one(uniform(in.seed, in.path, RandomSource::spot_price, m, 0), p.spot.price_sigma);
    if (p.cloud && p.cloud->price_processes.any()) {
      // The price processes' multipliers (models/price_path/price_process.hpp), the fluid model's draws.
      const PriceProcessParams on_demand = p.cloud->price_processes.on_demand_params();
      const PriceProcessParams spot = p.cloud->price_processes.spot_params();
      double on_demand_log = 0.0, spot_log = 0.0;
      for (int m = 0; m < months; ++m) {
        on_demand_shock_[m] = price_process_step(on_demand, in.seed, in.path, kPriceKindOnDemand, m, on_demand_log);
        spot_shock_[m] *= price_process_step(spot, in.seed, in.path, kPriceKindSpot, m, spot_log);
      }
    }
  }

  int instances_for(int gpus) const { return (gpus + p_.gpus_per_instance - 1) / p_.gpus_per_instance; }

  // What this plan's cloud booked so far (costs by month, GPU-hours, counters, events).
  PathOutcome& outcome() { return out_; }

  // What this CloudRuns did as a venue of its plan (engine/ledger/hourly/venue_hour.hpp's VenueTotals):
  // reference work, billed GPU-hours and instance-hours (provisioning, restarts and billing
  // granules included), its spot and on-demand bill, and the instances its runs launched.
  VenueTotals venue_totals() const {
    VenueTotals t;
    t.work_gpu_hours = out_.gpu_hours.cloud_work;
    t.billed_gpu_hours = out_.gpu_hours.on_demand_billed + out_.gpu_hours.spot_billed;
    for (const CostRow& row : out_.cost_by_month)
      t.cost_usd += row[static_cast<int>(Category::cloud_on_demand)] + row[static_cast<int>(Category::cloud_spot)];
    t.instance_hours = t.billed_gpu_hours / p_.gpus_per_instance;
    t.launched_instances = static_cast<double>(launched_instances_);
    return t;
  }

  // What the savings plan's settlement (settle_savings_plan) reads and writes of these runs.
  SavingsPlanShare savings_plan_share() { return {&savings_plan_, &out_.cost_by_month, static_cast<double>(p_.gpus_per_instance)}; }

  // When an on-demand run of the job started at t_h would end (start()'s arithmetic).
  double on_demand_finish_h(const CloudEntry& e, double t_h) const {
    const double overhead_h = p_.startup_h + e.pending_restart_h;
    const double compute_h = divide_exactly(e.remaining_h, speed(instances_for(e.job->gpus)));
    const double wall_h = overhead_h + wall_with_checkpoints_h(compute_h, e.job->checkpoint_h, p_.checkpoint_write_h);
    return t_h + wall_h;
  }

  // Waiting for cloud capacity over [a, b): GPU-hours, and their cost in the months they fall in.
  void book_waiting(int gpus, double a_h, double b_h) {
    const double waited = gpus * (b_h - a_h);
    out_.jobs.waited_gpu_hours += waited;
    out_.gpu_hours.waited += waited;
    if (!(p_.waiting_usd_per_gpu_hour > 0.0)) return;
    const int c = static_cast<int>(Category::waiting);
    for (int m = month_index_.at(a_h);; ++m) {
      const double end_h = m == months_ - 1 ? b_h : std::min(b_h, static_cast<double>(m + 1) * kHoursPerMonth);
      out_.cost_by_month[m][c] += gpus * (end_h - a_h) * p_.waiting_usd_per_gpu_hour;
      if (end_h >= b_h) return;
      a_h = end_h;
    }
  }

  // The job's run on the plan's committed capacity from t_h (engine/des/cloud/committed_pool.hpp), no
  // bill here (the commitments are prepaid): true when its life ends there (finished, or still
  // running at the horizon). False when there is no room now, or when the room ends first; then
  // e holds the work left after a checkpoint at that hour (and a restart to pay), t_h the hour,
  // and the job goes on to the plan's cloud offer. Its GPU-hours count as reserved_used and a
  // completion as completed_reserved (capacity bought ahead, as reserved instances are).
  bool run_committed(CloudEntry& e, double& t_h, CommittedPool& pool) {
    Life life{e, instances_for(e.job->gpus)};
    const double end_h = pool.place(t_h, on_demand_finish_h(e, t_h), life.instances * p_.gpus_per_instance);
    if (!(end_h > t_h)) return false;
    const Run r = start(life, t_h);
    out_.gpu_hours.reserved_used += life.instances * p_.gpus_per_instance * (std::min(end_h, horizon_h_) - r.start_h);
    if (!(end_h < horizon_h_)) {
      book_unfinished_run(life, r);
      return true;
    }
    if (end_h >= r.finish_h) {
      complete(life, r.finish_h);
      ++out_.jobs.completed_reserved;
      return true;
    }
    const Progress progress = progress_after(end_h - r.start_h - r.overhead_h, life.e.job->checkpoint_h,
                                             p_.checkpoint_write_h);
    life.e.remaining_h = std::max(0.0, life.e.remaining_h - progress.done_h * r.speed);
    life.e.pending_restart_h = p_.scheduling.restart_h;
    ++out_.events;  // the move off the commitment
    e = life.e;
    t_h = end_h;
    return false;
  }

  // One run of the job on this CloudRuns' spot instances from t_h, as a spot venue of its plan
  // (engine/des/cloud/venue_router.hpp: the venue granted capacity, its preemptions are the plan's spot
  // market's). True when its life ends there (finished, or running at the horizon); false when
  // preempted: then e holds the work left and a restart to pay, and t_h the preemption's time.
  bool run_spot_venue(CloudEntry& e, double& t_h) {
    Life life{e, instances_for(e.job->gpus), 0, e.spot_runs};
    ++out_.jobs.spot_requests;
    const double preempted_h = run_on_spot(life, t_h);
    e = life.e;
    e.spot_runs = life.spot_runs;
    if (!(preempted_h < horizon_h_)) return true;
    ++out_.events;  // the preemption
    t_h = preempted_h;
    return false;
  }

  // The job's whole life in the cloud from t_h on: spot while it wants spot and the policy lets
  // it stay, else on-demand.
  void run(CloudEntry e, double t_h) {
    Life life{e, instances_for(e.job->gpus)};
    if (wants_spot(*e.job))
      run_spot(life, t_h);
    else
      run_on_demand(life, t_h);
  }

 private:
  // The job's spot_share draw, when it may use spot.
  bool wants_spot(const SimJob& job) const {
    if (!p_.spot_allowed) return false;
    if (in_.spot_share_u)  // without a branch on the coin toss of preemptible
      return job.preemptible & (in_.spot_share_u[job.entity] < p_.plan->spot_share);
    return job.preemptible &&
           uniform_pair(in_.seed, in_.path, RandomSource::spot_availability, job.entity, 0).second < p_.plan->spot_share;
  }

  // Reference hours of work per hour on one instance, and on several (multi-node efficiency):
  // a table, not a branch on the job's size.
  double speed(int instances) const { return speed_[instances > 1]; }

  const PriceGrowth& growth_of(Category category) const {
    return category == Category::cloud_spot ? p_.spot_price_growth : p_.price_growth;
  }

  // ceil(t / granularity) granules, at least the minimum, per instance; the price grows by the
  // hour and carries the month's shock. At the horizon's end only the time used is billed.
  void bill(Category category, int instances, double start_h, double end_h, double usd_per_instance_h,
            const double* shock, bool to_horizon, double& billed_gpu_hours) {
    const double a = start_h, b = end_h;
    const double used_h = b - a;
    double billed_h = used_h;
    if (!to_horizon) {
      const double granules = std::ceil(used_h / p_.billing_granularity_h - 1e-9);
      billed_h = std::max(p_.minimum_billed_h, granules * p_.billing_granularity_h);
    }
    billed_gpu_hours += instances * p_.gpus_per_instance * billed_h;
    const double usd_per_h = instances * usd_per_instance_h;
    const PriceGrowth& growth = growth_of(category);
    const double growth_a = growth.at(a);
    const int month_a = month_index_.at(a), month_b = month_index_.at(b);
    const int c = static_cast<int>(category);
    const double start_a = static_cast<double>(month_a) * kHoursPerMonth;
    if (month_a == month_b && a >= start_a &&
        (month_b == months_ - 1 || b <= static_cast<double>(month_b + 1) * kHoursPerMonth)) {
      // The usual run: within one month (the loop's one step, without its branches).
      if (a < b) out_.cost_by_month[month_a][c] += usd_per_h * growth.integral(a, b, growth_a) * shock[month_a];
    } else {
      bill_across_months(c, a, b, month_a, month_b, growth_a, usd_per_h, shock);
    }
    const double extra_h = billed_h - used_h;
    if (extra_h > 0.0) out_.cost_by_month[month_b][c] += usd_per_h * extra_h * growth.at_hour_of(b) * shock[month_b];
    if (savings_plan_.active() && category == Category::cloud_on_demand) [[unlikely]]
      savings_plan_.add_run(instances, a, b, usd_per_h, growth, month_index_, shock, extra_h);
  }

  // bill()'s run over more than one month: each month's part at that month's shock.
  TCO_COLD void bill_across_months(int c, double a, double b, int month_a, int month_b, double growth_a,
                                   double usd_per_h, const double* shock) {
    const PriceGrowth& growth = growth_of(static_cast<Category>(c));
    for (int m = month_a; m <= month_b; ++m) {
      const double start = static_cast<double>(m) * kHoursPerMonth, end = static_cast<double>(m + 1) * kHoursPerMonth;
      const bool from_a = a >= start, to_b = m == months_ - 1 || b <= end;
      const double lo = from_a ? a : start, hi = to_b ? b : end;
      if (hi <= lo) continue;
      out_.cost_by_month[m][c] += usd_per_h * growth.integral(lo, hi, from_a ? growth_a : growth.at_hour_of(start)) * shock[m];
    }
  }

  struct Life {
    CloudEntry e;
    int instances;
    std::uint32_t spot_tries = 0;
    std::uint32_t spot_runs = 0;
  };

  // One run on instances of its own from t_h: provisioning and any restart first, then the
  // work with its checkpoints.
  struct Run {
    double start_h;
    double overhead_h;  // provisioning + restart
    double speed;
    double finish_h;
  };

  // Out of line: the replay inlines run() wherever a job bursts, and most bursts go on-demand,
  // so the spot loop stays one copy (compiled for the baseline architecture, as TCO_COLD code:
  // the same numbers, with no FMA contraction anywhere).
  [[gnu::noinline]] void run_spot(Life& life, double t_h) {
    while (true) {
      if (must_leave_spot(life, t_h)) {
        ++out_.jobs.fallbacks_to_on_demand;
        run_on_demand(life, t_h);
        return;
      }
      const std::uint32_t attempt = life.spot_tries++;
      ++out_.jobs.spot_requests;
      if (market_.available(t_h, life.instances, life.e.job->entity, attempt)) {
        const double preempted_h = run_on_spot(life, t_h);
        if (!(preempted_h < horizon_h_)) return;  // finished, or still running at the horizon
        ++out_.events;                            // the preemption; it requests again at once
        t_h = preempted_h;
        continue;
      }
      ++out_.jobs.spot_unavailable;
      const double retry_h = t_h + std::max(p_.spot.retry_h, kMinimumRetryH);
      if (!(retry_h < horizon_h_)) {
        book_waiting(life.e.job->gpus, t_h, horizon_h_);
        book_unfinished(out_.jobs, life.e.job->gpus, life.e.remaining_h, life.e.deadline_abs_h, horizon_h_);
        return;
      }
      book_waiting(life.e.job->gpus, t_h, retry_h);
      ++out_.events;  // the retry
      t_h = retry_h;
    }
  }

  Run start(Life& life, double t_h) {
    book_first_start(out_.jobs, life.e.started, t_h, life.e.ready_h);
    const double work_speed = speed(life.instances);
    const double overhead_h = p_.startup_h + life.e.pending_restart_h;
    life.e.pending_restart_h = 0.0;
    const double compute_h = divide_exactly(life.e.remaining_h, work_speed);
    const double wall_h = overhead_h + wall_with_checkpoints_h(compute_h, life.e.job->checkpoint_h, p_.checkpoint_write_h);
    return {t_h, overhead_h, work_speed, t_h + wall_h};
  }

  void run_on_demand(Life& life, double t_h) {
    const Run r = start(life, t_h);
    launched_instances_ += life.instances;
    if (r.finish_h < horizon_h_) {
      bill(Category::cloud_on_demand, life.instances, r.start_h, r.finish_h, p_.on_demand_usd_per_instance_h,
           on_demand_shock_.data(), false, out_.gpu_hours.on_demand_billed);
      complete(life, r.finish_h);
      ++out_.jobs.completed_on_demand;
      return;
    }
    end_at_horizon(Category::cloud_on_demand, life, r, p_.on_demand_usd_per_instance_h, on_demand_shock_.data(),
                   out_.gpu_hours.on_demand_billed);
  }

  // A spot run from t_h: the time of its preemption when one comes before it finishes (the job
  // has lost its work since the last checkpoint, the run is billed), else infinity (finished,
  // or running at the horizon: booked).
  double run_on_spot(Life& life, double t_h) {
    const Run r = start(life, t_h);
    launched_instances_ += life.instances;
    const double preempt_h =
        market_.preemption_time(t_h + p_.startup_h, r.finish_h, life.instances, life.e.job->entity, life.spot_runs++);
    const double end_h = std::min(preempt_h, r.finish_h);
    if (!(end_h < horizon_h_)) {
      end_at_horizon(Category::cloud_spot, life, r, p_.spot_usd_per_instance_h, spot_shock_.data(),
                     out_.gpu_hours.spot_billed);
      return kNever;
    }
    if (preempt_h < r.finish_h) {
      ++out_.jobs.preemptions;
      const Progress progress = progress_after(preempt_h - r.start_h - r.overhead_h, life.e.job->checkpoint_h,
                                               p_.checkpoint_write_h);
      const bool emergency = p_.emergency_checkpoint_covers;
      const double saved_h = emergency ? progress.done_h : progress.saved_h;
      life.e.remaining_h = std::max(0.0, life.e.remaining_h - saved_h * r.speed);
      if (!emergency) out_.jobs.lost_gpu_hours += life.e.job->gpus * progress.lost_h;
      bill(Category::cloud_spot, life.instances, r.start_h, preempt_h, p_.spot_usd_per_instance_h, spot_shock_.data(),
           false, out_.gpu_hours.spot_billed);
      life.e.pending_restart_h = p_.spot.restart_h;
      return preempt_h;
    }
    bill(Category::cloud_spot, life.instances, r.start_h, r.finish_h, p_.spot_usd_per_instance_h, spot_shock_.data(),
         false, out_.gpu_hours.spot_billed);
    complete(life, r.finish_h);
    ++out_.jobs.completed_spot;
    return kNever;
  }

  void complete(const Life& life, double end_h) {
    book_completed(out_, *life.e.job, life.e.deadline_abs_h, end_h);
    book_cloud_work(out_, p_, month_index_, *life.e.job, end_h);
  }

  // A run the horizon finds going: billed for the time used, and unfinished with the work it has
  // not done by then (checkpointed or not).
  TCO_COLD void end_at_horizon(Category category, const Life& life, const Run& r, double usd_per_instance_h,
                               const double* shock, double& billed_gpu_hours) {
    bill(category, life.instances, r.start_h, horizon_h_, usd_per_instance_h, shock, true, billed_gpu_hours);
    book_unfinished_run(life, r);
  }

  // What a run the horizon finds going has not done by then (checkpointed or not).
  TCO_COLD void book_unfinished_run(const Life& life, const Run& r) {
    const Progress progress =
        progress_after(horizon_h_ - r.start_h - r.overhead_h, life.e.job->checkpoint_h, p_.checkpoint_write_h);
    const double left_h = std::max(0.0, life.e.remaining_h - progress.done_h * r.speed);
    book_unfinished(out_.jobs, life.e.job->gpus, left_h, life.e.deadline_abs_h, horizon_h_);
  }

  // The deadline-aware policy's test: does the slack still cover an on-demand run plus a
  // restart, with room for what can go wrong before the next decision? That is a retry wait
  // (capacity unavailable) or a preemption, which loses at most one checkpoint piece (c + w)
  // and the provisioning, and costs a restart:
  //   stay iff deadline - now >= wall_od(remaining) + startup + restart + max(retry_h, c + w)
  // (without checkpoints a preemption loses the whole run: c + w becomes the run itself).
  // The fallback policy leaves after max_tries requests.
  bool must_leave_spot(const Life& life, double t_h) const {
    if (!deadline_aware_) return static_cast<int>(life.spot_tries) >= p_.spot.max_tries && p_.spot.fallback_to_on_demand;
    const SimJob& job = *life.e.job;
    if (!job.has_deadline()) return false;
    const double compute_h = divide_exactly(life.e.remaining_h, speed(life.instances));
    const double run_h = wall_with_checkpoints_h(compute_h, job.checkpoint_h, p_.checkpoint_write_h);
    const double on_demand_h = p_.startup_h + life.e.pending_restart_h + run_h;
    const double piece_h = job.checkpoint_h > 0.0 ? job.checkpoint_h + p_.checkpoint_write_h : run_h;
    const double margin_h = p_.startup_h + p_.spot.restart_h + std::max(p_.spot.retry_h, piece_h);
    return life.e.deadline_abs_h - t_h < on_demand_h + margin_h;
  }

  static constexpr double kNever = std::numeric_limits<double>::infinity();

  const DesPlan& p_;
  PathInputs in_;
  SpotMarket market_;
  const MonthIndex& month_index_;
  int months_;
  double horizon_h_;
  PathOutcome out_;
  bool deadline_aware_;
  double speed_[2] = {1.0, 1.0};
  std::vector<double> spot_shock_;
  std::vector<double> on_demand_shock_;  // the on-demand price process's M_m (1 without one)
  SavingsPlanMeter savings_plan_;
  long launched_instances_ = 0;  // by its spot and on-demand runs
};

}  // namespace tco::des
