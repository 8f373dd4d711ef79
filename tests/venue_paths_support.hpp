// The Monte Carlo checks of a plan with venues (tests of savings plans beside venues), on a
// scenario of three months of a diurnal 100 GPUs (savings_plan_paths_scenario): on its first paths, the sweep kernel's total equals evaluate_plan with that path's venue draws (and
// the savings plan covers something); over all paths, the deterministic run is the mean within
// 4 standard errors.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/plan_evaluator.hpp"
#include "models/workload/workload.hpp"
#include "scenario_builder.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

// `months` of a steady 100 GPUs (swinging by `diurnal_amplitude` over the day when it is not 0),
// and two cloud plans on `venues`: "venues" (the baseline) and "sp", which adds `savings_plan`.
inline Json savings_plan_venues_doc(int months, double diurnal_amplitude, const Json& venues,
                                    const Json& savings_plan) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = months;
  Json profile = {{"type", "steady"}, {"gpus", 100}};
  if (diurnal_amplitude != 0.0) profile["diurnal_amplitude"] = diurnal_amplitude;
  doc["workload"] = {{"profiles", Json::array({profile})}};
  doc["plans"] = Json::array({{{"name", "venues"}, {"kind", "cloud"}, {"venues", venues}},
                              {{"name", "sp"},
                               {"kind", "cloud"},
                               {"venues", venues},
                               {"commitments", Json::array({savings_plan})}}});
  doc["baseline"] = "venues";
  return doc;
}

// The scenario check_venue_paths runs on: three months swinging by 0.4.
inline Scenario savings_plan_paths_scenario(const Json& venues, const Json& savings_plan, const std::string& name) {
  return load_scenario_json(savings_plan_venues_doc(3, 0.4, venues, savings_plan), name, source_path("tests"));
}

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
