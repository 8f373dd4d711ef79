// The absolute times the own-history importers accept (docs/own-history.md): seconds since
// 1970-01-01T00:00:00Z in [2000-01-01, 2100-01-01). Outside that window a time is a wrong
// column or a unit slip (milliseconds for seconds); inside it, every run and every gap between
// submissions stays under the trace's 1,000,000 hours.
#pragma once

#include <cstdint>
#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

bool within_import_years(std::int64_t utc_s);

// An RFC 3339 string ("2024-03-10T03:00:00Z", or with an offset "+01:00") in the window, as UTC
// seconds; InputError(file, pointer) otherwise.
std::int64_t json_utc_seconds(const Json& value, const std::string& file, const std::string& pointer);

}  // namespace tco
