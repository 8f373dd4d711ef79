#include "cli/report_pipeline.hpp"

#include <optional>

#include "core/error.hpp"
#include "core/parallel/process_group.hpp"

#include "engine/scenario_run.hpp"
#include "engine/decisions/uncertainty_analysis.hpp"
#include "engine/montecarlo/path_worlds.hpp"
#include "reports/json/decisions_json.hpp"
#include "reports/json/next_generation_json.hpp"

namespace tco::cli {

Json make_report(const Scenario& scenario, const MonteCarloOptions& options, const RunMetadata& meta,
                 std::vector<std::vector<double>>* npv_by_path, long* paths_from_checkpoints) {
  // Split over MPI ranks, the other ranks compute their paths and return no report.
  const bool reporting = !options.split_over_processes || is_root_process();
  if (scenario.jobs) {
    const MonteCarloRun mc = run_monte_carlo(scenario, options);
    if (!reporting) return Json();
    if (npv_by_path) *npv_by_path = mc.npv_by_path;
    Json report = report_json(scenario, mc, meta);
    add_arrival_over_paths(report, scenario, mc.paths, mc.seed);
    return report;
  }
  // More than one path: the fluid model's random inputs drawn per path (docs/model.md §10).
  const long paths = options.paths.value_or(scenario.monte_carlo.paths);
  std::optional<FluidMonteCarloRun> fluid;
  if (paths > 1)
    fluid = run_fluid_monte_carlo(scenario, paths, options.seed.value_or(scenario.monte_carlo.seed), options.threads,
                                  options.progress, options.split_over_processes, options.checkpoint_dir);
  if (fluid && paths_from_checkpoints) *paths_from_checkpoints = fluid->paths_from_checkpoints;
  if (!reporting) return Json();
  Json report = report_json(scenario, run_deterministic(scenario), meta);
  if (fluid) {
    add_fluid_monte_carlo(report, *fluid);
    add_arrival_over_paths(report, scenario, fluid->paths, fluid->seed);
    if (npv_by_path) *npv_by_path = fluid->npv_by_path;
  }
  return report;
}

RunReport run_report(const Scenario& scenario, const MonteCarloOptions& options, const RunMetadata& meta,
                     bool keep_npv_by_path, const UncertaintyInputs* drawn) {
  RunReport out;
  if (scenario.jobs) {
    PathWorlds worlds;
    if (drawn) {
      // Drawn over the paths the run may take: the rank correlation reorders the sample it is given.
      UncertaintyInputs over_paths = *drawn;
      over_paths.paths = options.target_ci_usd ? options.path_ceiling : options.paths.value_or(scenario.monte_carlo.paths);
      worlds = uncertain_path_worlds(over_paths);
    }
    const MonteCarloRun mc = run_monte_carlo(scenario, options, worlds);
    if (options.split_over_processes && !is_root_process()) return out;
    RunMetadata measured = meta;
    measured.gathered_bytes = mc.gathered_bytes;
    measured.root_wait_for_ranks_s = mc.root_wait_for_ranks_s;
    measured.root_gather_and_statistics_s = mc.root_gather_and_statistics_s;
    out.report = report_json(scenario, mc, measured);
    if (drawn) {
      Json& inputs = out.report["monte_carlo"]["uncertain_inputs"] = to_json(*drawn->base.uncertain);
      inputs["drawn"] = "per path, each path replayed in its own world, with the replay's own random inputs";
    }
    if (keep_npv_by_path) out.npv_by_path = mc.npv_by_path;
    out.paths = mc.paths;
    out.paths_from_checkpoints = mc.paths_from_checkpoints;
    return out;
  }
  out.report = make_report(scenario, options, meta, keep_npv_by_path ? &out.npv_by_path : nullptr,
                           &out.paths_from_checkpoints);
  if (out.report.is_object() && out.report.at("monte_carlo").contains("paths"))
    out.paths = out.report.at("monte_carlo").at("paths").get<long>();
  return out;
}

Json make_report(const std::string& scenario_path, const std::string& catalog_dir, const MonteCarloOptions& options,
                 const RunMetadata& meta) {
  const Scenario scenario = load_scenario(scenario_path, catalog_dir);
  if (draws_uncertain_in_replay(scenario)) {
    const UncertaintyInputs drawn = read_uncertainty_inputs(scenario_path, catalog_dir, options.paths, options.seed);
    return run_report(scenario, options, meta, false, &drawn).report;
  }
  Json report = make_report(scenario, options, meta);
  if (scenario.uncertain) add_uncertainty_analysis(report, scenario_path, catalog_dir, options);
  return report;
}

void add_uncertainty_analysis(Json& report, const std::string& scenario_path, const std::string& catalog_dir,
                              const MonteCarloOptions& options, const std::string& plan) {
  add_uncertainty_analysis(report, read_uncertainty_inputs(scenario_path, catalog_dir, options.paths, options.seed),
                           options, plan);
}

void add_uncertainty_analysis(Json& report, const UncertaintyInputs& in, const MonteCarloOptions& options,
                              const std::string& plan) {
  if (draws_uncertain_in_replay(in.base))
    throw InputError(in.file, "/uncertain",
                     "a scenario of jobs alone draws its uncertain inputs per path in the discrete-event replay "
                     "(tcosim run, optimize); the tornado, regression and breakevens under uncertainty evaluate the "
                     "hourly fluid model, which needs an hourly \"workload\" section");
  const UncertaintyAnalysis analysis =
      analyse_uncertainty(in, plan, options.threads, options.progress, options.split_over_processes);
  if (!options.split_over_processes || is_root_process()) add_uncertainty_sections(report, analysis);
}

}  // namespace tco::cli
