// The HTML page's depreciation views: per owned plan with `depreciation_views`, the book and tax
// tables by year and which view the tax shield uses. Empty when no plan has views.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string depreciation_section(const Json& report);

}  // namespace tco
