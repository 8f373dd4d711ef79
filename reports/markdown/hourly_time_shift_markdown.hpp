// The Markdown summary's section on time shifting in the hourly model: per plan with an
// `hourly_time_shift` block, the work moved and held, what it saved and what the wait cost, in
// the deterministic forecast. Empty when no plan has one, so other summaries keep their bytes.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

std::string hourly_time_shift_markdown(const Json& report);

// One row's cells (shared with the HTML page): plan, share, max delay, moved, held, saved, hold, net.
std::vector<std::string> hourly_time_shift_cells(const Json& row);

}  // namespace tco
