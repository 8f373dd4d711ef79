// Rows of a per-plan block of the JSON report (plans[i][block]) for the CSV files and the
// workbook's sheets: one per plan that has the block, the plan's name then the block's values
// in the order of `columns` (whose first column is "plan"). The report's keys are sorted; the
// columns keep the block's reading order.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

std::vector<Json> plan_block_rows(const Json& report, const std::string& block, const std::vector<std::string>& columns);

}  // namespace tco
