// The Markdown summary of a report, fit for a pull-request comment, and the plain-text
// table `tcosim run` prints. Both render a JSON report, so a saved report renders the same.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string markdown_summary(const Json& report);

// Money is grouped in thousands below this bound ($1e15, a thousand times the world's yearly
// GDP) and written as "$1.235e+15" from it on: no figure that size is read digit by digit.
inline constexpr double kMaxGroupedUsd = 1e15;

// "$1,234,567" / "-$1,234" / "$1.235e+18"; whole dollars; "n/a" for null or a non-finite value.
std::string format_usd(double usd);
std::string format_usd(const Json& value);

// "1 month" / "36 months".
std::string format_months(int months);

}  // namespace tco
