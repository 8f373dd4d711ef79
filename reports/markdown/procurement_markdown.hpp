// The Markdown summary's procurement section: per owned plan with `procurement`, one row with the
// order, the deposit and the delivery month (its P5-P50-P95 when the slip is drawn per path).
// Empty when no plan has one, so other summaries keep their bytes.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string procurement_markdown(const Json& report);

// A plan's `procurement` delivery in words: "month 11" for a fixed slip, "P5 9 / P50 11 / P95 14
// (mean 11.3 over 1000 paths)" for a slip drawn per path.
std::string delivery_words(const Json& procurement);

}  // namespace tco
