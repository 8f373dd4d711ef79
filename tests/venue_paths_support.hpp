// The Monte Carlo checks of a plan with venues (tests of savings plans beside venues): on its
// first paths, the sweep kernel's total equals evaluate_plan with that path's venue draws (and
// the savings plan covers something); over all paths, the deterministic run is the mean within
// 4 standard errors.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/plan_evaluator.hpp"
#include "models/workload/workload.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

inline void check_venue_paths(const Scenario& s, int plan, std::uint64_t seed, long paths) {
  const OnePointRun run = run_one_point(s, seed, paths, 2);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  for (long p = 0; p < 4; ++p) {
    EvaluationOptions options;
    options.venue_draws = VenueDrawKey{seed, static_cast<std::uint32_t>(p)};
    const PlanResult drawn = evaluate_plan(s, s.plans[plan], demand, options);
    INFO("path " << p);
    CHECK(run.total(plan, p) == doctest::Approx(drawn.total_usd).epsilon(1e-11));
    CHECK(drawn.commitments[0].used_gpu_hours > 0.0);
  }
  double sum = 0.0, sum2 = 0.0;
  for (long p = 0; p < paths; ++p) {
    sum += run.total(plan, p);
    sum2 += run.total(plan, p) * run.total(plan, p);
  }
  const double mean = sum / static_cast<double>(paths);
  const double se = std::sqrt((sum2 / static_cast<double>(paths) - mean * mean) / static_cast<double>(paths - 1));
  const double deterministic = evaluate_plan(s, s.plans[plan], demand).total_usd;
  INFO("mean " << mean << " se " << se << " deterministic " << deterministic);
  CHECK(se > 0.0);
  CHECK(std::abs(mean - deterministic) <= 4.0 * se);
}

}  // namespace tco::test
