// The HTML page's time-shifting section (reports/markdown/time_shift_markdown.hpp has the same
// rows); empty when no plan shifts.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string time_shift_section(const Json& report);

}  // namespace tco
