// The grid of a sweep (docs/sweep.md): numeric scenario fields named by JSON pointer, each with
// a list of values or a range, and their cartesian product, first field slowest:
//   {"fields": [{"pointer": "/plans/1/onprem_nodes", "values": [0, 2, 4]},
//               {"pointer": "/onprem/power/tariff/usd_per_kwh",
//                "range": {"from": 0.08, "to": 0.16, "step": 0.02}}]}
//   range values: from + i step for i = 0, 1, ... while <= to (+1e-9 step), each rounded to 12
//   significant digits (0.08 + 3 x 0.02 is 0.14, not 0.14000000000000001)
//   point index i = ((i_0 n_1 + i_1) n_2 + i_2) ...: 3 x 5 values give points 0..14, point 6 =
//   (nodes 2, 0.10 USD/kWh).
// Each point's scenario is the scenario document with its values written in, then loaded by
// load_scenario_json: every point is validated as strictly as a scenario file.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

struct GridField {
  std::string pointer;
  std::vector<double> values;
  bool integer = false;  // the scenario reads the field as an integer (node counts): values are too
};

struct SweepGrid {
  std::string file;
  std::vector<GridField> fields;

  long points() const;
  // The values of point `index`, one per field.
  std::vector<double> point_values(long index) const;
  // The grid as the sweep's output records it: every field with its expanded values.
  Json to_json() const;
  // A point's values as JSON (integers for integer fields: 2, not 2.0).
  Json values_json(const std::vector<double>& values) const;
};

// Parses a grid document against the scenario document it varies. Throws InputError naming the
// grid file and the field's pointer: a pointer that does not exist in the scenario, a field that
// is not a number, an empty list or range, a step <= 0, a fractional value for an integer field.
// `integer_pointers` names the scenario's integer fields (core/io/integer_fields.hpp, recorded while loading
// it): how the scenario writes a value (`1` or `1.0`) does not decide whether it takes fractions.
SweepGrid parse_sweep_grid(const Json& grid, const std::string& grid_file, const Json& scenario,
                           const std::string& scenario_file, const std::set<std::string>& integer_pointers);
SweepGrid read_sweep_grid(const std::string& grid_file, const Json& scenario, const std::string& scenario_file,
                          const std::set<std::string>& integer_pointers);

// The scenario document of one grid point.
Json grid_point_document(const SweepGrid& grid, const Json& scenario, long index);

}  // namespace tco
