// A plan's cloud: the offer it rents and that offer's GPU, how its jobs use spot capacity, and
// how its prices move (a yearly change, dated schedules, Monte Carlo processes, the next
// generation's step). Read by models/cloud/cloud_reader.cpp.
#pragma once

#include <string>

#include "models/catalog/records.hpp"
#include "models/next_generation/generation_step.hpp"
#include "models/price_path/price_process_spec.hpp"
#include "models/price_path/price_schedule.hpp"

namespace tco {

// How jobs use spot capacity (SPEC §4, §12.12, §12.13). The deterministic fluid model uses
// only spot_overhead_factor; the discrete-event replay and the Monte Carlo sweep use the rest.
struct SpotSpec {
  double availability = 1.0;                 // probability a spot request finds capacity
  double retry_h = 0.25;                     // wait before retrying an unavailable request
  int max_tries = 3;                         // then fall back to on-demand (policy "fallback")
  std::string policy = "fallback";           // or "deadline_aware"
  bool fallback_to_on_demand = true;
  double restart_h = 0.1;                    // wall time to restart after a preemption
  double checkpoint_write_h = 0.05;          // wall time per checkpoint write
  bool emergency_checkpoint = false;         // write a checkpoint inside the preemption notice
  double preemptions_per_instance_hour = 0.0;  // Poisson rate (default: the offer's figure)
  double price_sigma = 0.0;                  // monthly mean-one lognormal spot price shock
  std::string trace_file;                    // Can't Be Late availability/preemption trace (optional)
  std::string trace_resolved_path;
};

struct CloudSpec {
  CloudOffer offer;
  SpotSpec spot;
  GpuModel gpu;
  double price_change_per_year = 0.0;   // on-demand and spot prices, compounding by the hour
  CloudPriceSchedules price_schedules;  // dated prices per kind (models/price_path/price_schedule.hpp)
  CloudPriceProcesses price_processes;  // Monte Carlo multipliers per kind (models/price_path/price_process.hpp)
  GenerationStep generation_step;       // the next generation's step on every kind (models/next_generation/)
  double spot_overhead_factor = 1.0;    // billed spot GPU-hours per GPU-hour of work (>= 1)
  // Fluid model only: billed on-demand and spot GPUs = GPUs / packing_efficiency before rounding
  // to whole instances (per-job rounding in the replay; fitted by tcosim calibrate). In (0, 1].
  double packing_efficiency = 1.0;
  double egress_gb_per_gpu_hour = 0.0;  // data leaving the cloud per cloud GPU-hour of work
  double egress_usd_per_gb = 0.0;
  // The offer's hidden costs, field by field under the section's "hidden_costs" (models/catalog/hidden_costs.hpp).
  HiddenCosts hidden_costs;

  // Factors on the catalog prices in hour h (reserved: at its term's first hour).
  double on_demand_factor(long hour) const {
    return price_factor(price_schedules.on_demand, price_change_per_year, hour) * generation_step.at(hour);
  }
  double spot_factor(long hour) const {
    return price_factor(price_schedules.spot, price_change_per_year, hour) * generation_step.at(hour);
  }
  double reserved_factor(long hour) const {
    return price_factor(price_schedules.reserved, price_change_per_year, hour) * generation_step.at(hour);
  }
};

}  // namespace tco
