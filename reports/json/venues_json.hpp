// A plan's venue list as the JSON report writes it (docs/report.md, `venues`): per venue, in
// the plan's order, the work it served, the GPU-hours billed and their nominal cost; then the
// work no venue took (waited per hour, and still unserved at the horizon's end).
#pragma once

#include "core/io/json_reader.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

Json venues_json(const PlanResult& result);

}  // namespace tco
