// A plan's "onprem" section (the scenario's, merged with the plan's patch): the server and its
// GPU, capex, financing, procurement, site, carbon, depreciation, residual, tax, staff, failures,
// spares, power, cooling, ambient and colocation (docs/scenario.md).
#pragma once

#include <string>

#include "core/io/json_reader.hpp"
#include "models/catalog/record_resolver.hpp"
#include "models/onprem/onprem_spec.hpp"

namespace tco {

OnPremSpec parse_onprem(JsonObjectReader& r, RecordResolver& resolver, int horizon_months, const std::string& dir);

Json to_json(const OnPremSpec& o);

}  // namespace tco
