#include "engine/decisions/sizing_draws.hpp"

#include <fmt/format.h>

#include "engine/montecarlo/uncertain_paths.hpp"

namespace tco {

SizingDraws sizing_draws(const Scenario& s, long paths, std::uint64_t seed) {
  SizingDraws d;
  if (!s.uncertain) return d;
  d.spec = &*s.uncertain;
  d.values = draw_uncertain_values(*s.uncertain, paths, seed);
  return d;
}

Json SizingDraws::document(const Json& doc, long path) const {
  std::vector<double> column(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) column[i] = values[i][static_cast<std::size_t>(path)];
  return document_with_values(doc, *spec, column);
}

std::string SizingDraws::describe(long path) const {
  std::string out = fmt::format("path {} (", path);
  for (std::size_t i = 0; i < values.size(); ++i)
    out += fmt::format("{}{} = {}", i ? ", " : "", spec->inputs[i].pointer, values[i][static_cast<std::size_t>(path)]);
  return out + ")";
}

std::string SizingDraws::words() const {
  return fmt::format("the scenario's uncertain section ({} input{}{}), drawn per path as tcosim run's uncertainty "
                     "analysis draws them",
                     values.size(), values.size() == 1 ? "" : "s",
                     spec->rank_correlation.empty() ? "" : ", with its rank correlation");
}

}  // namespace tco
