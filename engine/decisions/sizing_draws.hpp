// The `uncertain` section drawn in a sizing (issue #44): path p of the curve draws the
// scenario's uncertain inputs exactly as `tcosim run`'s uncertainty analysis draws its path p
// (draw_uncertain_values, engine/montecarlo/uncertain_paths.hpp: the same seed, source, paths and
// rank correlation), writes them into the scenario document, and evaluates every point on path p
// of the model's own random streams in that world. So a path's NPV at every N sees the same
// inputs and the same model draws: the curve stays paired, and its P90 and CVaR95 hold both
// sources of spread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/scenario.hpp"

namespace tco {

struct SizingDraws {
  const UncertainSpec* spec = nullptr;      // null: the scenario has no uncertain section
  std::vector<std::vector<double>> values;  // [input][path]

  bool drawn() const { return spec != nullptr; }
  // The document with path p's values written at the inputs' pointers.
  Json document(const Json& doc, long path) const;
  // "path p (pointer = value, ...)", for an error naming the world that was invalid.
  std::string describe(long path) const;
  // The source of randomness in words, for the report.
  std::string words() const;
};

SizingDraws sizing_draws(const Scenario& scenario, long paths, std::uint64_t seed);

}  // namespace tco
