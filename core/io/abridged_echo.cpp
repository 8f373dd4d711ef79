#include "core/io/abridged_echo.hpp"

#include "core/io/sha256.hpp"

namespace tco {

nlohmann::json abridged_echo(const nlohmann::json& value, std::size_t max_items) {
  if (value.is_array() && value.size() > max_items) {
    const std::string text = value.dump();
    return {{"abridged_array", {{"items", value.size()}, {"bytes", text.size()}, {"digest_sha256", sha256_hex(text)}}}};
  }
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, child] : value.items()) out[key] = abridged_echo(child, max_items);
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& child : value) out.push_back(abridged_echo(child, max_items));
    return out;
  }
  return value;
}

}  // namespace tco
