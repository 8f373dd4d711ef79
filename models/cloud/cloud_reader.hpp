// A plan's "cloud" section (the scenario's, merged with the plan's patch): the offer and its GPU,
// spot behaviour, price schedules and processes, packing and egress (docs/scenario.md).
#pragma once

#include <string>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"
#include "models/catalog/record_resolver.hpp"
#include "models/cloud/cloud_spec.hpp"

namespace tco {

CloudSpec parse_cloud(JsonObjectReader& r, RecordResolver& resolver, const std::string& dir, const Date& start);

// A reserved term priced at 0 is a missing figure typed as a price (a catalog file's is the
// validator's zero-price error). An inline offer or an override that writes one is refused here,
// naming its pointer, so that `validate` and `run` refuse it alike and no implied forward
// divides by it. A catalog record's own 0 is the catalog's error (require_valid_catalog).
void refuse_zero_reserved_prices(const Json& ref, const std::string& file, const std::string& offer_pointer);

Json to_json(const SpotSpec& s);
Json to_json(const CloudSpec& c);

}  // namespace tco
