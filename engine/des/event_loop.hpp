// The event loop of engine/des/simulator.hpp. Choices the header leaves open, pinned here
// and in docs/des.md:
// - Starting a job and writing a checkpoint are not queue events: a start happens at the
//   instant of the decision, provisioning and restart are an overhead at the head of the
//   run, and checkpoints follow the closed forms of engine/des/checkpoint.hpp.
// - On-prem runs advance a work clock W (dW/dt = the hour's work rate); a run's finish is
//   rescheduled whenever the rate changes at an hour boundary.
// - A restart costs spot.restart_h after a preemption and scheduling.restart_h after a node
//   failure, on whichever venue the job starts next.
// - A job sent to spot or on-demand lives there to its end without queue events
//   (engine/des/cloud/cloud_runs.hpp); a spot retry waits at least one minute.
//
// This header is the loop's class, for engine/des/simulator.cpp (the entry points) and the files
// that hold its rare events out of line: engine/des/fleet_events.cpp (the refresh cutover, node
// failures, repairs and spares) and engine/des/calendar_events.cpp (month boundaries, rate
// changes, the horizon). Nothing else includes it.
#pragma once

#include "engine/des/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "engine/des/checkpoint.hpp"
#include "engine/des/cloud/cloud_runs.hpp"
#include "engine/des/cloud/venue_router.hpp"
#include "engine/des/kernel/cold.hpp"
#include "engine/des/kernel/event_queue.hpp"
#include "engine/des/month_index.hpp"
#include "engine/des/fleet/node_pool.hpp"
#include "engine/des/fleet/spare_pool.hpp"
#include "core/random/random.hpp"
#include "models/site/power.hpp"

namespace tco::des::detail {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();
inline constexpr int kBackfillScanLimit = 1000;  // waiting jobs a first-fit pass looks at
// A node_repair event with this target is a failed node, repaired, joining the hot spares
// (engine/des/fleet/spare_pool.hpp); any other target is a node's place coming back up.
inline constexpr std::uint32_t kSpareReturn = 0xFFFFFFFFu;

// Where a job in a slot is; a job sent to spot or on-demand leaves its slot (CloudRuns).
enum class Venue : std::uint8_t { none, held, queued, onprem, reserved };

struct Slot {
  SimJob job;
  double remaining_h = 0.0;  // reference compute hours still to do (speed 1)
  double ready_h = 0.0;      // when it became ready to run (first start's wait)
  double deadline_abs_h = kInfinity;
  double pending_restart_h = 0.0;
  double shift_energy_cap_usd = 0.0;  // a held job's E(arrival): a yield may not cost more
  std::uint32_t generation = 0;
  Venue venue = Venue::none;
  bool started = false;
  // The current run
  double run_start_h = 0.0;
  double run_clock0 = 0.0;      // on-prem: W at the start; reserved: the start time
  double run_overhead_h = 0.0;  // restart (clock hours)
  double run_wall_h = 0.0;      // overhead + compute + checkpoint writes (clock hours)
  double run_speed = 1.0;       // reference hours of work per compute hour
  int onprem_index = -1;        // position in the on-prem running list
  NodeList nodes;
};

// A plan's outcome: its event loop's sums plus what its cloud booked. Both sides of a sum are
// added once, at the end, so a plan gives the same bits alone or in a group.
inline void add_cloud_side(PathOutcome& into, const PathOutcome& cloud) {
  for (std::size_t m = 0; m < into.cost_by_month.size(); ++m)
    for (int c = 0; c < kCategoryCount; ++c) into.cost_by_month[m][c] += cloud.cost_by_month[m][c];
  into.gpu_hours += cloud.gpu_hours;  // the cloud's on-prem GPU-hours are zero; its reserved, the committed runs'
  into.jobs += cloud.jobs;
  into.gpu_hours.unserved = into.jobs.unserved_gpu_hours;
  into.events += cloud.events;
  // Energy, peaks and throttled hours are the event loop's alone.
}

// A queue entry: the slot, and its generation when it joined (a later one means it left).
struct QueuedSlot {
  std::uint32_t slot;
  std::uint32_t generation;
};

class Simulator {
 public:
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;
  // plans: one pool group (DesPlan::pool_group); the first one's settings run the event loop.
  Simulator(const Scenario& s, std::span<const DesPlan* const> plans, JobFeed& feed, const PathInputs& in);

  // The outcome of each plan of the group, in order.
  std::vector<PathOutcome> run() {
    schedule_month_boundary(1);
    if (p_.onprem) {
      work_rate_ = site_->at(0).work_rate;
      if (work_rate_ < 1.0 && pool_.nodes_up() > 0) ++out_.throttled_hours;
      note_peak();
      schedule_next_rate_change(0);
      if (purchase_h_ == 0) draw_first_failures(0.0);
      if (p_.refresh_h >= 0) events_.push(static_cast<double>(p_.refresh_h), EventKind::refresh, 0, 0);
    }
    fetch_next_arrival();
    while (true) {
      Event e;
      // The next arrival waits outside the heap: arrivals come last among events at the same
      // instant (their kind has the lowest priority) and only one is pending at a time, so it
      // goes first exactly when it is strictly earlier than the heap's top.
      const Event* next = events_.peek();
      const double next_h = next ? next->time_h : kInfinity;
      if (next_arrival_h_ < next_h) {
        e = {next_arrival_h_, event_order(EventKind::arrival, 0), 0, 0};
      } else if (next_h < horizon_h_) {
        e = events_.pop_peeked();
      } else {
        break;
      }
      now_ = e.time_h;
      if (handle(e)) ++out_.events;
    }
    now_ = horizon_h_;
    sync_onprem();
    sync_waiting();
    finish_horizon();
    std::vector<PathOutcome> outcomes(clouds_.size());
    for (std::size_t k = 0; k < clouds_.size(); ++k) {
      outcomes[k] = k + 1 < clouds_.size() ? out_ : std::move(out_);
      book_commitment_use(k, outcomes[k]);
      if (routers_[k]) {
        for (CloudRuns& venue : routers_[k]->venue_runs()) {
          outcomes[k].venue_totals.push_back(venue.venue_totals());
          add_cloud_side(outcomes[k], venue.outcome());
        }
        if (!committed_[k].empty()) add_cloud_side(outcomes[k], clouds_[k].outcome());  // the committed runs
      } else {
        add_cloud_side(outcomes[k], clouds_[k].outcome());
      }
    }
    return outcomes;
  }

 private:
  // ------------------------------------------------------------------------------------------
  // Time, energy and waiting

  int month_at(double t_h) const { return month_index_.at(t_h); }

  // The time sums accrue lazily, over the interval since the state they depend on last changed:
  // the on-prem ones (energy, busy and capacity GPU-hours, throttled hours, peaks) just before
  // the IT power changes (busy GPUs, nodes up), the waiting ones just before the waiting GPUs
  // change, and both at month boundaries (costs are booked by month) and at the horizon. So an
  // interval never spans a month, the state is constant over it, and an event that changes
  // neither (a job sent straight to the cloud, a stale event) costs no accrual.
  void sync_onprem() {
    if (!p_.onprem || !(onprem_synced_h_ < now_)) return;
    const double a = onprem_synced_h_, dt = now_ - a;
    const int m = month_;
    const double it_kw = it_kw_now();
    out_.it_energy_kwh += it_kw * dt;
    const double facility_kwh = it_kw * site_->pue_integral(a, now_);
    out_.facility_energy_kwh += facility_kwh;
    if (hourly_intensity_) {  // the grid's grams hour by hour: IT kW x the integral of PUE x g/kWh
      const double grams = it_kw * site_->pue_g_co2_integral(a, now_);
      out_.onprem_co2_kg += grams / 1000.0;
      out_.cost_by_month[m][static_cast<int>(Category::carbon)] += grams * carbon_usd_per_g_;
    } else if (carbon_usd_per_kwh_ > 0.0) {
      out_.cost_by_month[m][static_cast<int>(Category::carbon)] += facility_kwh * carbon_usd_per_kwh_;
    }
    out_.cost_by_month[m][static_cast<int>(Category::energy)] +=
        it_kw * power_shock_[m] * site_->pue_usd_integral(a, now_);
    out_.gpu_hours.onprem_busy += busy_gpus_ * dt;
    out_.gpu_hours.onprem_capacity += static_cast<double>(pool_.nodes_up()) * pool_.gpus_per_node() * dt;
    enter_hours(a, now_, m);
    onprem_synced_h_ = now_;
  }

  void sync_waiting() {
    if (!(waiting_synced_h_ < now_)) return;
    const double waited = static_cast<double>(waiting_gpus_) * (now_ - waiting_synced_h_);
    out_.jobs.waited_gpu_hours += waited;
    out_.gpu_hours.waited += waited;
    if (p_.waiting_usd_per_gpu_hour > 0.0)
      out_.cost_by_month[month_][static_cast<int>(Category::waiting)] += waited * p_.waiting_usd_per_gpu_hour;
    waiting_synced_h_ = now_;
  }

  // IT power of the pool's state; free hot spares draw idle power.
  double it_kw_now() const {
    return (pool_.nodes_up() + spares_.free()) * idle_kw_ + kw_per_busy_gpu_ * busy_gpus_;
  }

  void note_peak() {
    if (!p_.onprem) return;
    double& peak = out_.peak_facility_kw_by_month[month_];
    const long hour = std::min(static_cast<long>(now_), site_->hours() - 1);
    peak = std::max(peak, it_kw_now() * site_->at(hour).pue);
  }

  // The hours that start in (a, b] (a in month m): each counts as throttled when it is and a
  // node is up, and sets the month's peak facility kW if its PUE does. Only an hour starting at
  // b can be in the next month.
  void enter_hours(double a_h, double b_h, int m) {
    const long first = static_cast<long>(a_h) + 1, last = std::min(static_cast<long>(b_h), site_->hours() - 1);
    if (last < first || pool_.nodes_up() == 0) return;
    out_.throttled_hours += static_cast<int>(site_->throttled_between(first, last));
    const double it_kw = it_kw_now();
    const long inside = static_cast<double>(last) == b_h ? last - 1 : last;  // hours starting before b
    const double pue_max = site_->pue_max(first, inside);
    double& peak = out_.peak_facility_kw_by_month[m];
    peak = std::max(peak, it_kw * pue_max);
    if (inside < last) {
      double& next_peak = out_.peak_facility_kw_by_month[month_at(b_h)];
      next_peak = std::max(next_peak, it_kw * site_->at(last).pue);
    }
  }

  // One month boundary in the queue at a time keeps the heap small (it holds little else:
  // the running jobs' finishes and the next arrival).
  void schedule_month_boundary(int m) {
    if (m < months_) events_.push(static_cast<double>(m) * kHoursPerMonth, EventKind::month_boundary, m, 0);
  }

  // Hour boundaries that change the work rate (throttling) are events: they re-time the
  // on-prem finishes.
  void schedule_next_rate_change(long after_h) {
    const long h = site_->next_rate_change(after_h, rate_change_cursor_);
    if (h < site_->hours()) events_.push(static_cast<double>(h), EventKind::hour_boundary, static_cast<std::uint32_t>(h), 0);
  }

  TCO_COLD const SiteCurve& own_site();

  // ------------------------------------------------------------------------------------------
  // Events

  bool handle(const Event& e) {
    switch (e.kind()) {
      case EventKind::month_boundary:
        enter_month(static_cast<int>(e.target));
        return true;
      case EventKind::hour_boundary: {
        const long h = e.target;
        work_rate_ = site_->at(h).work_rate;
        reschedule_onprem_finishes();
        schedule_next_rate_change(h);
        return true;
      }
      case EventKind::arrival: {
        if (cloud_only_) {  // no pool to wait for: the job goes to the cloud, without a slot
          arrive_in_cloud(*next_job_);
          fetch_next_arrival();
          return true;
        }
        const std::uint32_t slot = allocate(*next_job_);
        fetch_next_arrival();
        arrive(slot);
        return true;
      }
      case EventKind::refresh:
        refresh_fleet();
        return true;
      case EventKind::node_failure:
        if (e.generation != node_generation_[e.target]) return false;
        fail_node(static_cast<int>(e.target));
        return true;
      case EventKind::node_repair:
        if (e.target == kSpareReturn) {
          return_spare();
          return true;
        }
        if (e.generation != node_generation_[e.target]) return false;
        repair_node(static_cast<int>(e.target));
        return true;
      default: break;
    }
    Slot& j = slots_[e.target];
    if (e.generation != j.generation) return false;
    switch (e.kind()) {
      case EventKind::finish: complete(e.target); break;
      case EventKind::max_wait: leave_queue_for_cloud(e.target); break;
      case EventKind::release: release_held(e.target); break;
      default: break;
    }
    return true;
  }

  TCO_COLD void enter_month(int m);

  TCO_COLD void refresh_fleet();

  void fetch_next_arrival() {
    if (batch_next_ == batch_end_) {
      const std::span<const SimJob> batch = feed_.next_batch();
      batch_next_ = batch.data();
      batch_end_ = batch.data() + batch.size();
    }
    next_job_ = batch_next_ != batch_end_ ? batch_next_++ : nullptr;
    next_arrival_h_ = next_job_ && next_job_->submit_h < horizon_h_ ? next_job_->submit_h : kInfinity;
  }

  std::uint32_t allocate(const SimJob& job) {
    std::uint32_t slot;
    if (!free_slots_.empty()) {
      slot = free_slots_.back();
      free_slots_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& j = slots_[slot];
    ++j.generation;
    j.venue = Venue::none;
    j.started = false;
    j.pending_restart_h = 0.0;
    j.onprem_index = -1;
    j.job = job;
    j.remaining_h = job.duration_h;
    j.ready_h = job.submit_h;
    j.deadline_abs_h = job.submit_h + job.deadline_h;
    return slot;
  }

  void release_slot(std::uint32_t slot) {
    Slot& j = slots_[slot];
    ++j.generation;
    j.venue = Venue::none;
    free_slots_.push_back(slot);
  }

  void count_submitted(const SimJob& job) {
    ++out_.jobs.submitted;
    out_.jobs.submitted_gpu_hours += job.gpus * job.duration_h;
  }

  void arrive_in_cloud(const SimJob& job) {
    count_submitted(job);
    send_to_clouds({&job, job.duration_h, job.submit_h, job.submit_h + job.deadline_h, 0.0, false});
  }

  void arrive(std::uint32_t slot) {
    Slot& j = slots_[slot];
    count_submitted(j.job);
    const auto hold = time_shift_hold(j);
    if (p_.scheduling.time_shift && p_.onprem && pool_.could_fit(j.job.gpus))
      shift_.observe_arrival(j.job.gpus, onprem_run_h(j));
    if (hold) {
      ++out_.jobs.deferred;
      out_.jobs.deferred_h_sum += hold->start_h - now_;
      out_.jobs.shift_energy_saved_usd += hold->energy_saved_usd;
      shift_.promise(hold->start_h, onprem_run_h(j), j.job.gpus);
      j.venue = Venue::held;
      j.shift_energy_cap_usd = hold->energy_now_usd;
      j.ready_h = hold->start_h;
      events_.push(hold->start_h, EventKind::release, slot, j.generation);
      return;
    }
    dispatch(slot);
  }

  // A held job's hour has come: its promise ends (it is busy or queued from now on). A hold is
  // not waiting (docs/des.md 4.6): the policy weighs it at the waiting price before holding.
  // It yields (is held one more hour) while others queue or fewer than its GPUs plus one node's
  // are idle, as long as the next hour still keeps its deadline with margin and costs no more than
  // starting at its arrival would have (docs/model.md §5.1).
  void release_held(std::uint32_t slot) {
    Slot& j = slots_[slot];
    const double run_h = onprem_run_h(j);
    shift_.release(now_, run_h, j.job.gpus);
    const int idle_gpus = pool_.nodes_up() * pool_.gpus_per_node() - busy_gpus_;
    const bool crowded = live_queued_ > 0 || idle_gpus < j.job.gpus + pool_.gpus_per_node();
    const double next_h = now_ + 1.0;
    if (crowded && next_h <= latest_safe_start_h(j, run_h) && next_h + run_h <= horizon_h_ &&
        kw_per_busy_gpu_ * j.job.gpus * p_.shift_curve.pue_usd_integral(next_h, next_h + run_h) <= j.shift_energy_cap_usd) {
      out_.jobs.deferred_h_sum += 1.0;
      j.ready_h = next_h;
      events_.push(next_h, EventKind::release, slot, j.generation);
      return;
    }
    dispatch(slot);
  }

  // The hold engine/des/fleet/time_shift_policy.hpp finds worth its wait, if any.
  std::optional<ShiftDecision> time_shift_hold(const Slot& j) {
    if (!p_.scheduling.time_shift || !j.job.deferrable || !j.job.has_deadline() || !p_.onprem) return std::nullopt;
    return shift_.choose(shift_request(j));
  }

  // What the policy sees of job j and the pool now. known_gpus points into known_gpus_.
  ShiftRequest shift_request(const Slot& j) {
    ShiftRequest r;
    r.now_h = now_;
    r.gpus = j.job.gpus;
    r.run_h = onprem_run_h(j);
    r.latest_start_h = latest_safe_start_h(j, r.run_h);
    r.kw = kw_per_busy_gpu_ * j.job.gpus;
    r.queued_gpus = static_cast<int>(waiting_gpus_);
    r.pool_gpus = pool_.nodes_up() * pool_.gpus_per_node();
    r.reserve_gpus = pool_.gpus_per_node();
    // known(h): the queued GPUs, and each running job's until its end at the current work rate.
    const double base_h = std::floor(now_);
    const long window = std::min<long>(TimeShiftPolicy::kSearchHours + static_cast<long>(std::ceil(r.run_h)) + 2,
                                       static_cast<long>(horizon_h_ - base_h) + 1);
    known_gpus_.assign(static_cast<std::size_t>(std::max(0L, window)), r.queued_gpus);
    const double work_clock = site_->work_clock(now_);
    for (std::uint32_t slot : onprem_running_) {
      const Slot& run = slots_[slot];
      const double end_h = now_ + std::max(0.0, run.run_clock0 + run.run_wall_h - work_clock) / work_rate_;
      const long until = std::min<long>(static_cast<long>(std::ceil(end_h - base_h)), window);
      for (long k = 0; k < until; ++k) known_gpus_[static_cast<std::size_t>(k)] += run.job.gpus;
    }
    r.known_gpus = known_gpus_;
    return r;
  }

  // The job's wall time on-prem at full work rate, checkpoint writes included.
  double onprem_run_h(const Slot& j) const {
    const double speed =
        perf_onprem_ * (j.job.gpus > pool_.gpus_per_node() ? p_.scheduling.onprem_multi_node_efficiency : 1.0);
    return wall_with_checkpoints_h(j.remaining_h / speed, j.job.checkpoint_h, p_.checkpoint_write_h);
  }

  // The last start on-prem that still meets the deadline with a margin for what may go wrong
  // at the release: in a plan that bursts, it may queue up to max_wait and then run in the
  // cloud (provisioning, cloud speed); in one that does not, the margin is one more run.
  double latest_safe_start_h(const Slot& j, double run_h) const {
    double margin_h = run_h;
    if (p_.bursts && p_.cloud) {
      const double max_wait_h = j.job.max_wait_h >= 0.0 ? j.job.max_wait_h : p_.scheduling.max_wait_h;
      const int instances = (j.job.gpus + p_.gpus_per_instance - 1) / p_.gpus_per_instance;
      const double speed = p_.perf_cloud * (instances > 1 ? p_.scheduling.cloud_multi_node_efficiency : 1.0);
      const double cloud_run_h =
          p_.startup_h + wall_with_checkpoints_h(j.remaining_h / speed, j.job.checkpoint_h, p_.checkpoint_write_h);
      margin_h = max_wait_h + std::max(0.0, cloud_run_h - run_h);
    }
    return j.deadline_abs_h - run_h - margin_h;
  }

  // A ready job: on-prem if it fits (and nobody waits ahead of it, unless first-fit backfill
  // lets it pass them), else the queue, else the cloud.
  void dispatch(std::uint32_t slot) {
    Slot& j = slots_[slot];
    j.venue = Venue::none;
    if (p_.onprem && pool_.could_fit(j.job.gpus)) {
      if ((live_queued_ == 0 || p_.scheduling.backfill_first_fit) && pool_.place(j.job.gpus, slot, j.nodes)) {
        start_onprem(slot);
        return;
      }
      const double max_wait_h = j.job.max_wait_h >= 0.0 ? j.job.max_wait_h : p_.scheduling.max_wait_h;
      if (p_.bursts && max_wait_h == 0.0) {
        burst(slot);
        return;
      }
      j.venue = Venue::queued;
      queue_.push_back({slot, j.generation});
      ++live_queued_;
      start_waiting(j);
      if (p_.bursts) events_.push(now_ + max_wait_h, EventKind::max_wait, slot, j.generation);
      return;
    }
    if (p_.bursts) {
      burst(slot);
      return;
    }
    ++out_.jobs.unservable;
    out_.jobs.unserved_gpu_hours += j.job.gpus * j.remaining_h;
    release_slot(slot);
  }

  void start_waiting(const Slot& j) {
    sync_waiting();
    waiting_gpus_ += j.job.gpus;
  }
  void stop_waiting(const Slot& j) {
    sync_waiting();
    waiting_gpus_ -= j.job.gpus;
  }

  void leave_queue_for_cloud(std::uint32_t slot) {
    Slot& j = slots_[slot];
    if (j.venue != Venue::queued) return;
    stop_waiting(j);
    --live_queued_;
    ++j.generation;  // the queue entry is dead from now on
    burst(slot);
    // Strict FIFO: the job behind it, the new head, may fit now. No capacity freed, so a
    // first-fit scan would find nothing the last one did not (every job that fits starts).
    start_from_head();
  }

  // A job that a plan with on-prem nodes sends to the cloud (it timed out of the queue, may
  // not wait, or is larger than the pool); a cloud plan's jobs go there without bursting.
  void burst(std::uint32_t slot) {
    if (p_.onprem) ++out_.jobs.bursts;
    to_cloud(slot);
  }

  // Capacity freed: the queue's head first, then (first_fit) any job that fits.
  void try_start_queued() {
    if (!p_.onprem || live_queued_ == 0) return;
    start_from_head();
    if (!p_.scheduling.backfill_first_fit || live_queued_ == 0) return;
    int looked = 0;
    for (auto& [slot, generation] : queue_) {
      Slot& j = slots_[slot];
      if (j.generation != generation || j.venue != Venue::queued) continue;
      if (++looked > kBackfillScanLimit) break;
      if (pool_.place(j.job.gpus, slot, j.nodes)) start_from_queue(slot);
    }
  }

  // Strict FIFO: start from the head while the head fits.
  void start_from_head() {
    if (!p_.onprem || live_queued_ == 0) return;
    while (!queue_.empty()) {
      const auto [slot, generation] = queue_.front();
      Slot& j = slots_[slot];
      if (j.generation != generation || j.venue != Venue::queued) {
        queue_.pop_front();
        continue;
      }
      if (!pool_.place(j.job.gpus, slot, j.nodes)) break;
      queue_.pop_front();
      start_from_queue(slot);
    }
  }

  void start_from_queue(std::uint32_t slot) {
    Slot& j = slots_[slot];
    stop_waiting(j);
    --live_queued_;
    ++j.generation;
    start_onprem(slot);
  }

  static int class_id(const std::string& job_class, const std::vector<std::string>* class_names) {
    if (job_class.empty()) return kAnyClass;
    if (class_names)
      for (std::size_t i = 0; i < class_names->size(); ++i)
        if ((*class_names)[i] == job_class) return static_cast<int>(i);
    return kNoSuchClass;
  }

  // Plan k's committed pools that serve the job, in order, until one runs it: true when its life
  // ended there; otherwise entry and t_h say what is left and from when (t_h moved: the room ran
  // out; it goes on to the plan's offer).
  bool run_committed(std::size_t k, CloudEntry& entry, double& t_h) {
    for (ClassPool& c : committed_[k]) {
      if (c.job_class != kAnyClass && c.job_class != entry.job->job_class) continue;
      if (clouds_[k].run_committed(entry, t_h, c.pool)) return true;
      if (t_h != now_) return false;
    }
    return false;
  }

  // Plan k's commitments' use on this path: each pool's occupied GPU-hours divided among its
  // instruments, and the savings plan's cover (taken off the plan's on-demand bills here).
  void book_commitment_use(std::size_t k, PathOutcome& o) {
    const DesPlan& plan = *plans_[k];
    if (plan.plan->commitments.empty()) return;
    o.commitment_used_gpu_hours.assign(plan.plan->commitments.size(), 0.0);
    o.commitment_used_usd.assign(plan.plan->commitments.size(), 0.0);
    for (std::size_t c = 0; c < committed_[k].size(); ++c)
      add_used_by_instrument(committed_[k][c].pool.occupied_gpu_hours(), plan.committed[c].instruments,
                             plan.committed[c].gpus_by_hour_by_instrument, o.commitment_used_gpu_hours);
    if (plan.savings_plan.instrument >= 0) {
      // On the plan's offer, or (with venues) on the venues the savings plan covers.
      std::vector<SavingsPlanShare> shares{clouds_[k].savings_plan_share()};
      if (routers_[k])
        for (CloudRuns& venue : routers_[k]->venue_runs()) shares.push_back(venue.savings_plan_share());
      const SavingsPlanUse use = settle_savings_plan(std::move(shares), month_index_);
      o.commitment_used_gpu_hours[plan.savings_plan.instrument] = use.covered_gpu_hours;
      o.commitment_used_usd[plan.savings_plan.instrument] = use.used_usd;
    }
  }

  // Each plan of the group plays the job's cloud life on its own terms: its committed capacity
  // first (a plan has commitments or venues, not both), then its offer or its venues.
  void send_to_clouds(const CloudEntry& e) {
    for (std::size_t k = 0; k < clouds_.size(); ++k) {
      CloudEntry entry = e;
      double t_h = now_;
      if (!committed_[k].empty() && run_committed(k, entry, t_h)) continue;
      if (routers_[k]) {
        routers_[k]->run(entry, t_h);
      } else {
        clouds_[k].run(entry, t_h);
      }
    }
  }

  // Reserved capacity if some is free, else spot or on-demand, where the job lives to its end
  // without the slot.
  void to_cloud(std::uint32_t slot) {
    Slot& j = slots_[slot];
    if (p_.reserved_instances > 0 && reserved_.place(j.job.gpus, slot, j.nodes)) {
      start_run(slot, Venue::reserved);
      return;
    }
    send_to_clouds({&j.job, j.remaining_h, j.ready_h, j.deadline_abs_h, j.pending_restart_h, j.started});
    release_slot(slot);
  }

  // ------------------------------------------------------------------------------------------
  // Runs

  void start_onprem(std::uint32_t slot) {
    Slot& j = slots_[slot];
    sync_onprem();
    busy_gpus_ += j.job.gpus;
    j.onprem_index = static_cast<int>(onprem_running_.size());
    onprem_running_.push_back(slot);
    start_run(slot, Venue::onprem);
    note_peak();
  }

  // A run on the pool's nodes or the reserved instances it was placed on (j.nodes); it ends
  // with a finish event, since it frees capacity others wait for.
  void start_run(std::uint32_t slot, Venue venue) {
    Slot& j = slots_[slot];
    book_first_start(out_.jobs, j.started, now_, j.ready_h);
    j.venue = venue;
    ++j.generation;
    j.run_start_h = now_;
    const bool spans = j.nodes.size() > 1;
    if (venue == Venue::onprem) {
      j.run_speed = perf_onprem_ * (spans ? p_.scheduling.onprem_multi_node_efficiency : 1.0);
      j.run_clock0 = site_->work_clock(now_);
    } else {
      j.run_speed = reserved_speed_[spans];
      j.run_clock0 = now_;
    }
    j.run_overhead_h = j.pending_restart_h;
    j.pending_restart_h = 0.0;
    const double compute_h = divide_exactly(j.remaining_h, j.run_speed);
    j.run_wall_h = j.run_overhead_h + wall_with_checkpoints_h(compute_h, j.job.checkpoint_h, p_.checkpoint_write_h);
    const double wall_h = venue == Venue::onprem ? divide_exactly(j.run_wall_h, work_rate_) : j.run_wall_h;
    events_.push(now_ + wall_h, EventKind::finish, slot, j.generation);
  }

  TCO_COLD void reschedule_onprem_finishes();

  // Ends the current run at now_ (finished or interrupted): frees its capacity.
  void end_run(std::uint32_t slot) {
    Slot& j = slots_[slot];
    switch (j.venue) {
      case Venue::onprem: {
        sync_onprem();
        busy_gpus_ -= j.job.gpus;
        pool_.release(j.job.gpus, slot, j.nodes);
        const int i = j.onprem_index;
        onprem_running_[i] = onprem_running_.back();
        slots_[onprem_running_[i]].onprem_index = i;
        onprem_running_.pop_back();
        j.onprem_index = -1;
        if (kw_per_busy_gpu_ < 0.0) note_peak();  // else the IT power fell: no new peak
        break;
      }
      case Venue::reserved:
        reserved_.release(j.job.gpus, slot, j.nodes);
        out_.gpu_hours.reserved_used += j.job.gpus * (now_ - j.run_start_h);
        break;
      default: break;
    }
  }

  // The run (on-prem or reserved) ends now with the job done.
  void complete(std::uint32_t slot) {
    Slot& j = slots_[slot];
    const bool onprem = j.venue == Venue::onprem;
    end_run(slot);
    book_completed(out_, j.job, j.deadline_abs_h, now_);
    if (onprem) {
      ++out_.jobs.completed_onprem;
    } else {
      ++out_.jobs.completed_reserved;
      book_cloud_work(out_, p_, month_index_, j.job, now_);
    }
    release_slot(slot);
    if (onprem) try_start_queued();
  }

  // Progress of the current run at a node failure: saves what the checkpoints hold and counts
  // the rest as lost.
  void interrupt(Slot& j) {
    const Progress p = run_progress(j);
    j.remaining_h = std::max(0.0, j.remaining_h - p.saved_h * j.run_speed);
    out_.jobs.lost_gpu_hours += j.job.gpus * p.lost_h;
    out_.jobs.failure_lost_gpu_hours += j.job.gpus * p.lost_h;
  }

  // The current run's progress at now_.
  Progress run_progress(const Slot& j) const {
    const double clock_now = j.venue == Venue::onprem ? site_->work_clock(now_) : now_;
    const double compute_elapsed = clock_now - j.run_clock0 - j.run_overhead_h;
    return progress_after(compute_elapsed, j.job.checkpoint_h, p_.checkpoint_write_h);
  }

  // ------------------------------------------------------------------------------------------
  // Node failures: node n's k-th failure comes after an Exp(1) amount E of cumulative hazard,
  //   Lambda(a) = lambda0 (a + g a^2 / (2 x 8760)), lambda0 = afr / 8760, a = age in hours,
  // solved for the age a1 with Lambda(a1) = Lambda(a0) + E.

  TCO_COLD void draw_failure(int node, double t_h);

  TCO_COLD void draw_first_failures(double t_h);

  TCO_COLD void fail_node(int node);

  TCO_COLD void repair_node(int node);

  TCO_COLD void return_spare();

  // ------------------------------------------------------------------------------------------

  TCO_COLD void finish_horizon();

  const Scenario& s_;
  const DesPlan& p_;
  JobFeed& feed_;
  PathInputs in_;
  double horizon_h_;
  int months_;
  MonthIndex month_index_;
  PathOutcome out_;  // the event loop's sums; each plan's cloud books its own (clouds_)
  std::vector<const DesPlan*> plans_;  // the group's
  std::vector<CloudRuns> clouds_;  // one per plan of the group
  std::vector<std::unique_ptr<VenueRouter>> routers_;  // per plan: its venues (null: it bursts to its offer)
  // Per plan: its committed capacity, pools for one job class first, then the pool for any job.
  struct ClassPool {
    int job_class;  // kAnyClass, kNoSuchClass, or the class id it serves
    CommittedPool pool;
  };
  static constexpr int kAnyClass = -1;
  static constexpr int kNoSuchClass = -2;  // a class no job of the run has
  std::vector<std::vector<ClassPool>> committed_;
  bool cloud_only_;  // neither on-prem nodes nor reserved instances: every job goes to CloudRuns
  long purchase_h_;  // this path's delivery hour (delivery_h)
  double carbon_usd_per_kwh_ = 0.0;  // g_co2_per_kwh x the carbon price, per facility kWh
  bool hourly_intensity_ = false;    // the site has an hourly grid intensity (its curve integrates it)
  double carbon_usd_per_g_ = 0.0;    // the carbon price per gram, with an hourly intensity
  EventQueue events_;
  double now_ = 0.0;
  int month_ = 0;                  // the month of now_ (month boundaries set it)
  double onprem_synced_h_ = 0.0;   // the on-prem sums are accrued up to here
  double waiting_synced_h_ = 0.0;  // the waiting sums are accrued up to here
  const SimJob* next_job_ = nullptr;  // the feed's, valid until the next fetch
  const SimJob* batch_next_ = nullptr;  // the feed's batch: [batch_next_, batch_end_) still to come
  const SimJob* batch_end_ = nullptr;
  double next_arrival_h_ = kInfinity;  // next_job_'s submission; infinity when none is due before the horizon
  std::vector<Slot> slots_;
  TrivialVector<std::uint32_t> free_slots_;
  // On-prem
  const SiteCurve* site_ = nullptr;
  SiteCurve own_site_;
  NodePool pool_;
  NodePool reserved_;
  double reserved_speed_[2] = {1.0, 1.0};  // on one instance, on several (multi-node efficiency)
  std::vector<std::uint32_t> node_generation_;
  std::vector<std::uint32_t> node_failures_drawn_;
  std::vector<double> repair_end_h_;  // by node: when its last failure's repair ends
  SparePool spares_;
  double swap_h_ = 0.0;
  double repair_usd_per_failure_ = 0.0;
  TrivialVector<std::uint32_t> onprem_running_;
  TrivialVector<std::uint32_t> killed_scratch_;  // fail_node's list of killed jobs, kept for its buffer
  TrivialFifo<QueuedSlot> queue_;
  long live_queued_ = 0;
  long waiting_gpus_ = 0;
  TimeShiftPolicy shift_;  // its promise ledger is this path's
  std::vector<int> known_gpus_;  // time_shift_hold's scratch
  int busy_gpus_ = 0;
  double kw_per_busy_gpu_ = 0.0;  // (peak - idle) / G, of the fleet now up
  double idle_kw_ = 0.0;          // a node's, of the fleet now up (the successor's after a refresh)
  double perf_onprem_ = 1.0;
  double work_rate_ = 1.0;
  std::size_t rate_change_cursor_ = 0;  // into the site curve's list of rate changes
  // Prices
  std::vector<double> power_shock_;
};

}  // namespace tco::des::detail
