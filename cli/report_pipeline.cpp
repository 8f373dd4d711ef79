#include "cli/report_pipeline.hpp"

#include "engine/scenario_run.hpp"

namespace tco::cli {

Json make_report(const Scenario& scenario, const MonteCarloOptions& options, const RunMetadata& meta) {
  if (scenario.jobs) return report_json(scenario, run_monte_carlo(scenario, options), meta);
  return report_json(scenario, run_deterministic(scenario), meta);
}

Json make_report(const std::string& scenario_path, const std::string& catalog_dir, const MonteCarloOptions& options,
                 const RunMetadata& meta) {
  return make_report(load_scenario(scenario_path, catalog_dir), options, meta);
}

}  // namespace tco::cli
