// How every human format writes a number: money grouped in thousands, percentages with the
// flag beyond +/-1,000%, counts grouped. The one place these rules live (reports/document/).
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// Money is grouped in thousands below this bound ($1e15, a thousand times the world's yearly
// GDP) and written as "$1.235e+15" from it on: no figure that size is read digit by digit.
inline constexpr double kMaxGroupedUsd = 1e15;

// A rate beyond this many percent (either sign) measures nothing a reader can act on: an IRR on
// an investment of a few dollars, a change against a price near zero. It is shown with a flag.
inline constexpr double kMeaningfulPercentLimit = 1000.0;

// "$1,234,567" / "-$1,234" / "$1.235e+18"; whole dollars; "n/a" for null or a non-finite value.
std::string format_usd(double usd);
std::string format_usd(const Json& value);

// "1 month" / "36 months".
std::string format_months(int months);

// "1,234.5" for (1234.5, 1); "-12" for (-12.3, 0); a "-0" is written "0".
std::string format_grouped(double x, int decimals);

// "12.3%" for (0.123, 1); "+3.0%" with `sign`; beyond +/-1,000%: "9,959% (outside a meaningful
// range)", grouped in thousands.
std::string format_percent(double fraction, int decimals, bool sign = false);

// The word that follows a flagged percentage.
inline constexpr const char* kOutsideMeaningfulRange = " (outside a meaningful range)";

}  // namespace tco
