// The HTML page's section on time shifting in the hourly model (the same rows as the Markdown
// summary's, reports/markdown/hourly_time_shift_markdown.hpp). Empty when no plan shifts.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string hourly_time_shift_section(const Json& report);

}  // namespace tco
