// An owned plan's goodput (engine/ledger/goodput.hpp) as the JSON report writes it (docs/report.md,
// `goodput`), and the one row every human format shows of it: the plan's figures beside the Monte
// Carlo statistics of its per-path goodput (monte_carlo.plans[].goodput).
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

Json goodput_json(const GoodputFigures& figures, int spare_nodes);

// The columns of goodput.csv and the workbook's Goodput sheet, and one plan's row (read from the
// report); the rows of the plans that have `goodput`, in report order.
const std::vector<std::string>& goodput_columns();
std::vector<Json> goodput_rows(const Json& report);

}  // namespace tco
