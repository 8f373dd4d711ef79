// Reading a saved JSON report back (`report`, `diff`, `regress`): a report is an input like any
// other, so a figure someone edited into null, "NaN" or a string is bad input naming its
// pointer, never a quiet "n/a" or "none" on a page.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// Reads `path` (with the JSON limits of every input) and checks that its money figures are
// finite numbers: every value under a key ending in `_usd` (and `usd_per_useful_gpu_hour`) in
// /plans, /comparisons, /monte_carlo/plans and /monte_carlo/comparisons, and each plan's
// `npv_usd`, which must be present. InputError (exit 2) naming `path` and the pointer otherwise.
// The schema version is the caller's to check (`diff` names both versions when they differ).
Json read_report_file(const std::string& path);

// The same checks on a report already in memory, blaming `file`.
void check_report_figures(const Json& report, const std::string& file);

// What the renderers of `report` (HTML, Markdown, CSV, workbook) read besides the figures: the
// inputs echoed by `run`, an object whose "plans" has one entry per plan of /plans. InputError
// naming /inputs or /inputs/plans otherwise (`diff` and `regress` do not need them).
void check_report_inputs(const Json& report, const std::string& file);

}  // namespace tco
