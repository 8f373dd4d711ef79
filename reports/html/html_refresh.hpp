// The HTML page's refresh table: per plan with `refresh`, the successor, its nodes, the refresh
// month and the money at it (the deterministic run's). Empty when no plan has one.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string refresh_section(const Json& report);

}  // namespace tco
