// The HTML page's commitments table: per plan with `commitments`, one row per instrument with its
// committed, used and unused GPU-hours and its cost. Empty when no plan has one.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string commitments_section(const Json& report);

}  // namespace tco
