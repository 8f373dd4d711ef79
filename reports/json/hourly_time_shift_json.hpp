// A plan's `hourly_time_shift` block of the JSON report (docs/report.md): what time shifting in
// the hourly model moved, held and saved in the deterministic forecast
// (engine/ledger/hourly_time_shift.hpp), and the rows of hourly_time_shift.csv and the
// workbook's sheet built from it.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/ledger/hourly_time_shift.hpp"

namespace tco {

Json hourly_time_shift_json(const HourlyShiftFigures& figures);

const std::vector<std::string>& hourly_time_shift_columns();
std::vector<Json> hourly_time_shift_rows(const Json& report);

}  // namespace tco
