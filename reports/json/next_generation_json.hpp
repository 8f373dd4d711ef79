// The next-generation event's block of the JSON report (`next_generation`, docs/report.md): the
// event as read, and per plan its NPV with and without the event (engine/decisions/
// next_generation_effect.hpp). Null when the scenario has no event or no hourly workload, so
// every other report keeps its bytes.
#pragma once

#include <cstdint>

#include "core/io/json_reader.hpp"
#include "models/scenario.hpp"

namespace tco {

Json next_generation_json(const Scenario& s);

// With a drawn arrival month: the months the Monte Carlo's paths drew, under
// report["next_generation"]["arrival_month_over_paths"] (paths, mean, p5, p50, p95,
// share_inside_horizon: the share whose successor arrives before the horizon's end).
void add_arrival_over_paths(Json& report, const Scenario& s, long paths, std::uint64_t seed);

}  // namespace tco
