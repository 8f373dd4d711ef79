// The Markdown summary of a report, fit for a pull-request comment, and the plain-text
// table `tcosim run` prints. Both render a JSON report, so a saved report renders the same.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"
#include "reports/document/number_words.hpp"  // format_usd, format_months: the human formats' money

namespace tco {

std::string markdown_summary(const Json& report);


}  // namespace tco
