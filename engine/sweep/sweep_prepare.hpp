// Host-side preparation of a sweep's grid points (docs/sweep.md). For each point, what every
// path shares is computed once: the demand series, each on-prem site's hourly PUE, energy price
// and work rate (engine/ledger/plan_evaluator.cpp's site_hours), the cloud price factors, the discount
// factors, and each plan's fixed flows (capex, financing, lease, maintenance, facility, staff,
// reserved capacity, residual, tax shield), whose NPV is the same on every path:
//   NPV_path(plan) = fixed_npv + sum_m d_end(m) x variable_usd(m, path)
//   variable_usd   = cloud on-demand + spot + energy + egress + waiting, as step_hour books them
// The deterministic evaluation of each plan (evaluate_plan) gives the fixed part and is kept
// for the report. A chunk lays several points out in flat arrays for a backend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/sweep/sweep_kernel.hpp"
#include "models/scenario.hpp"

namespace tco {

struct SweepPoint {
  SweepPointHeader header;  // offsets into `data`
  std::vector<SweepPlanParams> plans;
  std::vector<double> data;
  std::vector<double> deterministic_npv_usd;  // per plan, evaluate_plan's NPV
};

// Throws ModelError when the failures to track on one path would not fit in memory.
SweepPoint prepare_sweep_point(const Scenario& scenario, std::uint64_t seed);

// Several points in flat arrays: each header's and plan's offsets are rebased onto `data`
// (a series that several points share is stored once), first_plan onto `plans`, and a point's
// path results start at index(point, 0, 0) (SweepPathValues).
struct SweepChunk {
  std::vector<SweepPointHeader> points;
  std::vector<SweepPlanParams> plans;
  std::vector<double> data;
  int max_failure_scratch = 0;  // doubles of failure scratch one path needs, largest point
  // Per plan: the nearest earlier plan of the chunk with the same inputs (its parameters, its
  // point's horizon, demand, discounting, growth and seed), which therefore has the same result
  // on every path; -1 when there is none. A grid over one plan's field leaves the other plans
  // alike at every point: a backend may evaluate them once per path.
  std::vector<int> same_as;
  bool has_tokens = false;  // some point has a token workload: the backends return tokens served
};

SweepChunk make_sweep_chunk(const std::vector<SweepPoint>& points);

// Per-path results of a chunk: point i, path k, plan j at
// (first_plan(i) x paths + k x plan_count(i) + j).
struct SweepPathValues {
  long paths = 0;
  std::vector<double> npv_usd;
  std::vector<double> total_usd;
  // Tokens served, at the same indices; empty when no point of the chunk has a token workload
  // (8 bytes per plan and path more only then).
  std::vector<double> tokens_served;

  std::size_t index(const SweepPointHeader& point, long path, int plan) const {
    return static_cast<std::size_t>(point.first_plan) * static_cast<std::size_t>(paths) +
           static_cast<std::size_t>(path) * static_cast<std::size_t>(point.plan_count) + static_cast<std::size_t>(plan);
  }
};

}  // namespace tco
