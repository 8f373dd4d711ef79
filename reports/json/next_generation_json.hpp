// The next-generation event's block of the JSON report (`next_generation`, docs/report.md): the
// event as read, and per plan its NPV with and without the event (engine/decisions/
// next_generation_effect.hpp). Null when the scenario has no event or no hourly workload, so
// every other report keeps its bytes.
#pragma once

#include "core/io/json_reader.hpp"
#include "models/scenario.hpp"

namespace tco {

Json next_generation_json(const Scenario& s);

}  // namespace tco
