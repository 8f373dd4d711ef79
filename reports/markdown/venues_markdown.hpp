// The Markdown summary's venue section: per plan with `venues`, one row per venue in the plan's
// order (work served, GPU-hours billed, nominal cost), then the work no venue took. Empty when no
// plan has venues, so other summaries keep their bytes.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string venues_markdown(const Json& report);

// A venue's nominal cost in words: "$1,234", or "nothing served" for a venue no work reached.
std::string venue_cost_words(const Json& venue);

// GPU-hours in words: "12345 GPU-h".
std::string gpu_hours_words(const Json& gpu_hours);

}  // namespace tco
