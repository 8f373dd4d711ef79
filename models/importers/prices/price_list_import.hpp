// What the provider price-list importers (`tcosim pricing import --format aws-price-list` and
// `azure-retail`) share: their result, the hours of a reserved term, and the date of a
// published timestamp.
//   hours of a term        = 8,760 h a year (365 x 24), as both providers' calculators use:
//                            1 year = 8,760 h, 3 years = 26,280 h
//   effective hourly price = upfront / term hours + hourly
//   e.g. a 3-year term at $2,750 upfront + $0.10463/h: 2,750 / 26,280 + 0.10463 = 0.209273 $/h
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/finding.hpp"
#include "models/importers/prices/import_drops.hpp"

namespace tco {

inline constexpr double kHoursPerTermYear = 8760.0;

struct PriceListImport {
  Json catalog;                // {"kind": "cloud_offer", "records": [...]}, in id order
  std::vector<Finding> notes;  // warnings: what was dropped, by reason; duplicates; unknown GPUs
  long items_read = 0;         // AWS: products; Azure: price items
  ImportDrops dropped;         // what could not become (part of) a record, by reason
  std::string as_of;           // the date every record carries (the newest file's, for several)
};

// "2025-09-12" from "2025-09-12T22:53:08Z" (or a plain "2025-09-12"); nullopt when the text
// does not start with a valid date.
std::optional<std::string> date_of_timestamp(const std::string& text);

// A price given as a JSON number or as decimal text ("98.3200000000"); nullopt when it is
// anything else (an empty text, "NaN", a negative number).
std::optional<double> price_of(const Json& value);

}  // namespace tco
