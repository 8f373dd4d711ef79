// One venue's part of one hour as plain numbers, shared by the deterministic stepper
// (engine/ledger/hourly/venue_hour.cpp, which takes the expectation over the venues' availability) and
// the sweep kernel (engine/sweep/sweep_kernel.hpp, CPU and CUDA, which draws it per path and
// hour). The formulas are in engine/ledger/hourly/venue_hour.hpp and docs/model.md §3b.
// Example: 100 plan GPUs, 8-GPU instances, quota 8 instances (64 GPUs): venue_take holds 8
// instances and serves 64 GPUs; the other 36 go on to the next venue.
#pragma once

#include "core/hd.hpp"
#include "core/random/random.hpp"
#include "engine/ledger/hourly/hourly_model.hpp"
#include "models/venues/venue_limit.hpp"

namespace tco {

// A venue as the hour reads it, prices scaled by the evaluation's cloud price multiplier.
struct VenueParams {
  double plan_perf = 1.0;             // perf_cloud: reference work per GPU-hour of the plan's offer
  double gpus_per_plan_gpu = 1.0;     // perf_cloud / perf_venue (1 for the plan's own GPU)
  double cloud_billed_per_gpu = 1.0;  // 1 / the plan's cloud packing efficiency
  double gpus_per_instance = 8.0;
  double max_instances = -1.0;        // the quota in whole instances; < 0: no quota
  double availability = 1.0;
  double usd_per_instance_hour = 0.0;
  double billed_per_instance_hour = 1.0;  // spot_overhead_factor for a spot venue
  double provisioning_delay_h = 0.0;
  int spot = 0;                       // 1: bills at the spot price (and its factors)
  // > 0: the plan's savings plan covers this (on-demand) venue's usage at this rate per instance-hour
  double savings_plan_usd_per_instance_hour = 0.0;
  int savings_plan_order = -1;  // where the commitment reaches it among the venues it covers (0 first)

  bool operator==(const VenueParams&) const = default;
};

// What a venue with capacity does with `rest_gpus` plan GPUs: instances held, plan GPUs served.
struct VenueTake {
  double instances = 0.0;
  double plan_gpus = 0.0;
};

TCO_HD VenueTake venue_take(const VenueParams& v, double rest_gpus) {
  const double wanted = instances_for(rest_gpus * v.gpus_per_plan_gpu * v.cloud_billed_per_gpu, v.gpus_per_instance);
  if (v.max_instances < 0.0 || wanted <= v.max_instances) return {wanted, rest_gpus};
  const double served = v.max_instances * v.gpus_per_instance / v.cloud_billed_per_gpu / v.gpus_per_plan_gpu;
  return {v.max_instances, rest_gpus < served ? rest_gpus : served};
}

// Instance-hours billed for an hour that holds `instances`, `launched` of them new.
TCO_HD double venue_billed_instance_hours(const VenueParams& v, double instances, double launched) {
  return instances * v.billed_per_instance_hour + launched * v.provisioning_delay_h;
}

// Instance-hours of each venue's `billed_instance_hours[i]` that the hour's savings-plan
// commitment covers (models/commitment/savings_plan.hpp): the venues it covers in their order
// (savings_plan_order 0, 1, ...; highest discount first), covered_i = min(billed_i, left / r_i),
// left -= covered_i r_i; 0 for a venue it does not cover. The covered instance-hours are paid
// by the commitment, not at the venue's price.
// Example: $50 this hour; venue A at $6 (of $10) bills 5, venue B at $15 (of $20) bills 3: A first
// (40% off) covers 5 for $30; B covers 20 / 15 = 1.333 of its 3 and bills 1.667.
TCO_HD void venues_savings_plan_cover(const VenueParams* venues, int n, const double* billed_instance_hours,
                                      double commitment_usd, double* covered_instance_hours) {
  for (int i = 0; i < n; ++i) covered_instance_hours[i] = 0.0;
  double left_usd = commitment_usd;
  for (int order = 0; order < n; ++order)
    for (int i = 0; i < n; ++i) {
      const VenueParams& v = venues[i];
      if (v.savings_plan_order != order || v.savings_plan_usd_per_instance_hour <= 0.0) continue;
      covered_instance_hours[i] =
          savings_plan_cover_step(left_usd, v.savings_plan_usd_per_instance_hour, billed_instance_hours[i]);
    }
}

// Whether venue `venue` of a plan has capacity in hour `hour` of a Monte Carlo path: its
// uniform(seed, path, venue_availability, venue, hour) < availability.
TCO_HD bool venue_draws_capacity(std::uint64_t seed, std::uint32_t path, int venue, long hour, double availability) {
  return uniform(seed, path, RandomSource::venue_availability, static_cast<std::uint32_t>(venue),
                 static_cast<std::uint32_t>(hour)) < availability;
}

}  // namespace tco
