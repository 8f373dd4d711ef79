#include "engine/sweep/sweep_shard_check.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace {

// Every leaf of a point is a finite number but its plan names ("name", "best_plan").
void check_point_figures(const std::string& file, const Json& value, const std::string& pointer,
                         const std::string& key) {
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) check_point_figures(file, v, pointer_join(pointer, k), k);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      check_point_figures(file, value[i], pointer_join(pointer, std::to_string(i)), key);
  } else if (key == "name" || key == "best_plan") {
    if (!value.is_string()) throw InputError(file, pointer, "expected a plan name, found " + describe_json(value));
  } else if (!value.is_number() || !std::isfinite(value.get<double>())) {
    throw InputError(file, pointer, "expected a finite number, found " + describe_json(value));
  }
}

void require_count(const std::string& file, const Json& parent, const std::string& pointer, const char* key) {
  const auto it = parent.is_object() ? parent.find(key) : parent.end();
  if (it == parent.end() || !it->is_number_integer() || it->get<long long>() < 0)
    throw InputError(file, pointer_join(pointer, key),
                     "expected an integer >= 0, found " + (it == parent.end() ? std::string("nothing") : describe_json(*it)));
}

}  // namespace

void check_sweep_shard(const std::string& file, const Json& doc, const char* schema) {
  if (!doc.is_object() || doc.value("schema", Json()) != Json(schema))
    throw InputError(file, doc.is_object() ? "/schema" : "",
                     fmt::format("expected a sweep shard (schema \"{}\", written by tcosim sweep --shard k/N), found {}",
                                 schema, doc.is_object() ? (doc.contains("schema") ? describe_json(doc["schema"]) : "none")
                                                         : describe_json(doc)));
  require_count(file, doc.value("grid", Json()), "/grid", "points");
  require_count(file, doc.value("shard", Json()), "/shard", "first_point");
  require_count(file, doc.value("shard", Json()), "/shard", "end_point");
  const auto points = doc.find("points");
  if (points == doc.end() || !points->is_array())
    throw InputError(file, "/points", "expected the shard's points (an array)");
  for (std::size_t i = 0; i < points->size(); ++i) {
    const std::string pointer = "/points/" + std::to_string(i);
    if (!(*points)[i].is_object()) throw InputError(file, pointer, "expected a point object, found " + describe_json((*points)[i]));
    check_point_figures(file, (*points)[i], pointer, "");
  }
}

}  // namespace tco
