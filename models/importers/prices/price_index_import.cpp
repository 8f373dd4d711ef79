#include "models/importers/prices/price_index_import.hpp"

#include <cmath>
#include <fstream>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "models/input_limits.hpp"
#include "core/io/csv_lines.hpp"
#include "core/io/utf8_text.hpp"
#include "models/importers/prices/skypilot_import.hpp"

namespace tco {

namespace {

// "YYYY-MM" is the month's first day; "YYYY-MM-DD" itself.
bool parse_index_date(const std::string& text, Date& out) {
  return parse_date(text.size() == 7 ? text + "-01" : text, out);
}

int column_of(const std::vector<skypilot::CsvField>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i].text == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

PriceIndexImport import_price_index(const std::string& path, const std::string& interpolation,
                                    const std::string& series) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the file");
  PriceIndexImport out;
  std::string line;
  long line_number = 0;
  if (!std::getline(in, line)) throw InputError(path, "line 1", "expected a header with date,usd_per_gpu_hour, found an empty file");
  ++line_number;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto header = skypilot::split_csv_line(line, path, line_number);
  const int c_date = column_of(header, "date"), c_price = column_of(header, "usd_per_gpu_hour");
  const int c_source = column_of(header, "source"), c_kind = column_of(header, "kind");
  const int c_series = column_of(header, "series");
  if (c_date < 0 || c_price < 0)
    throw InputError(path, "line 1", "expected a header naming the columns date and usd_per_gpu_hour, found \"" + line + "\"");
  if (!series.empty() && c_series < 0)
    throw InputError(path, "line 1", "expected a column series to pick the series \"" + series + "\" from, found \"" +
                                         line + "\"");
  std::set<std::string> series_names;

  Json points = Json::array();
  std::set<std::string> kinds;
  std::vector<std::string> zero_lines, nan_lines;
  double last_days = -1e300;
  Date first{};
  bool have_first = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto f = skypilot::split_csv_line(line, path, line_number);
    if (f.size() != header.size())
      throw InputError(path, csv_position(line_number, line.size() + 1),
                       fmt::format("expected {} fields (as in the header), found {}", header.size(), f.size()));
    // Text that reaches the schedule, a note or a message: UTF-8 without control characters.
    for (const int c : {c_series, c_source, c_kind}) {
      if (c < 0) continue;
      const auto& field = f[static_cast<std::size_t>(c)];
      if (const std::size_t bad = first_unprintable_byte(field.text); bad != std::string::npos)
        throw InputError(path, csv_position(line_number, static_cast<std::size_t>(field.column)),
                         fmt::format("expected text (UTF-8, no control characters) in column {}, found the byte "
                                     "\\x{:02X} at its character {}",
                                     c == c_series ? "series" : c == c_source ? "source" : "kind",
                                     static_cast<unsigned>(static_cast<unsigned char>(field.text[bad])), bad + 1));
    }
    if (c_series >= 0) {
      const std::string& name = f[static_cast<std::size_t>(c_series)].text;
      series_names.insert(name);
      if (series.empty() && series_names.size() > 1)
        throw InputError(path, csv_position(line_number, static_cast<std::size_t>(f[static_cast<std::size_t>(c_series)].column)),
                         fmt::format("the file holds several series ({}, ...): name the one a plan rents at with "
                                     "--series", fmt::join(series_names, ", ")));
      if (!series.empty() && name != series) continue;  // another index's row
    }
    ++out.rows_read;
    const auto& price_field = f[static_cast<std::size_t>(c_price)];
    double price = 0.0;
    const bool is_nan = price_field.text == "nan" || price_field.text == "NaN" || price_field.text == "NAN";
    if (is_nan) {
      ++out.nan_rows;
      nan_lines.push_back(std::to_string(line_number));
      continue;
    }
    if (!parse_finite_double(price_field.text, price) || price < 0.0)
      throw InputError(path, csv_position(line_number, static_cast<std::size_t>(price_field.column)),
                       "expected a price in USD per GPU-hour (a number >= 0) in column usd_per_gpu_hour, found \"" +
                           price_field.text + "\"");
    if (price > limits::kUsdPerGpuHour.max)
      throw InputError(path, csv_position(line_number, static_cast<std::size_t>(price_field.column)),
                       fmt::format("expected a price of at most ${:g} per GPU-hour (a price schedule's ceiling) in "
                                   "column usd_per_gpu_hour, found \"{}\"",
                                   limits::kUsdPerGpuHour.max, price_field.text));
    if (price == 0.0) {
      ++out.zero_price_rows;
      zero_lines.push_back(std::to_string(line_number));
      continue;
    }
    const auto& date_field = f[static_cast<std::size_t>(c_date)];
    Date date;
    if (!parse_index_date(date_field.text, date))
      throw InputError(path, csv_position(line_number, static_cast<std::size_t>(date_field.column)),
                       "expected a date YYYY-MM or YYYY-MM-DD in column date, found \"" + date_field.text + "\"");
    if (!have_first) first = date, have_first = true;
    const double days = static_cast<double>(days_between(first, date));
    if (!(days > last_days))
      throw InputError(path, csv_position(line_number, static_cast<std::size_t>(date_field.column)),
                       "expected dates in increasing order, found \"" + date_field.text + "\" after an equal or later date");
    last_days = days;
    Json point = {{"date", format_date(date)}, {"usd_per_gpu_hour", price}};
    if (c_source >= 0 && !f[static_cast<std::size_t>(c_source)].text.empty())
      point["source"] = f[static_cast<std::size_t>(c_source)].text;
    if (c_kind >= 0) kinds.insert(f[static_cast<std::size_t>(c_kind)].text);
    points.push_back(std::move(point));
  }
  const auto join = [](const auto& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
  };
  if (!series.empty() && series_names.count(series) == 0)
    throw InputError(path, "column series",
                     fmt::format("expected a series named \"{}\", found only {}", series, join(series_names)));
  if (points.empty()) throw InputError(path, "", "expected at least one row with a price above $0, found none");
  out.schedule = {{"interpolation", interpolation}, {"points", points}};
  if (kinds.size() > 1)
    out.notes.push_back({Finding::Severity::warning, "mixed-kinds", path, "column kind",
                         fmt::format("the series mixes {} kinds of figure ({}): as one offer's price it is a proxy",
                                     kinds.size(), join(kinds))});
  if (out.zero_price_rows > 0)
    out.notes.push_back({Finding::Severity::warning, "zero-price", path, "lines " + join(zero_lines),
                         fmt::format("{} rows had a $0 price: skipped, never written as a price", out.zero_price_rows)});
  if (out.nan_rows > 0)
    out.notes.push_back({Finding::Severity::warning, "nan-price", path, "lines " + join(nan_lines),
                         fmt::format("{} rows had a NaN price: dropped", out.nan_rows)});
  return out;
}

}  // namespace tco
