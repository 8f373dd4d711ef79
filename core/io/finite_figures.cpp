#include "core/io/finite_figures.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace {

std::optional<std::string> first_non_finite(const Json& value, const std::string& pointer) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) return pointer;
  if (value.is_object()) {
    for (const auto& [key, v] : value.items())
      if (auto at = first_non_finite(v, pointer_join(pointer, key))) return at;
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (auto at = first_non_finite(value[i], pointer_join(pointer, std::to_string(i)))) return at;
  }
  return std::nullopt;
}

}  // namespace

void require_finite_figures(const Json& document, const std::string& blamed_file) {
  const auto at = first_non_finite(document, "");
  if (!at) return;
  const double x = document.at(Json::json_pointer(*at)).get<double>();
  if (blamed_file.empty())
    throw std::logic_error(fmt::format("the computed figure at {} is {}, not a finite number", *at, x));
  throw InputError(blamed_file, "",
                   fmt::format("the computed figure at {} of the output is {}: the inputs' products leave the range of "
                               "a double; look for a price, count or rate many orders of magnitude too large in this "
                               "file or in the catalog records it uses",
                               *at, x));
}

}  // namespace tco
