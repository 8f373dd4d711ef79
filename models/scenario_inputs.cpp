#include "models/scenario_inputs.hpp"

#include <variant>

namespace tco {

void add_scenario_inputs(OutputSet& outputs, const Scenario& scenario) {
  outputs.add_input("the scenario", scenario.file);
  outputs.add_input_folder("a catalog file", scenario.catalog_dir);
  for (const DemandProfile& profile : scenario.workload.profiles)
    if (const auto* series = std::get_if<SeriesProfile>(&profile))
      outputs.add_input("the demand series", series->resolved_path);
  if (scenario.jobs) outputs.add_input("the job trace", scenario.jobs->trace_resolved_path);
  for (const Plan& plan : scenario.plans)
    if (plan.cloud) outputs.add_input("the spot trace", plan.cloud->spot.trace_resolved_path);
}

}  // namespace tco
