// The HTML page's CO2 table: per plan, the on-prem grid's, the embodied and the cloud's CO2 and
// the carbon price's cost (reports/markdown/carbon_markdown.hpp words the cells).
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string carbon_section(const Json& report);

}  // namespace tco
