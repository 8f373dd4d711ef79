#include "engine/montecarlo/path_worlds.hpp"

#include <memory>

#include <fmt/format.h>

namespace tco {

bool draws_uncertain_in_replay(const Scenario& s) {
  return s.jobs.has_value() && s.uncertain.has_value() && s.workload.pointer.empty();
}

PathWorlds uncertain_path_worlds(const UncertaintyInputs& in) {
  PathWorlds w;
  const auto values = std::make_shared<const std::vector<std::vector<double>>>(
      draw_uncertain_values(*in.base.uncertain, in.paths, in.seed));
  const auto inputs = std::make_shared<const UncertaintyInputs>(in);
  w.scenario_of_path = [values, inputs](long path) {
    std::vector<double> column(values->size());
    for (std::size_t i = 0; i < column.size(); ++i) column[i] = (*values)[i][static_cast<std::size_t>(path)];
    return load_with_values(*inputs, column, fmt::format("Monte Carlo path {}", path));
  };
  for (const UncertainInput& input : in.base.uncertain->inputs)
    w.jobs_drawn = w.jobs_drawn || input.pointer.rfind("/jobs/", 0) == 0;
  return w;
}

}  // namespace tco
