// The JSON report (schema reports/report.schema.json, documented in docs/report.md). Its
// "run" block holds what may differ between runs of the same scenario and seed (threads,
// backend); everything else is a pure function of the scenario, the catalog and the seed.
#pragma once

#include <string>

#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "core/io/json_reader.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "engine/scenario_run.hpp"
#include "models/scenario.hpp"

namespace tco {

inline constexpr const char* kReportSchemaVersion = "tcosim.report/1";

struct RunMetadata {
  std::string command = "run";
  int threads = 1;
  int ranks = 1;  // MPI processes (docs/cluster.md); written only when more than one
  // With more than one rank, what the root gathered, its seconds waiting for the other ranks'
  // blocks and then gathering and computing the statistics (the replay's Monte Carlo; 0: not
  // measured, not written).
  std::size_t gathered_bytes = 0;
  double root_wait_for_ranks_s = 0.0;
  double root_gather_and_statistics_s = 0.0;
  // The day the figures' ages are taken on ("YYYY-MM-DD"; `--today`, default the system date):
  // recorded in the report's "pricing" block with a warning per stale figure (models/catalog/
  // figure_age.hpp). Empty: no date checks, no "today" in the report.
  std::string today = "";
  int max_age_days = 365;
};

Json report_json(const Scenario& scenario, const ScenarioRun& run, const RunMetadata& meta);

// The report of a Monte Carlo discrete-event run: the keys above from the mean path, and a
// "monte_carlo" block with per-plan and per-comparison statistics (docs/des.md).
Json report_json(const Scenario& scenario, const MonteCarloRun& mc, const RunMetadata& meta);

// A deterministic report's "monte_carlo" block replaced by the fluid Monte Carlo's statistics
// (mode "fluid"; docs/model.md §10). The headline figures stay the deterministic ones.
void add_fluid_monte_carlo(Json& report, const FluidMonteCarloRun& mc);

// The report as text: 2-space indentation, keys in a fixed order, a final newline. Throws
// InputError naming the report's scenario file when a figure is not finite (finite_figures.hpp).
std::string report_text(const Json& report);

}  // namespace tco
