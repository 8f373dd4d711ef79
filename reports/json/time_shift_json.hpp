// What time shifting did (scheduling.time_shift, docs/model.md §5.1), one row per shifted plan,
// read from the report's Monte Carlo block: the holds' figures from the replay's job counters,
// and, where the scenario has the same plan without shifting (its twin: the same inputs under
// another name, the same scheduling but for time_shift), the exact change on common random
// numbers in energy, NPV and deadline misses (deadline_misses_added_per_path: shifted - twin, which
// the Markdown and HTML flag when above 0). Shared by time_shift.csv, the workbook's Time
// shifting sheet, the Markdown summary and the HTML page.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

const std::vector<std::string>& time_shift_columns();
// The rows of the plans with time_shift on, in report order; empty for a report without a
// discrete-event Monte Carlo block. A plan without a twin has nulls in the twin's columns.
std::vector<Json> time_shift_rows(const Json& report);

}  // namespace tco
