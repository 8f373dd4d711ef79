// An owned plan's order and delivery as the JSON report writes them (docs/report.md,
// `procurement`): months count from 0 at the scenario's start, as purchase_month does.
#pragma once

#include "core/io/json_reader.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

Json procurement_json(const ProcurementFigures& figures);

}  // namespace tco
