// CO2 per plan in words and tables (docs/report.md, `co2_kg`): the on-prem grid's, the servers'
// embodied share inside the horizon, and the cloud's where its offer gives a PUE and a grid
// intensity; "n/a" otherwise, never a guessed 0. Shared by the Markdown summary and the HTML page.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// "12.3 t" (tonnes, one decimal) or "n/a (the offer gives no PUE or grid intensity)" for null.
std::string tonnes_words(const Json& kg);

std::string carbon_markdown(const Json& report);

}  // namespace tco
