// A plan's "refresh" (models/next_generation/refresh.hpp) and the next generation's successor
// server: selling the owned fleet and buying the next generation's.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"
#include "models/catalog/record_resolver.hpp"
#include "models/next_generation/next_generation_spec.hpp"
#include "models/next_generation/refresh.hpp"
#include "models/onprem/onprem_spec.hpp"

namespace tco {

// A plan's "refresh" (models/next_generation/refresh.hpp). The successor is filled in once
// next_generation is read (fill_refreshes). What a refresh is not modelled with yet is refused,
// naming the field in the way.
PlanRefresh parse_refresh(JsonObjectReader& r, const std::string& plan_name, int onprem_nodes,
                          const OnPremSpec* onprem);

// next_generation.successor_server: its server record and that server's GPU.
void resolve_successor(NextGenerationSpec& g, JsonObjectReader& r, RecordResolver& resolver);

}  // namespace tco
