#include "models/importers/import_time.hpp"

#include "core/error.hpp"
#include "core/time/time_zone.hpp"

namespace tco {

bool within_import_years(std::int64_t utc_s) {
  static const std::int64_t earliest_s = civil_seconds(2000, 1, 1, 0);
  static const std::int64_t latest_s = civil_seconds(2100, 1, 1, 0);
  return utc_s >= earliest_s && utc_s < latest_s;
}

std::int64_t json_utc_seconds(const Json& value, const std::string& file, const std::string& pointer) {
  std::int64_t utc_s = 0;
  if (!value.is_string() || !parse_time_with_offset(value.get<std::string>(), utc_s) || !within_import_years(utc_s))
    throw InputError(file, pointer,
                     "expected a time as \"YYYY-MM-DDTHH:MM:SSZ\" between 2000 and 2099, found " + describe_json(value));
  return utc_s;
}

}  // namespace tco
