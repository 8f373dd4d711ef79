// The HTML page's procurement table: per owned plan with `procurement`, the order, the deposit and
// the delivery month (its spread over paths when drawn). Empty when no plan has one.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string procurement_section(const Json& report);

}  // namespace tco
