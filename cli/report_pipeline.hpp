// The report of one scenario, as `tcosim run` makes it: load (resolving the catalog), run,
// render; options.progress, when set, counts the paths of every stage. A scenario with "jobs"
// runs the discrete-event Monte Carlo replay (paths and seed from the options, else the
// scenario's monte_carlo block); one without, the deterministic hourly model. A scenario with an
// "uncertain" section beside an hourly workload also gets its "sensitivity" and "uncertainty"
// sections; a scenario of jobs alone draws its uncertain inputs per path in the replay instead
// (engine/montecarlo/path_worlds.hpp, docs/decisions.md). `tcosim regress` makes its reports through here
// so they match `run`'s.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"
#include "models/scenario.hpp"
#include "reports/json/json_report.hpp"

namespace tco::cli {

// Throws TargetNotReached when options.target_ci_usd is not reached within the ceiling. Without
// the scenario's document, no uncertainty analysis. npv_by_path, when given, receives the
// per-path NPVs of a Monte Carlo run ([plan][path]; left empty for a deterministic run).
// options.checkpoint_dir applies to the fluid Monte Carlo too; paths_from_checkpoints, when given,
// receives how many of its paths were read from there.
Json make_report(const Scenario& scenario, const MonteCarloOptions& options, const RunMetadata& meta,
                 std::vector<std::vector<double>>* npv_by_path = nullptr, long* paths_from_checkpoints = nullptr);

// The report `tcosim run` makes of a loaded scenario, before its uncertainty analysis: the
// replay's Monte Carlo report (a scenario with "jobs"; TargetNotReached as run_monte_carlo), else
// make_report's. npv_by_path ([plan][path]) is kept only when asked for. Split over MPI ranks, the
// other ranks return an empty report. The CLI and the Python module (python/) both call it.
// `drawn`: the scenario's document and uncertain inputs when draws_uncertain_in_replay(scenario);
// path p then replays in path p's drawn world, and the report's monte_carlo block names the inputs.
struct RunReport {
  Json report;
  std::vector<std::vector<double>> npv_by_path;
  long paths = 0;                   // the Monte Carlo paths reported (0: none)
  long paths_from_checkpoints = 0;  // of those, read from options.checkpoint_dir
};
RunReport run_report(const Scenario& scenario, const MonteCarloOptions& options, const RunMetadata& meta,
                     bool keep_npv_by_path, const UncertaintyInputs* drawn = nullptr);

// Loads the scenario first (InputError / ModelError like load_scenario); catalog_dir empty:
// the scenario's own.
Json make_report(const std::string& scenario_path, const std::string& catalog_dir, const MonteCarloOptions& options,
                 const RunMetadata& meta);

// Runs the analysis of the scenario's `uncertain` section (paths, seed and threads from the
// options; `plan` empty: the non-baseline plan with the largest saving at the base values) and
// adds the "sensitivity" and "uncertainty" sections to the report. InputError when the scenario
// has no `uncertain` section, or is a scenario of jobs alone (its inputs are drawn in the replay's
// paths, run_report's `drawn`). With options.split_over_processes, every rank must call it: each
// runs its share of the paths and of the tornado, and rank 0 alone adds the sections.
void add_uncertainty_analysis(Json& report, const std::string& scenario_path, const std::string& catalog_dir,
                              const MonteCarloOptions& options, const std::string& plan = "");
// The same from the loaded document (the Python module's scenario given as a dict).
void add_uncertainty_analysis(Json& report, const UncertaintyInputs& in, const MonteCarloOptions& options,
                              const std::string& plan = "");

}  // namespace tco::cli
