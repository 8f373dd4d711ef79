// Hourly series files (SPEC §5): an energy price or an ambient temperature given hour by hour
// instead of by a formula. A CSV with the header "hour,<column>" and one row per hour, hours
// 0, 1, 2, ... consecutive from 0 (hours from the scenario's start, SPEC §2):
//   hour,usd_per_kwh
//   0,0.10
//   1,0.20
// value(h) = values[h] for h < rows. Past its last row a series is an error, unless the scenario
// says "repeat": "week" or "year": the series (then a whole number of 168 h weeks or 8760 h model
// years, so weekdays and days of the year stay aligned) starts again from its first row:
// value(h) = values[h mod rows]. Example: 336 rows with "repeat": "week": value(400) = values[64].
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

struct HourlySeries {
  enum class Repeat { none, week, year };
  std::string file;            // as the scenario gives it
  std::string resolved_path;   // relative to the scenario's folder
  std::string column;          // "usd_per_kwh" or "temperature_c"
  std::string sha256;          // of the file's bytes, for the report
  Repeat repeat = Repeat::none;
  std::vector<double> values;  // values[h] for hour h

  long rows() const { return static_cast<long>(values.size()); }
  // The value at hour `hour` (>= 0); an InputError naming the file when the hour is past the
  // series' end and the series does not repeat.
  double at(long hour) const {
    if (hour < rows()) return values[static_cast<std::size_t>(hour)];
    if (repeat != Repeat::none) return values[static_cast<std::size_t>(hour % rows())];
    fail_past_end(hour);
  }
  // Checks that the series gives a value for every hour in [0, hours): an InputError naming the
  // file, its last line, `needed_by` (what reads that far) and the scenario's `repeat_key`
  // otherwise.
  void require_hours(long hours, const std::string& needed_by, std::string_view repeat_key) const;

 private:
  [[noreturn]] void fail_past_end(long hour) const;
};

const char* to_string(HourlySeries::Repeat repeat);

// What a column may hold: its name and the closed range of its values.
struct HourlySeriesColumn {
  std::string_view name;      // "usd_per_kwh"
  double min = 0.0;
  double max = 0.0;
  std::string_view expected;  // "a price in USD/kWh >= 0", for messages
};

// The two columns tcosim reads: prices in [0, 10] USD/kWh (models/input_limits.hpp), temperatures in [-90, 70] °C
// (the planet's records are -89.2 and 56.7; a value outside is a unit slip: kelvin, Fahrenheit).
HourlySeriesColumn price_series_column();
// Grid intensities in [0, 10,000] g CO2/kWh (models/input_limits.hpp).
HourlySeriesColumn intensity_series_column();
HourlySeriesColumn temperature_series_column();

// Reads the series named by the string at `file_key` of `r` (a path relative to
// `scenario_dir` unless absolute), with the repeat rule at `repeat_key` ("none" by default).
// Errors are InputErrors: a missing file names the scenario and the key's pointer; a bad row
// names the CSV file and "line N, column C".
std::shared_ptr<const HourlySeries> read_hourly_series(JsonObjectReader& r, std::string_view file_key,
                                                       std::string_view repeat_key, const std::string& scenario_dir,
                                                       const HourlySeriesColumn& column);

// The same from a CSV path (no scenario): tests and tools.
std::shared_ptr<const HourlySeries> read_hourly_series_file(const std::string& file, const std::string& resolved_path,
                                                            const HourlySeriesColumn& column,
                                                            HourlySeries::Repeat repeat = HourlySeries::Repeat::none);

// {"file", "sha256", "rows", "repeat"} for the report's resolved inputs.
Json series_to_json(const HourlySeries& series);

}  // namespace tco
