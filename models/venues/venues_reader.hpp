// A plan's "venues" (models/venues/cloud_venue.hpp): each names an offer (a catalog id or an
// inline record) and its own terms.
#pragma once

#include <vector>

#include "core/io/json_reader.hpp"
#include "models/catalog/record_resolver.hpp"
#include "models/venues/cloud_venue.hpp"

namespace tco {

std::vector<CloudVenue> parse_venues(JsonObjectReader& r, RecordResolver& resolver);

}  // namespace tco
