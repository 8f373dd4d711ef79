// The replay's rare events of the owned fleet (engine/des/event_loop.hpp): the refresh's cutover,
// node failures and repairs, hot spares. Out of line and cold: they run a few times a path.
#include "engine/des/event_loop.hpp"

#include <utility>

namespace tco::des::detail {

// The refresh's cutover (docs/des.md "Refresh"): at the start of the refresh month, after the
// runs that end then, the old fleet is sold and the successor's nodes are up. It is planned, so each running job writes a
// checkpoint at the cutover and keeps the work done (a job that never checkpoints keeps nothing:
// its run is lost); the jobs go to the head of the queue in the order their runs started, with
// a restart (scheduling.restart_h) to pay, and the plan's queue policy starts them on the new
// pool. A job the new pool can never hold, moved or queued, leaves for the cloud (or is
// unservable in a plan that does not burst). Failures, spares and a drawn delivery are refused
// with a refresh (models/onprem/refresh_reader.cpp), so the old pool is whole and up.
void Simulator::refresh_fleet() {
  sync_onprem();
  std::vector<std::uint32_t> moved(onprem_running_.begin(), onprem_running_.end());
  std::sort(moved.begin(), moved.end(), [this](std::uint32_t a, std::uint32_t b) {
    return slots_[a].run_start_h != slots_[b].run_start_h ? slots_[a].run_start_h < slots_[b].run_start_h : a < b;
  });
  for (std::uint32_t slot : moved) {
    Slot& j = slots_[slot];
    const Progress progress = run_progress(j);
    if (j.job.checkpoint_h > 0.0) {
      j.remaining_h = std::max(0.0, j.remaining_h - progress.done_h * j.run_speed);
    } else {
      out_.jobs.lost_gpu_hours += j.job.gpus * progress.lost_h;
    }
    ++j.generation;  // its finish on the old pool is void
    j.onprem_index = -1;
    j.venue = Venue::none;
    j.pending_restart_h = p_.scheduling.restart_h;
  }
  onprem_running_.clear();
  busy_gpus_ = 0;
  const DesPlan::Fleet& next = p_.successor;
  pool_ = NodePool(next.nodes, next.gpus_per_node, true);
  idle_kw_ = next.idle_kw;
  perf_onprem_ = next.perf_onprem;
  kw_per_busy_gpu_ = (next.peak_kw - next.idle_kw) / next.gpus_per_node;
  for (const QueuedSlot& q : queue_) {
    Slot& j = slots_[q.slot];
    if (j.generation != q.generation || j.venue != Venue::queued || pool_.could_fit(j.job.gpus)) continue;
    stop_waiting(j);
    --live_queued_;
    ++j.generation;
    dispatch(q.slot);
  }
  for (auto it = moved.rbegin(); it != moved.rend(); ++it) {
    Slot& j = slots_[*it];
    if (!pool_.could_fit(j.job.gpus)) continue;
    j.venue = Venue::queued;
    queue_.push_front({*it, j.generation});
    ++live_queued_;
    start_waiting(j);
    const double max_wait_h = j.job.max_wait_h >= 0.0 ? j.job.max_wait_h : p_.scheduling.max_wait_h;
    if (p_.bursts) events_.push(now_ + max_wait_h, EventKind::max_wait, *it, j.generation);
  }
  for (std::uint32_t slot : moved)
    if (!pool_.could_fit(slots_[slot].job.gpus)) dispatch(slot);
  note_peak();
  try_start_queued();
}

void Simulator::draw_failure(int node, double t_h) {
  const FailureSpec& f = p_.onprem->failures;
  if (f.afr_per_year <= 0.0) return;
  const double lambda0 = f.afr_per_year / kHoursPerYear;
  const double quadratic = lambda0 * f.afr_growth_per_year / (2.0 * kHoursPerYear);
  const double a0 = t_h - static_cast<double>(purchase_h_);
  const double e = -std::log(uniform(in_.seed, in_.path, RandomSource::failure, static_cast<std::uint32_t>(node),
                                     node_failures_drawn_[node]++));
  const double target = lambda0 * a0 + quadratic * a0 * a0 + e;
  const double a1 = quadratic > 0.0 ? 2.0 * target / (lambda0 + std::sqrt(lambda0 * lambda0 + 4.0 * quadratic * target))
                                    : target / lambda0;
  const double when = static_cast<double>(purchase_h_) + a1;
  if (when < horizon_h_) events_.push(when, EventKind::node_failure, node, node_generation_[node]);
}

void Simulator::draw_first_failures(double t_h) {
  for (int n = 0; n < pool_.nodes(); ++n) draw_failure(n, t_h);
}

void Simulator::fail_node(int node) {
  ++out_.jobs.node_failures;
  // The list of an earlier failure's jobs, its buffer reused (a failure inside this one would
  // find the scratch empty and grow its own): no allocation per failure.
  TrivialVector<std::uint32_t> killed = std::move(killed_scratch_);
  sync_onprem();
  pool_.fail(node, killed);
  ++node_generation_[node];
  // The place is empty for repair_h, or swap_h when a hot spare takes it; the failure instants
  // stay those of a fleet without spares (the next is drawn from the repair's end), so on a
  // path a spare changes how long places stay empty and nothing else (common random numbers).
  const double repair_h = p_.onprem->failures.repair_h;
  const double empty_h = spares_.take_for_failure(swap_h_, repair_h);
  repair_end_h_[node] = now_ + repair_h;
  if (empty_h != repair_h) {
    ++out_.jobs.spare_swaps;
    events_.push(now_ + repair_h, EventKind::node_repair, kSpareReturn, 0);
  }
  events_.push(now_ + empty_h, EventKind::node_repair, node, node_generation_[node]);
  out_.jobs.repair_wait_gpu_hours += pool_.gpus_per_node() * (std::min(now_ + empty_h, horizon_h_) - now_);
  if (repair_usd_per_failure_ > 0.0)
    out_.cost_by_month[month_][static_cast<int>(Category::repair)] += repair_usd_per_failure_;
  for (std::uint32_t slot : killed) {
    Slot& j = slots_[slot];
    ++out_.jobs.jobs_hit_by_failures;
    interrupt(j);
    end_run(slot);
    ++j.generation;
    j.pending_restart_h = p_.scheduling.restart_h;
  }
  note_peak();
  for (std::uint32_t slot : killed) dispatch(slot);
  killed_scratch_ = std::move(killed);
  try_start_queued();
}

void Simulator::repair_node(int node) {
  sync_onprem();
  pool_.repair(node);
  ++node_generation_[node];
  draw_failure(node, repair_end_h_[node]);
  note_peak();
  try_start_queued();
}

// A failed node's repair has ended: it joins the free spares (and draws idle power).
void Simulator::return_spare() {
  sync_onprem();
  spares_.repaired_node_back();
  note_peak();
}

}  // namespace tco::des::detail
