// The Markdown summary's depreciation section: per owned plan with `depreciation_views`, one
// table by year with the book and the tax view side by side; empty when no plan has them.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string depreciation_markdown(const Json& report);

}  // namespace tco
