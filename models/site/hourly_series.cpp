#include "models/site/hourly_series.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "core/io/sha256.hpp"
#include "core/io/csv_lines.hpp"
#include "models/input_limits.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace {

long period_hours(HourlySeries::Repeat repeat) {
  switch (repeat) {
    case HourlySeries::Repeat::week: return 7L * 24L;
    case HourlySeries::Repeat::year: return kHoursPerYear;
    case HourlySeries::Repeat::none: return 0;
  }
  return 0;
}

std::string file_sha256(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return sha256_hex(buffer.str());
}

// A whole field as a non-negative integer (digits only).
bool parse_hour(std::string_view text, long& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && out >= 0 && text.front() != '-';
}

}  // namespace

const char* to_string(HourlySeries::Repeat repeat) {
  switch (repeat) {
    case HourlySeries::Repeat::week: return "week";
    case HourlySeries::Repeat::year: return "year";
    case HourlySeries::Repeat::none: return "none";
  }
  return "?";
}

HourlySeriesColumn price_series_column() {
  return {"usd_per_kwh", limits::kUsdPerKwh.min, limits::kUsdPerKwh.max, "a price in USD/kWh within [0, 10]"};
}

HourlySeriesColumn intensity_series_column() {
  return {"g_co2_per_kwh", limits::kGCo2PerKwh.min, limits::kGCo2PerKwh.max,
          "a grid intensity in g CO2/kWh within [0, 10000]"};
}

HourlySeriesColumn temperature_series_column() {
  return {"temperature_c", -90.0, 70.0, "a temperature in °C within [-90, 70]"};
}

void HourlySeries::fail_past_end(long hour) const {
  throw InputError(resolved_path, fmt::format("line {}", rows() + 1),
                   fmt::format("the series ends at hour {} and does not repeat; the model reads hour {}", rows() - 1,
                               hour));
}

void HourlySeries::require_hours(long hours, const std::string& needed_by, std::string_view repeat_key) const {
  if (repeat != Repeat::none || hours <= rows()) return;
  throw InputError(resolved_path, fmt::format("line {}", rows() + 1),
                   fmt::format("expected a row for every hour 0..{} ({}), found {} rows (hours 0..{}); give a longer "
                               "series, or \"{}\": \"week\" or \"year\" to repeat a series of whole weeks or "
                               "years from its start",
                               hours - 1, needed_by, rows(), rows() - 1, repeat_key));
}

std::shared_ptr<const HourlySeries> read_hourly_series_file(const std::string& file, const std::string& resolved_path,
                                                            const HourlySeriesColumn& column,
                                                            HourlySeries::Repeat repeat) {
  auto series = std::make_shared<HourlySeries>();
  series->file = file;
  series->resolved_path = resolved_path;
  series->column = std::string(column.name);
  series->repeat = repeat;
  CsvLineReader csv(resolved_path, "cannot open the hourly series file");
  csv.read_header();
  const std::string header = "hour," + std::string(column.name);
  if (csv.line() != header)
    throw InputError(resolved_path, "line 1", fmt::format("expected the header \"{}\", found \"{}\"", header, csv.line()));
  long last_line = 1;
  while (csv.next_line()) {
    if (csv.line().empty()) continue;
    last_line = csv.line_number();
    const auto& fields = csv.fields();
    if (fields.size() != 2)
      throw InputError(resolved_path, csv_position(csv.line_number(), std::min<std::size_t>(fields.size(), 2) + 1),
                       fmt::format("expected 2 fields ({}), found {}", header, fields.size()));
    const long expected_hour = series->rows();
    long hour = 0;
    if (!parse_hour(fields[0], hour))
      throw InputError(resolved_path, csv_position(csv.line_number(), 1),
                       fmt::format("hour: expected the whole number {}, found \"{}\"", expected_hour, fields[0]));
    if (hour != expected_hour)
      throw InputError(resolved_path, csv_position(csv.line_number(), 1),
                       fmt::format("hour: expected {} (hours run 0, 1, 2, ... one row each, with no gap or "
                                   "repeat), found {}",
                                   expected_hour, hour));
    double value = 0.0;
    if (!parse_finite_double(fields[1], value))
      throw InputError(resolved_path, csv_position(csv.line_number(), 2),
                       fmt::format("{}: expected {}, found \"{}\"", column.name, column.expected, fields[1]));
    if (value < column.min || value > column.max)
      throw InputError(resolved_path, csv_position(csv.line_number(), 2),
                       fmt::format("{}: expected {}, found {}", column.name, column.expected, fields[1]));
    series->values.push_back(value);
  }
  if (csv.read_failed()) throw InputError(resolved_path, fmt::format("line {}", csv.line_number() + 1), "read error");
  if (series->values.empty())
    throw InputError(resolved_path, "line 2", fmt::format("expected hourly rows after the header \"{}\", found none", header));
  const long period = period_hours(repeat);
  if (period > 0 && series->rows() % period != 0)
    throw InputError(resolved_path, fmt::format("line {}", last_line),
                     fmt::format("expected a whole number of {}s ({} h each) to repeat by \"{}\", found {} rows",
                                 to_string(repeat), period, to_string(repeat), series->rows()));
  series->sha256 = file_sha256(resolved_path);
  return series;
}

namespace {

// Every plan of a scenario parses its own onprem section, and the uncertain-input paths, sweep
// points and sizing candidates load the scenario again: each would read the same file. A read
// series is kept, process-wide, while the file's size and modification time are unchanged.
struct CacheKey {
  std::string resolved_path, file, column;
  HourlySeries::Repeat repeat;
  std::uintmax_t size;
  fs::file_time_type modified;
  bool operator<(const CacheKey& o) const {
    return std::tie(resolved_path, file, column, repeat, size, modified) <
           std::tie(o.resolved_path, o.file, o.column, o.repeat, o.size, o.modified);
  }
};

std::shared_ptr<const HourlySeries> cached_series(const std::string& file, const std::string& resolved_path,
                                                  const HourlySeriesColumn& column, HourlySeries::Repeat repeat) {
  static std::mutex mutex;
  static std::map<CacheKey, std::shared_ptr<const HourlySeries>> cache;
  std::error_code size_error, time_error;
  const CacheKey key{resolved_path, file, std::string(column.name), repeat, fs::file_size(resolved_path, size_error),
                     fs::last_write_time(resolved_path, time_error)};
  if (size_error || time_error) return read_hourly_series_file(file, resolved_path, column, repeat);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto series = read_hourly_series_file(file, resolved_path, column, repeat);  // throws on bad input
  const std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 64) cache.clear();  // a bound, never reached by one scenario
  cache.emplace(key, series);
  return series;
}

}  // namespace

std::shared_ptr<const HourlySeries> read_hourly_series(JsonObjectReader& r, std::string_view file_key,
                                                       std::string_view repeat_key, const std::string& scenario_dir,
                                                       const HourlySeriesColumn& column) {
  const std::string file = r.string(file_key);
  if (file.empty()) r.fail(file_key, "the path of an hourly series file", &r.value(file_key));
  const std::string repeat_text = r.choice_or(repeat_key, {"none", "week", "year"}, "none");
  const HourlySeries::Repeat repeat = repeat_text == "week"   ? HourlySeries::Repeat::week
                                      : repeat_text == "year" ? HourlySeries::Repeat::year
                                                              : HourlySeries::Repeat::none;
  const fs::path path = fs::path(file).is_relative() ? fs::path(scenario_dir) / file : fs::path(file);
  const std::string resolved = path.lexically_normal().string();
  if (!fs::is_regular_file(path))
    throw InputError(r.file(), r.pointer_of(file_key),
                     fmt::format("expected an hourly series file (hour,{}), found no file at \"{}\"", column.name,
                                 resolved));
  return cached_series(file, resolved, column, repeat);
}

Json series_to_json(const HourlySeries& s) {
  return {{"file", s.file}, {"sha256", s.sha256}, {"rows", s.rows()}, {"repeat", to_string(s.repeat)}};
}

}  // namespace tco
