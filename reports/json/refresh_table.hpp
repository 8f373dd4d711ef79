// The rows of refresh.csv and the workbook's Refresh sheet: one per plan with `refresh`
// (reports/json/refresh_json.hpp), the plan's name then the block's figures. The report's keys
// are sorted; these columns keep the block's reading order.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

const std::vector<std::string>& refresh_columns();
std::vector<Json> refresh_rows(const Json& report);

}  // namespace tco
