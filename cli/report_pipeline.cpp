#include "cli/report_pipeline.hpp"

#include "engine/scenario_run.hpp"
#include "models/scenario.hpp"

namespace tco::cli {

Json make_report(const std::string& scenario_path, const std::string& catalog_dir, const RunMetadata& meta) {
  const Scenario scenario = load_scenario(scenario_path, catalog_dir);
  const ScenarioRun run = run_deterministic(scenario);
  return report_json(scenario, run, meta);
}

}  // namespace tco::cli
