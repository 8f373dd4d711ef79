// Looking up a field of a JSON document by JSON pointer (RFC 6901), as a sweep grid's fields and
// the scenario's uncertain inputs name their targets ("/onprem/power/tariff/usd_per_kwh").
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// The value at `pointer` in `doc`, or nullptr when the pointer is malformed or names nothing.
inline const Json* find_pointer(const Json& doc, const std::string& pointer) {
  try {
    const Json::json_pointer p(pointer);
    if (!doc.contains(p)) return nullptr;
    return &doc.at(p);
  } catch (const Json::exception&) {
    return nullptr;
  }
}

}  // namespace tco
