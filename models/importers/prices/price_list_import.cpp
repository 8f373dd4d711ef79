#include "models/importers/prices/price_list_import.hpp"

#include <cmath>

#include "core/calendar.hpp"
#include "core/io/csv_lines.hpp"

namespace tco {

std::optional<std::string> date_of_timestamp(const std::string& text) {
  if (text.size() < 10 || (text.size() > 10 && text[10] != 'T' && text[10] != ' ')) return std::nullopt;
  const std::string day = text.substr(0, 10);
  Date date;
  if (!parse_date(day, date)) return std::nullopt;
  return day;
}

std::optional<double> price_of(const Json& value) {
  double price = 0.0;
  if (value.is_number()) price = value.get<double>();
  else if (!value.is_string() || !parse_finite_double(value.get<std::string>(), price)) return std::nullopt;
  if (!std::isfinite(price) || price < 0.0) return std::nullopt;
  return price;
}

}  // namespace tco
