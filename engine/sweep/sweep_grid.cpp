#include "engine/sweep/sweep_grid.hpp"

#include <cmath>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/json_pointer.hpp"
#include "engine/sweep/sweep_size.hpp"

namespace tco {

namespace {

constexpr long kMaxValuesPerField = 1000000;

// 12 significant digits: what a person meant by from + i step.
double tidy(double value) { return std::strtod(fmt::format("{:.12g}", value).c_str(), nullptr); }

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

GridField parse_field(JsonObjectReader& r, const Json& scenario, const std::string& scenario_file,
                      const std::set<std::string>& integer_pointers) {
  GridField f;
  f.pointer = r.string("pointer");
  const std::string where = r.pointer_of("pointer");
  if (f.pointer.empty() || f.pointer.front() != '/')
    throw InputError(r.file(), where,
                     fmt::format("expected a JSON pointer such as \"/plans/1/onprem_nodes\", found \"{}\"", f.pointer));
  if (f.pointer == "/monte_carlo/seed" || f.pointer == "/monte_carlo/paths")
    throw InputError(r.file(), where,
                     fmt::format("\"{}\" cannot be swept: every grid point uses the sweep's --seed and --paths, so "
                                 "that their paths share random numbers",
                                 f.pointer));
  const Json* target = find_pointer(scenario, f.pointer);
  if (!target)
    throw InputError(r.file(), where,
                     fmt::format("\"{}\" does not exist in the scenario {}: a grid can only vary a field the scenario "
                                 "file writes (write its base value there first)",
                                 f.pointer, file_name(scenario_file)));
  if (!target->is_number())
    throw InputError(r.file(), where,
                     fmt::format("\"{}\" is not a numeric field of the scenario {}: found {}", f.pointer,
                                 file_name(scenario_file), describe_json(*target)));
  f.integer = integer_pointers.count(f.pointer) > 0;

  const bool has_values = r.has("values");
  const bool has_range = r.has("range");
  if (has_values == has_range)
    throw InputError(r.file(), r.pointer(),
                     fmt::format("expected either \"values\" (a list) or \"range\" ({{\"from\", \"to\", \"step\"}}) for "
                                 "\"{}\", found {}",
                                 f.pointer, has_values ? "both" : "neither"));
  if (has_values) {
    const Json& listed = r.value("values");
    if (listed.is_array() && listed.empty())
      throw InputError(r.file(), r.pointer_of("values"),
                       fmt::format("expected at least one value for \"{}\", found an empty list", f.pointer));
    f.values = r.numbers("values");
  } else {
    JsonObjectReader range = r.object("range");
    const double from = range.number("from");
    const double to = range.number("to");
    const double step = range.number("step");
    range.finish();
    if (!(step > 0.0))
      throw InputError(r.file(), range.pointer_of("step"),
                       fmt::format("expected a step > 0 for \"{}\", found {}", f.pointer, step));
    if (to < from)
      throw InputError(r.file(), r.pointer_of("range"),
                       fmt::format("expected a range with at least one value for \"{}\", found from {} to {} (empty)",
                                   f.pointer, from, to));
    const double count = std::floor((to - from) / step + 1e-9) + 1.0;
    if (count > kMaxValuesPerField)
      throw InputError(r.file(), r.pointer_of("range"),
                       fmt::format("expected at most {} values for \"{}\", found {:.0f}", kMaxValuesPerField,
                                   f.pointer, count));
    for (long i = 0; i < static_cast<long>(count); ++i) f.values.push_back(tidy(from + static_cast<double>(i) * step));
  }
  if (f.integer) {
    for (double v : f.values)
      // 2^53: beyond it a double no longer holds every integer (and the cast could overflow).
      if (std::nearbyint(v) != v || std::fabs(v) > 9007199254740992.0)
        throw InputError(r.file(), r.pointer(),
                         fmt::format("\"{}\" is an integer field of the scenario (a count), found the value {}",
                                     f.pointer, v));
  }
  r.finish();
  return f;
}

}  // namespace

long SweepGrid::points() const {
  long n = 1;
  for (const auto& f : fields) n *= static_cast<long>(f.values.size());
  return n;
}

std::vector<double> SweepGrid::point_values(long index) const {
  std::vector<double> out(fields.size());
  for (std::size_t k = fields.size(); k-- > 0;) {
    const long n = static_cast<long>(fields[k].values.size());
    out[k] = fields[k].values[index % n];
    index /= n;
  }
  return out;
}

namespace {

Json field_value(const GridField& f, double v) {
  return f.integer ? Json(static_cast<std::int64_t>(v)) : Json(v);
}

}  // namespace

Json SweepGrid::to_json() const {
  Json list = Json::array();
  for (const auto& f : fields) {
    Json values = Json::array();
    for (double v : f.values) values.push_back(field_value(f, v));
    list.push_back({{"pointer", f.pointer}, {"values", values}});
  }
  return {{"fields", list}, {"points", points()}};
}

Json SweepGrid::values_json(const std::vector<double>& values) const {
  Json out = Json::array();
  for (std::size_t k = 0; k < values.size(); ++k) out.push_back(field_value(fields[k], values[k]));
  return out;
}

SweepGrid parse_sweep_grid(const Json& grid, const std::string& grid_file, const Json& scenario,
                           const std::string& scenario_file, const std::set<std::string>& integer_pointers) {
  SweepGrid g;
  g.file = grid_file;
  JsonObjectReader r(grid, grid_file, "");
  r.allow("$schema");
  r.allow("description");
  const Json& fields = r.value("fields");
  if (!fields.is_array() || fields.empty()) r.fail("fields", "a non-empty list of fields to vary", &fields);
  std::set<std::string> seen;
  double points = 1.0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    JsonObjectReader fr(fields[i], grid_file, "/fields/" + std::to_string(i));
    GridField f = parse_field(fr, scenario, scenario_file, integer_pointers);
    if (!seen.insert(f.pointer).second)
      throw InputError(grid_file, fr.pointer_of("pointer"), fmt::format("\"{}\" is named twice", f.pointer));
    points *= static_cast<double>(f.values.size());
    if (points > static_cast<double>(kMaxSweepPoints))
      throw InputError(grid_file, "/fields",
                       fmt::format("the grid has more than {} points ({:.0f} with the fields up to /fields/{}); split "
                                   "it into several grids",
                                   kMaxSweepPoints, points, i));
    g.fields.push_back(std::move(f));
  }
  r.finish();
  return g;
}

SweepGrid read_sweep_grid(const std::string& grid_file, const Json& scenario, const std::string& scenario_file,
                          const std::set<std::string>& integer_pointers) {
  return parse_sweep_grid(read_json_file(grid_file), grid_file, scenario, scenario_file, integer_pointers);
}

Json grid_point_document(const SweepGrid& grid, const Json& scenario, long index) {
  Json doc = scenario;
  const std::vector<double> values = grid.point_values(index);
  for (std::size_t k = 0; k < grid.fields.size(); ++k) {
    Json& target = doc.at(Json::json_pointer(grid.fields[k].pointer));
    if (grid.fields[k].integer)
      target = static_cast<std::int64_t>(values[k]);
    else
      target = values[k];
  }
  return doc;
}

}  // namespace tco
