// One hour of the fluid model (SPEC §4 burst order, §5, §9), shared by the deterministic
// evaluator, the CPU sweep and the CUDA sweep. Demand D is reference-GPU-hours of work per
// hour. On-prem GPUs do perf x work_rate of it per busy GPU-hour (work_rate < 1 in a
// throttled hour); only packing x N_up G of the GPUs can be filled with jobs (packing
// efficiency, default 1; fitted from the discrete-event replay by `tcosim calibrate`):
//   busy      = min(N_up G packing, need / (perf_onprem x work_rate))    need = D (+ backlog)
//   overflow  = need - busy x perf_onprem x work_rate            (work, reference GPU-hours)
// A bursting plan sends the overflow to the cloud at once, as cloud GPUs = overflow / perf_cloud:
//   reserved  = min(cloud GPUs, R)                               (paid whether used or not)
//   committed = min(cloud GPUs - reserved, K_h)   (K_h: take-or-pay and capacity-block GPUs of the
//               hour, models/commitment/commitment.hpp; prepaid, so no bill here)
//   Y         = (cloud GPUs - reserved - committed) / q          (q: cloud packing efficiency)
// and, with c(x) = whole instances for x GPUs (SPEC §12.17) and a the hour's spot availability
// (0 or 1 in a Monte Carlo hour, its expectation in the deterministic run):
//   spot      = a x c(share Y) instances, each billed overhead x preemption factor hours,
//               priced x the spot price multiplier
//   on-demand = a x c((1 - share) Y) + (1 - a) x c(Y) instances, of which a savings plan of C_h
//               USD this hour at its rate r covers min(instances, C_h / r): only the rest is billed
//               at the on-demand price (C_h itself is a fixed cost, booked by the plan)
// The work is rounded to instances first; the overhead (billed GPU-hours per GPU-hour of work)
// lengthens those instances' lives, it buys no instances. Both bills are linear in a, so the
// deterministic run at a = E[a] is the Monte Carlo's expectation (the same for the preemption
// factor, engine/ledger/hourly/spot_draws.hpp, and the price multiplier, whose means are what it takes).
// Example (docs/model.md §3): 36 GPUs of overflow, share 0.6, 8-GPU instances, overhead 1.12,
// a = 0.85: spot 0.85 x c(21.6) = 0.85 x 3 instances x 8 x 1.12 = 22.848 GPU-hours; on-demand
// 0.85 x c(14.4) x 8 + 0.15 x c(36) x 8 = 0.85 x 16 + 0.15 x 40 = 19.6 GPU-hours.
// 1 / q is computed once per plan, so the hot loop multiplies instead of dividing (q = 1 gives
// 1 / q = 1 exactly). Reserved capacity is a pool that work packs into, paid whole whether used
// or not: q does not touch it. A plan that does not burst carries the overflow as a backlog into
// the next hour.
//   IT_kW = (N_up + S) idle_kw + (peak_kw - idle_kw) busy / G,  facility_kW = IT_kW x PUE
// (the GPUs that packing leaves empty draw idle power: busy counts only GPUs doing work; S hot
// spares, HourInputs::idle_nodes, draw idle power and do no work).
// Example: N_up 2, G 8, D 20, perf 1, rate 1: busy 16, overflow 4 -> one 8-GPU on-demand
// instance (8 GPU-hours billed for 4 of work). With packing 0.75 and D 16: busy 12,
// overflow 4 -> one 8-GPU instance. Cloud packing 0.5: 4 GPUs of overflow bill
// ceil(4 / 0.5 / 8) = 1 instance, 12 GPUs ceil(12 / 0.5 / 8) = 3.
#pragma once

#include <cmath>

#include "core/hd.hpp"
#include "models/commitment/savings_plan.hpp"

namespace tco {

// A plan's fleet and prices as plain numbers (no strings, no heap) for host and device.
struct FleetParams {
  double gpus_per_node = 8.0;
  double packing_efficiency = 1.0;  // share of on-prem GPUs jobs can fill, in (0, 1]
  double idle_kw = 0.0;
  double peak_kw = 0.0;
  double perf_onprem = 1.0;
  double perf_cloud = 1.0;
  double gpus_per_instance = 8.0;
  double reserved_gpus = 0.0;
  double spot_share = 0.0;
  double spot_overhead_factor = 1.0;
  double cloud_billed_per_gpu = 1.0;  // 1 / cloud packing efficiency: GPUs to bill per GPU of demand
  double on_demand_usd_per_instance_hour = 0.0;  // before the hourly price factor
  double savings_plan_usd_per_instance_hour = 0.0;  // the savings plan's rate (0: none)
  double spot_usd_per_instance_hour = 0.0;
  int bursts = 1;

  bool operator==(const FleetParams&) const = default;
};

// What varies by hour (and, in Monte Carlo, by path).
struct HourInputs {
  double demand_gpus = 0.0;
  double nodes_up = 0.0;
  double idle_nodes = 0.0;          // powered nodes that take no work: the hot spares (models/site/spares.hpp)
  double work_rate = 1.0;           // 1 - throttle_fraction in a throttled hour
  double pue = 1.0;
  double usd_per_kwh = 0.0;         // escalated, shocks applied
  double cloud_price_factor = 1.0;  // on-demand: (1 + price_change)^(h / 8760) or its schedule, x multiplier
  double spot_price_factor = 1.0;   // the same for spot
  // Drawn by the Monte Carlo (engine/sweep/sweep_kernel.hpp); their expectations in the deterministic
  // run (engine/ledger/hourly/spot_draws.hpp). 1 is spot always there, never preempted, at its list price.
  double spot_available = 1.0;          // 0 in an hour with no spot capacity: spot goes on-demand
  double spot_preemption_factor = 1.0;  // extra billed spot hours from that hour's preemptions
  double spot_price_multiplier = 1.0;   // the month's spot price shock
  // Commitments (models/commitment/commitment.hpp); 0 without them.
  double committed_gpus = 0.0;    // take-or-pay and capacity-block GPUs held this hour
  double savings_plan_usd = 0.0;  // the savings plan's commitment this hour
};

struct HourOutcome {
  double busy_gpus = 0.0;
  double work_onprem = 0.0;
  double cloud_work = 0.0;          // reference GPU-hours of work sent to the cloud
  double reserved_used_gpus = 0.0;
  double committed_used_gpus = 0.0;
  double savings_plan_covered_instances = 0.0;  // on-demand instance-hours the savings plan paid
                                                // (with venues: on the first venue it covers)
  double savings_plan_covered_gpus = 0.0;       // with venues: GPU-hours it paid on all of them
  double savings_plan_used_usd = 0.0;           // of the hour's commitment, the dollars its cover spent
                                                // (covered instance-hours x rate, summed over the venues)
  double spot_billed_gpus = 0.0;
  double on_demand_billed_gpus = 0.0;
  double spot_usd = 0.0;
  double on_demand_usd = 0.0;
  double it_kw = 0.0;
  double facility_kw = 0.0;
  double energy_usd = 0.0;
  double backlog_gpu_hours = 0.0;   // work still waiting after this hour
};

// How the step divides by the fleet's constants (GPUs per node and per instance, cloud perf).
// Plain division; or, for a hot loop whose constants are all powers of two (8-GPU nodes and
// instances, perf 1), a multiplication by the reciprocal, which is then exact: the same bits.
struct PlainDivision {
  TCO_HD double operator()(double x, double d) const { return x / d; }
};
struct PowerOfTwoDivision {
  TCO_HD double operator()(double x, double d) const { return x * (1.0 / d); }
};

// Whole instances for `gpus`; the tolerance keeps 48.000000001 GPUs at 6 instances.
template <typename Divide = PlainDivision>
TCO_HD double instances_for(double gpus, double gpus_per_instance, Divide divide = {}) {
  if (gpus <= 1e-9) return 0.0;
  return std::ceil(divide(gpus, gpus_per_instance) - 1e-9);
}

// Whole instances' GPUs for `gpus`.
TCO_HD double round_up_to_instances(double gpus, double gpus_per_instance) {
  return instances_for(gpus, gpus_per_instance) * gpus_per_instance;
}

// The on-prem part of an hour: busy GPUs, the work they do, and the overflow (work left).
struct OnPremHour {
  double busy_gpus;
  double work_onprem;
  double overflow;
};

TCO_HD_STEP OnPremHour onprem_hour(const FleetParams& f, const HourInputs& in, double need) {
  // x 1.0 is exact: packing 1 leaves every result bit for bit as without it.
  const double capacity_gpus = in.nodes_up * f.gpus_per_node * f.packing_efficiency;
  const double work_per_busy_gpu = f.perf_onprem * in.work_rate;
  double busy = capacity_gpus > 0.0 ? need / work_per_busy_gpu : 0.0;
  if (busy > capacity_gpus) busy = capacity_gpus;
  const double work_onprem = busy * work_per_busy_gpu;
  double overflow = need - work_onprem;
  if (overflow < 1e-12) overflow = 0.0;
  return {busy, work_onprem, overflow};
}

// The cloud part of a bursting plan's hour: the overflow (reference GPU-hours of work) to
// reserved, spot and on-demand instances.
template <typename Divide = PlainDivision>
TCO_HD_STEP void cloud_hour(const FleetParams& f, const HourInputs& in, double overflow, HourOutcome& out, Divide divide) {
  out.cloud_work = overflow;
  const double cloud_gpus = divide(overflow, f.perf_cloud);
  out.reserved_used_gpus = cloud_gpus < f.reserved_gpus ? cloud_gpus : f.reserved_gpus;
  const double after_reserved = cloud_gpus - out.reserved_used_gpus;
  // - 0.0 is exact: a plan without commitments keeps every bit.
  out.committed_used_gpus = after_reserved < in.committed_gpus ? after_reserved : in.committed_gpus;
  const double rest = after_reserved - out.committed_used_gpus;
  const double spot_gpus = rest * f.spot_share;  // when spot has capacity
  // Instances are counted once and priced by count. x 1.0 is exact: cloud packing 1 leaves
  // every result bit for bit as without it.
  const double spot_instances = instances_for(spot_gpus * f.cloud_billed_per_gpu, f.gpus_per_instance, divide);
  const double beside_spot_instances =
      instances_for((rest - spot_gpus) * f.cloud_billed_per_gpu, f.gpus_per_instance, divide);
  const double without_spot_instances =
      f.spot_share > 0.0 ? instances_for(rest * f.cloud_billed_per_gpu, f.gpus_per_instance, divide)
                         : beside_spot_instances;
  const double a = in.spot_available;
  // a x beside + (1 - a) x without, written so that a = 1, a = 0 and share 0 give whole
  // instance counts exactly (their difference is a whole number).
  const double on_demand_instances = beside_spot_instances + (1.0 - a) * (without_spot_instances - beside_spot_instances);
  const double spot_instance_hours = spot_instances * f.spot_overhead_factor * in.spot_preemption_factor * a;
  out.spot_billed_gpus = spot_instance_hours * f.gpus_per_instance;
  out.on_demand_billed_gpus = on_demand_instances * f.gpus_per_instance;
  out.spot_usd = spot_instance_hours * f.spot_usd_per_instance_hour * in.spot_price_factor * in.spot_price_multiplier;
  out.savings_plan_covered_instances = savings_plan_covered_instances(
      in.savings_plan_usd, f.savings_plan_usd_per_instance_hour, on_demand_instances);
  out.savings_plan_used_usd = out.savings_plan_covered_instances * f.savings_plan_usd_per_instance_hour;
  out.on_demand_usd = (on_demand_instances - out.savings_plan_covered_instances) * f.on_demand_usd_per_instance_hour *
                      in.cloud_price_factor;
}

template <typename Divide = PlainDivision>
TCO_HD_STEP HourOutcome step_hour(const FleetParams& f, const HourInputs& in, double backlog_gpu_hours,
                             Divide divide = {}) {
  HourOutcome out;
  const double need = in.demand_gpus + backlog_gpu_hours;
  const OnPremHour onprem = onprem_hour(f, in, need);
  const double busy = onprem.busy_gpus;
  out.busy_gpus = busy;
  out.work_onprem = onprem.work_onprem;
  if (f.bursts)
    cloud_hour(f, in, onprem.overflow, out, divide);
  else
    out.backlog_gpu_hours = onprem.overflow;

  out.it_kw = (in.nodes_up + in.idle_nodes) * f.idle_kw + divide((f.peak_kw - f.idle_kw) * busy, f.gpus_per_node);
  out.facility_kw = out.it_kw * in.pue;
  out.energy_usd = out.facility_kw * in.usd_per_kwh;
  return out;
}

// step_hour of a bursting plan in an hour with no node up and no backlog, to the bit: no
// capacity, so no GPU is busy, the IT load is 0 x idle + 0 and all the work overflows (the same
// 1e-12 floor). A hot loop that knows the whole month has no node up skips the on-prem part,
// its division included. (Finite kW, PUE and energy price assumed, as everywhere.)
template <typename Divide = PlainDivision>
TCO_HD_STEP HourOutcome step_cloud_only_hour(const FleetParams& f, const HourInputs& in, Divide divide = {}) {
  HourOutcome out;
  double overflow = in.demand_gpus + 0.0;
  if (overflow < 1e-12) overflow = 0.0;
  cloud_hour(f, in, overflow, out, divide);
  return out;
}

}  // namespace tco
