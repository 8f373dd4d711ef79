// The Markdown summary's next-generation table (report key `next_generation`, docs/report.md):
// the event in one line, then per plan its NPV with and without the event and the difference.
// Empty when the report has no event.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// "the h100-sxm-80gb successor arrives in month 18: rental prices x0.70, resale x0.55"
std::string next_generation_words(const Json& next_generation);

// An effect in USD, or "none" for exactly 0 (a plan the event does not touch: nothing to show as "$0").
std::string next_generation_effect_usd(const Json& usd);

std::string next_generation_markdown(const Json& report);

}  // namespace tco
