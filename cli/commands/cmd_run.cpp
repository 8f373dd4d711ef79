// tcosim run SCENARIO --out REPORT.json [--md SUMMARY.md] [--html REPORT.html] [--csv DIR] [--xlsx R.xlsx] [--catalog DIR]
//   [--paths N] [--seed S] [--threads T] [--target-ci-usd X --path-ceiling N] [--checkpoint-dir D]
//   [--shard k/N|auto [--shard-count N]]
// Under `mpirun -n K` the Monte Carlo paths split over the K ranks (docs/cluster.md), and so do
// the "uncertain" inputs' paths and tornado.
// A scenario with "jobs" runs the discrete-event Monte Carlo replay (docs/des.md); one
// without keeps the deterministic hourly model as its headline and, with more than one path,
// adds the fluid model's Monte Carlo statistics (docs/model.md §10). A scenario with "uncertain" inputs also gets the
// "sensitivity" and "uncertainty" sections (--paths and --seed apply to them; docs/decisions.md).
#include <filesystem>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/options.hpp"
#include "cli/command_outputs.hpp"
#include "cli/report_pipeline.hpp"
#include "cli/root_first.hpp"
#include "cli/shard/sharded_command.hpp"
#include "core/parallel/index_shards.hpp"
#include "cli/terminal/terminal_answer.hpp"
#include "core/error.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel_for_index.hpp"
#include "core/progress/progress_bar.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "engine/montecarlo/path_worlds.hpp"
#include "engine/scenario_run.hpp"
#include "models/scenario.hpp"
#include "models/workload/workload.hpp"
#include "core/io/atomic_file.hpp"
#include "reports/json/json_report.hpp"
#include "reports/workbook/workbook.hpp"

namespace tco::cli {

struct RunOptions {
  std::string scenario;
  std::string out;
  HumanFormats formats;
  std::string xlsx;
  std::string catalog;
  bool quiet = false;
  std::optional<long> paths;
  std::optional<std::uint64_t> seed;
  int threads = 0;
  std::optional<double> target_ci_usd;
  long path_ceiling = 100000;
  std::string checkpoint_dir;
  TodayOptions today;
  ShardOptions shard;
};

// --checkpoint-dir: a folder (created when missing), never a file.
static void prepare_checkpoint_dir(const std::string& dir) {
  if (dir.empty()) return;
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw InputError("--checkpoint-dir", "", fmt::format("expected a folder for the checkpoints, found a file: {}", dir));
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("--checkpoint-dir", "", fmt::format("cannot create the folder {}: {}", dir, ec.message()));
}

static int run_run(const RunOptions& o, CommandContext& ctx) {
  OutputSet outputs(ctx.out);
  // Under mpirun, every rank computes its block of paths, and rank 0 alone reports and writes.
  const Scenario scenario = root_first([&] {
    outputs.add_file("--out", o.out, true);
    add_human_formats(outputs, o.formats);
    outputs.add_input("the scenario", o.scenario);
    outputs.add_file("--xlsx", o.xlsx);
    Scenario loaded = load_scenario(o.scenario, o.catalog);
    add_scenario_inputs(outputs, loaded);
    if (is_root_process()) prepare_checkpoint_dir(o.checkpoint_dir);
    return loaded;
  });
  // A shard cannot stop on the paths every shard computed, nor share checkpoints with the others.
  if (shard_role() == ShardRole::shard && (o.target_ci_usd || !o.checkpoint_dir.empty())) refuse_root_decision_in_shard();
  note_shard_run(o.seed.value_or(scenario.monte_carlo.seed), o.paths.value_or(scenario.monte_carlo.paths));
  if (!scenario.jobs && o.target_ci_usd)
    ctx.err << "tcosim: note: the scenario has no \"jobs\": the fluid Monte Carlo ignores --target-ci-usd (it "
               "runs --paths or the scenario's monte_carlo.paths)\n";
  ProgressBar bar(ctx.err, progress_wanted(ctx, o.quiet));
  const int threads = resolved_thread_count(o.threads);
  MonteCarloOptions mc_options = monte_carlo_options(o.paths, o.seed, threads);
  mc_options.progress = bar.counter();
  mc_options.split_over_processes = true;
  mc_options.checkpoint_dir = o.checkpoint_dir;
  const RunMetadata meta = with_today(RunMetadata{"run", threads, process_count()}, o.today);
  RunReport run;
  WorkbookPaths workbook_paths;  // per-path NPVs for the workbook's Paths sheet
  if (scenario.jobs) {
    mc_options.target_ci_usd = o.target_ci_usd;
    mc_options.path_ceiling = o.path_ceiling;
    int status = kExitOk;
    // A scenario of jobs alone draws its uncertain inputs per path in the replay.
    std::optional<UncertaintyInputs> drawn;
    if (draws_uncertain_in_replay(scenario))
      drawn = read_uncertainty_inputs(o.scenario, o.catalog, mc_options.paths, mc_options.seed);
    try {
      run = run_report(scenario, mc_options, meta, !o.xlsx.empty(), drawn ? &*drawn : nullptr);
    } catch (const TargetNotReached& e) {
      bar.stop();
      ctx.err << "tcosim: error: " << e.what() << "\n";
      status = kExitCheckFailed;
    }
    // Rank 0 alone knows whether the target was reached: the ranks that would go on to the
    // uncertainty analysis below learn it first.
    if (scenario.uncertain && !drawn) broadcast_root_status(status);
    if (status != kExitOk) return status;
  } else {
    run = run_report(scenario, mc_options, meta, !o.xlsx.empty());
    // The hourly model's demand, an input of the workbook's live formulas (its Hours sheet).
    if (!o.xlsx.empty() && is_root_process())
      workbook_paths.demand_gpus_by_hour = demand_gpus_by_hour(scenario.workload, scenario.horizon_hours(), scenario.calendar);
  }
  Json& report = run.report;
  workbook_paths.npv_usd_by_path = std::move(run.npv_by_path);
  const long paths = run.paths, from_checkpoints = run.paths_from_checkpoints;  // printed once the bar is gone
  // A scenario with uncertain inputs: sensitivity and breakevens under uncertainty (docs/decisions.md),
  // its paths and tornado split over the ranks too.
  if (scenario.uncertain && !draws_uncertain_in_replay(scenario))
    add_uncertainty_analysis(report, o.scenario, o.catalog, mc_options);
  if (!is_root_process()) return kExitOk;
  bar.stop();
  if (from_checkpoints > 0 && !o.quiet)
    ctx.err << fmt::format("tcosim: note: {} of {} paths read from the checkpoints in {}\n", from_checkpoints, paths,
                           o.checkpoint_dir);
  // Everything is computed before anything is written: bad input leaves no file behind.
  if (!o.out.empty()) outputs.stage(o.out, report_text(report));
  stage_human_formats(outputs, report, o.formats);
  if (!o.xlsx.empty()) write_workbook_atomically(report, workbook_paths, outputs.staging_path(o.xlsx));
  outputs.commit();
  // With --out -, the standard output holds the report only.
  const bool quiet = o.quiet || OutputSet::is_stdout(o.out);
  if (!quiet) ctx.out << terminal_answer(report, outputs.written_files());
  return 0;
}

void setup_run(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Evaluate every plan of a scenario hour by hour over its horizon and report costs (nominal and NPV), the "
      "breakdown by category, monthly cash flows, comparisons with the baseline (NPV saving, payback month, IRR), "
      "utilization and cloud-price breakevens, and warnings.");
  cmd->add_option("scenario", opts->scenario, "Scenario file (JSON; see docs/scenario.md)")->required();
  add_report_out_option(*cmd, opts->out);
  cmd->add_option("--md", opts->formats.md, "Also write a Markdown summary here (for a pull-request comment)");
  cmd->add_option("--html", opts->formats.html,
                  "Also write a self-contained HTML report here (inline SVG charts, no network, no JavaScript)");
  cmd->add_option("--csv", opts->formats.csv_dir, kCsvFolderHelp);
  cmd->add_option("--xlsx", opts->xlsx,
                  "Also write an Excel workbook here: inputs, monthly flows per plan with NPV and totals as formulas "
                  "of the discount rate, a summary and, with Monte Carlo paths, the NPV of every path (docs/report.md)");
  cmd->add_option("--catalog", opts->catalog,
                  "Pricing catalog folder, replacing the scenario's catalog_dir (default: ../pricing-data beside "
                  "the scenario)");
  add_quiet_flag(*cmd, opts->quiet);
  add_today_options(*cmd, opts->today);
  cmd->add_option("--paths", opts->paths,
                  "Monte Carlo paths of the discrete-event replay (scenarios with \"jobs\"), of the fluid model's "
                  "random inputs (scenarios without; more than 1 adds their statistics) and of the uncertain inputs "
                  "(scenarios with \"uncertain\"); default: the scenario's monte_carlo.paths")
      ->check(CLI::Range(1L, 100000000L));
  cmd->add_option("--seed", opts->seed, "Random seed (default: the scenario's monte_carlo.seed; 0 is an ordinary seed)");
  add_threads_option(*cmd, opts->threads);
  cmd->add_option("--target-ci-usd", opts->target_ci_usd,
                  "Run path batches until every comparison's 95% CI half-width of the NPV difference is below this "
                  "(USD), instead of a fixed --paths")
      ->check(CLI::PositiveNumber)
      ->excludes("--paths");
  cmd->add_option("--path-ceiling", opts->path_ceiling, "Most paths --target-ci-usd may run (default 100000)")
      ->check(CLI::Range(2L, 100000000L));
  cmd->add_option("--checkpoint-dir", opts->checkpoint_dir,
                  "Write each finished batch of 100 Monte Carlo paths (the replay's or the fluid model's) into "
                  "this folder (created when missing), and read the batches a run with the same scenario, inputs, seed and path options "
                  "already wrote there instead of computing them: a run stopped half-way continues where it stopped, "
                  "with the same report bytes (docs/cluster.md)");
  add_shard_options(*cmd, opts->shard);
  cmd->callback([opts, &ctx] {
    ctx.exit_code = run_maybe_sharded(opts->shard, "run", opts->scenario, opts->out, opts->quiet, ctx,
                                      [&] { return run_run(*opts, ctx); });
  });
}

}  // namespace tco::cli
