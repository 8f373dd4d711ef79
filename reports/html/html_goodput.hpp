// The HTML page's goodput section (reports/markdown/goodput_markdown.hpp has the same rows);
// empty when no plan has `goodput`.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string goodput_section(const Json& report);

}  // namespace tco
