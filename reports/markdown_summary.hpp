// The Markdown summary of a report, fit for a pull-request comment, and the plain-text
// table `tcosim run` prints. Both render a JSON report, so a saved report renders the same.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string markdown_summary(const Json& report);
std::string console_summary(const Json& report);

// "$1,234,567" / "-$1,234" / "n/a" for null; whole dollars.
std::string format_usd(const Json& value);

}  // namespace tco
