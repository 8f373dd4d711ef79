// The discrete-event replay of one plan on one Monte Carlo path (SPEC §4, §5, §12.12-12.15).
// Jobs arrive in submission order and are offered, in turn, to
//   1. the on-prem pool (N nodes x G GPUs; FIFO queue, optional first-fit backfill; a job
//      waits up to max_wait_h, then bursts; a plan that does not burst waits for ever)
//   2. the reserved pool (R instances, packed like on-prem, no queue)
//   3. spot, when the job is preemptible and wins the plan's spot_share draw (availability,
//      retries, preemptions; policy "fallback" after max_tries, or "deadline_aware": stay
//      while the slack covers the on-demand run plus a restart)
//   4. on-demand.
// A run on a venue of speed p (x multi-node efficiency when it spans nodes or instances)
// takes overhead + T + (ceil(T/c) - 1) w hours for T = remaining work / p (engine/des/
// checkpoint.hpp); on-prem hours run at the throttled work rate. Cloud runs bill
// ceil(t / granularity) granules (at least minimum_billed) per instance, provisioning included.
// Energy accrues whenever the IT power changes (and at month ends), over the hours in between
// through the site curve's integrals (engine/des/fleet/site_curve.hpp; hours that change the thermal
// work rate are events, since they re-time on-prem finishes):
//   IT_kW = N_up idle + (peak - idle) busy / G,  cost = IT_kW x PUE(h) x price(h) x shock(m) x dt
// booked in the month it is used, so a steady load gives the hourly model's energy exactly.
// Example: 1 node of 8 GPUs, two 8-GPU jobs of 1 h at t = 0 with max_wait 0.5 h: the first
// runs on-prem [0, 1); the second waits 0.5 h, bursts, and runs on-demand [0.5, 1.5).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/des/des_plan.hpp"
#include "engine/des/job_stream.hpp"
#include "engine/ledger/ledger.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco::des {

struct JobCounters {
  long submitted = 0;
  long completed = 0;
  long completed_onprem = 0;
  long completed_reserved = 0;
  long completed_spot = 0;
  long completed_on_demand = 0;
  long unfinished = 0;          // still queued or running at the horizon's end
  long unservable = 0;          // larger than the pool of a plan that does not burst
  long started = 0;             // jobs that started at least once
  long bursts = 0;              // jobs a plan with on-prem nodes sent to the cloud (queue timeout,
                                // max_wait 0 with the pool busy, larger than the pool)
  long spot_requests = 0;
  long spot_unavailable = 0;
  long preemptions = 0;
  long fallbacks_to_on_demand = 0;
  long node_failures = 0;
  long jobs_hit_by_failures = 0;
  long deadline_misses = 0;     // finished after the deadline, or unfinished at the horizon past it
  long deferred = 0;
  long no_venue_capacity = 0;   // cloud requests of a plan with venues that no venue took (the job waited)
  double submitted_gpu_hours = 0.0;
  double lost_gpu_hours = 0.0;    // GPUs x wall time since the last checkpoint, at interruptions
  double waited_gpu_hours = 0.0;  // GPUs x hours queued or waiting for spot capacity
  double first_wait_h_sum = 0.0;  // sum over started jobs of (first start - ready)
  double deferred_h_sum = 0.0;
  double shift_energy_saved_usd = 0.0;  // E(now) - E(start) of each hold, at the site's forecast prices
  double unserved_gpu_hours = 0.0;  // work left in unfinished jobs (net of the current run's
                                    // progress) and in unservable ones
  // Goodput (engine/ledger/goodput.hpp): node failures' part of lost_gpu_hours, the GPU-hours
  // failed nodes' places stood empty (cut at the horizon), and the failures a hot spare covered.
  double failure_lost_gpu_hours = 0.0;
  double repair_wait_gpu_hours = 0.0;
  long spare_swaps = 0;

  bool operator==(const JobCounters&) const = default;
  JobCounters& operator+=(const JobCounters& o) {
    static_assert(sizeof(JobCounters) == 29 * sizeof(double), "a new JobCounters field: add it here");
    submitted += o.submitted;
    completed += o.completed;
    completed_onprem += o.completed_onprem;
    completed_reserved += o.completed_reserved;
    completed_spot += o.completed_spot;
    completed_on_demand += o.completed_on_demand;
    unfinished += o.unfinished;
    unservable += o.unservable;
    started += o.started;
    bursts += o.bursts;
    spot_requests += o.spot_requests;
    spot_unavailable += o.spot_unavailable;
    preemptions += o.preemptions;
    fallbacks_to_on_demand += o.fallbacks_to_on_demand;
    node_failures += o.node_failures;
    jobs_hit_by_failures += o.jobs_hit_by_failures;
    deadline_misses += o.deadline_misses;
    deferred += o.deferred;
    no_venue_capacity += o.no_venue_capacity;
    submitted_gpu_hours += o.submitted_gpu_hours;
    lost_gpu_hours += o.lost_gpu_hours;
    waited_gpu_hours += o.waited_gpu_hours;
    first_wait_h_sum += o.first_wait_h_sum;
    deferred_h_sum += o.deferred_h_sum;
    shift_energy_saved_usd += o.shift_energy_saved_usd;
    unserved_gpu_hours += o.unserved_gpu_hours;
    failure_lost_gpu_hours += o.failure_lost_gpu_hours;
    repair_wait_gpu_hours += o.repair_wait_gpu_hours;
    spare_swaps += o.spare_swaps;
    return *this;
  }
};

using CostRow = std::array<double, kCategoryCount>;

// What one path of one plan produced. Costs are operating costs booked at month ends (the
// ownership costs, the same on every path, are booked separately).
struct PathOutcome {
  std::vector<CostRow> cost_by_month;
  GpuHours gpu_hours;
  double it_energy_kwh = 0.0;
  double facility_energy_kwh = 0.0;
  double onprem_co2_kg = 0.0;  // the grid's, accrued hour by hour with an hourly intensity (else 0)
  std::vector<double> peak_facility_kw_by_month;
  int throttled_hours = 0;
  JobCounters jobs;
  long events = 0;
  // GPU-hours each commitment of the plan ran (plan->commitments' order; a savings plan's: the
  // on-demand GPU-hours it covered); empty for a plan without commitments.
  std::vector<double> commitment_used_gpu_hours;
  // A savings plan's dollars of commitment its cover used (0 for the other kinds, whose used
  // dollars follow from their GPU-hours at one rate); same order, same emptiness.
  std::vector<double> commitment_used_usd;
  // A plan with venues: each venue's work, billed GPU-hours, bill and instances, in list order
  // (CloudRuns::venue_totals); empty without venues.
  std::vector<VenueTotals> venue_totals;
};

struct PathInputs {
  std::uint64_t seed = 0;
  std::uint32_t path = 0;
  double growth_per_year = 0.0;  // this path's demand growth
  // The path's site curves (its ambient noise included), shared by the path's plans; null: the
  // simulator builds its plan's own (same numbers).
  PathSites* sites = nullptr;
  // uniform_pair(seed, path, spot_availability, e, 0).second for every job entity e of the
  // path, drawn once for all plans (a job's spot_share draw); null: each plan draws its own.
  const double* spot_share_u = nullptr;
  // The job catalog's class names by id, for commitments that serve one class; null: no job
  // has a named class (every class-bound commitment stays idle).
  const std::vector<std::string>* class_names = nullptr;
};


PathOutcome simulate_path(const Scenario& scenario, const DesPlan& plan, const JobCatalog& catalog,
                          const PathInputs& inputs);

// The same on a given stream of jobs (tests).
class JobFeed {
 public:
  virtual ~JobFeed() = default;
  virtual bool next(SimJob& job) = 0;
  // The next jobs in order, valid until the next call; empty at the end. By default up to 256
  // jobs of next(job); a feed that holds its jobs hands them out without a copy.
  virtual std::span<const SimJob> next_batch();

 private:
  std::vector<SimJob> buffer_;
};
PathOutcome simulate_feed(const Scenario& scenario, const DesPlan& plan, JobFeed& feed, const PathInputs& inputs);
// The same on a path's jobs generated once (entity ids already assigned) and shared by plans.
PathOutcome simulate_jobs(const Scenario& scenario, const DesPlan& plan, const std::vector<SimJob>& jobs,
                          const PathInputs& inputs);

// The plans of one pool group (DesPlan::pool_group, DesPlans::pool_groups) in one event loop:
// their pools behave alike, so only the jobs' lives in the cloud differ, and each plan's cloud
// books on its own. outcomes[k] is plans[k]'s, bit for bit what simulate_* gives it alone.
std::vector<PathOutcome> simulate_group_jobs(const Scenario& scenario, std::span<const DesPlan* const> plans,
                                             const std::vector<SimJob>& jobs, const PathInputs& inputs);
std::vector<PathOutcome> simulate_group_path(const Scenario& scenario, std::span<const DesPlan* const> plans,
                                             const JobCatalog& catalog, const PathInputs& inputs);

}  // namespace tco::des
