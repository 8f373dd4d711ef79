// The catalog records as the report's inputs echo them, field by field, each with its provenance.
#pragma once

#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"

namespace tco {

Json provenance_json(const Provenance& p);
Json to_json(const CloudOffer& o);
Json to_json(const GpuModel& g);
Json to_json(const ServerModel& s);
Json to_json(const CoolingType& c);
Json to_json(const Colocation& c);

}  // namespace tco
