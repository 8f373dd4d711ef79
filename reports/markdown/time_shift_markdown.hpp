// The Markdown summary's time-shifting section: per plan with scheduling.time_shift, its holds,
// the hours held, the energy the holds saved at the forecast prices, and beside its twin without
// shifting (reports/json/time_shift_json.hpp) the exact change in energy, NPV and deadline misses.
// Empty when no plan shifts, so other summaries keep their bytes.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

std::string time_shift_markdown(const Json& report);

// A time-shift row's cells in words, shared with the HTML page: plan, holds, hours held, energy
// saved at hold, deadline misses, energy, twin, twin's energy, NPV change, twin's deadline misses,
// misses added.
std::vector<std::string> time_shift_cells(const Json& row);

// One sentence per shifted plan whose shifting added deadline misses against its twin (none: an
// empty list): "time shifting adds 0.05 deadline misses per path on P (0.15 against 0.10 on T
// without shifting), beside an NPV change of -$24".
std::vector<std::string> time_shift_miss_flags(const Json& report);

}  // namespace tco
