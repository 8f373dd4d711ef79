// The HTML page's next-generation table (report key `next_generation`, docs/report.md), the same
// figures as the Markdown summary's. Empty when the report has no event.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string next_generation_section(const Json& report);

}  // namespace tco
