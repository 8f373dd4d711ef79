// The HTML page's venue table: per plan with `venues`, one row per venue in the plan's order
// (work served, GPU-hours billed, nominal cost) and the work no venue took. Empty when no plan has
// venues.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string venues_section(const Json& report);

}  // namespace tco
