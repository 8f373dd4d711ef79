// tcosim sweep SCENARIO --grid GRID --out SWEEP.json|- [--paths N] [--seed S] [--threads T]
//   [--backend auto|cpu|cuda] [--shard k/N] [--csv SWEEP.csv] [--resume] [--catalog DIR]
//   [--max-points N] [--yes]
// Evaluates every point of a grid of scenario fields on every Monte Carlo path with the hourly
// fluid model (docs/sweep.md) and writes per point the statistics of each plan's NPV and of its
// saving vs the baseline, and the best plan. Under `mpirun -n K`, each block's points split over
// the K ranks (docs/cluster.md).
#include <cstdio>
#include <map>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/figure_dates.hpp"
#include "cli/options.hpp"
#include "cli/terminal/terminal_answer.hpp"
#include "core/progress/progress_bar.hpp"
#include "core/error.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel_for_index.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

namespace {

struct SweepCliOptions {
  SweepOptions sweep;
  std::string backend = "auto";
  std::string shard;
  long paths = 0;
  std::uint64_t seed = 0;
  bool quiet = false;
  TodayOptions today;
};

void parse_shard(const std::string& text, SweepOptions& o) {
  int k = 0, n = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", &k, &n, &extra) != 2 || n < 1 || k < 1 || k > n)
    throw InputError("--shard", "", fmt::format("expected k/N with 1 <= k <= N (e.g. 2/8), found \"{}\"", text));
  o.shard_index = k;
  o.shard_count = n;
}

int run_sweep_command(SweepCliOptions& o, CLI::App& cmd, CommandContext& ctx) {
  SweepOptions& s = o.sweep;
  if (cmd.count("--paths")) s.paths = o.paths;
  if (cmd.count("--seed")) s.seed = o.seed;
  s.backend = backend_of(o.backend);
  if (!o.shard.empty()) parse_shard(o.shard, s);
  const std::string today = resolved_today(o.today.today);

  // Under mpirun, each block's points split over the ranks, and rank 0 alone writes (docs/cluster.md).
  s.split_over_processes = true;
  s.standard_output = &ctx.out;  // --out -
  // The estimate comes before any point is prepared (on stderr, as the bar: stdout is the summary).
  if (!o.quiet && is_root_process())
    s.estimated = [&ctx, &s](const SweepSize& size) {
      ctx.err << "sweep: estimate: " << sweep_size_words(size, resolved_thread_count(s.threads)) << "\n";
      ctx.err.flush();
    };
  ProgressBar bar(ctx.err, progress_wanted(ctx, o.quiet));
  const SweepRunSummary r = run_sweep(s, bar.counter());
  bar.stop();
  // The sweep document records no backend (docs/sweep.md): the probe's outcome goes to stderr, a
  // device that failed it whatever --quiet says.
  if (r.probe && is_root_process() && (!r.probe->passed || !o.quiet))
    ctx.err << parity_probe_console(*r.probe, "sweep");
  // With --out -, the standard output holds the document alone.
  if (o.quiet || !is_root_process() || OutputSet::is_stdout(s.out)) return kExitOk;

  if (r.already_complete) {
    ctx.out << fmt::format("sweep: {} is already complete (--resume); nothing to do\n", s.out);
  } else {
    const double rate = r.seconds > 0.0 ? r.path_hours / r.seconds : 0.0;
    ctx.out << fmt::format("sweep: {} points computed, {} resumed, {} paths, on {} in {:.1f} s ({:.3g} path-hours/s)\n",
                           r.points_computed, r.points_resumed, r.document.at("monte_carlo").at("paths").get<long>(),
                           to_string(r.backend), r.seconds, rate);
  }
  // The base scenario's figures and their ages (the sweep's document records none: docs/cli.md).
  ctx.out << figure_age_lines(
      scenario_figure_ages(load_scenario(s.scenario_file, s.catalog_dir), today, o.today.max_age_days));
  std::map<std::string, long> best;
  for (const auto& p : r.document.at("points")) ++best[p.at("best_plan").get<std::string>()];
  for (const auto& name : r.document.at("plans"))
    if (best.count(name.get<std::string>()))
      ctx.out << fmt::format("  best plan at {} point(s): {}\n", best[name.get<std::string>()], name.get<std::string>());
  ctx.out << files_written_lines(s.csv.empty() ? std::vector<std::string>{s.out} : std::vector<std::string>{s.out, s.csv});
  return kExitOk;
}

}  // namespace

void setup_sweep(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<SweepCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Evaluate every point of a grid of scenario fields (named by JSON pointer) on every Monte Carlo path with the "
      "hourly fluid model, and write per point the mean, standard error and P5/P50/P95 of each plan's NPV and of its "
      "saving vs the baseline, and the best plan (docs/sweep.md).");
  cmd->add_option("scenario", opts->sweep.scenario_file, "Scenario file (JSON; see docs/scenario.md)")->required();
  cmd->add_option("--grid", opts->sweep.grid_file, "Grid file: the fields to vary and their values (docs/sweep.md)")
      ->required();
  cmd->add_option("--out,-o", opts->sweep.out,
                  "Write the sweep here (atomically; \"-\": the standard output, then without --resume or --shard; "
                  "with --shard, this shard's part for tcosim merge)")
      ->required();
  cmd->add_option("--csv", opts->sweep.csv, "Also write one CSV row per point and plan here");
  cmd->add_option("--paths", opts->paths, "Monte Carlo paths per point (default: the scenario's monte_carlo.paths)")
      ->check(CLI::Range(1L, 100000000L));
  cmd->add_option("--seed", opts->seed, "Seed of the random streams (default: the scenario's monte_carlo.seed)");
  add_threads_option(*cmd, opts->sweep.threads);
  add_backend_option(*cmd, opts->backend);
  cmd->add_option("--shard", opts->shard,
                  "Evaluate only shard k of N (k/N, 1-based: contiguous blocks of grid points); merge the shards with "
                  "tcosim merge");
  cmd->add_flag("--resume", opts->sweep.resume,
                "Keep the point blocks an interrupted run already wrote beside --out (OUT.parts/) and compute the rest");
  cmd->add_option("--max-points", opts->sweep.max_points,
                  fmt::format("Refuse (exit 2) a sweep of more points than this, after printing its estimate, "
                              "unless --yes (default {})",
                              kDefaultMaxSweepPoints))
      ->check(CLI::Range(1L, kMaxSweepPoints));
  cmd->add_flag("--yes", opts->sweep.yes, "Run a sweep of more points than --max-points");
  cmd->add_option("--block-points", opts->sweep.block_points,
                  "Points per resumable block (default: about 8e9 path-hours per block)")
      ->check(CLI::Range(1L, 1000000000L));
  add_catalog_option(*cmd, opts->sweep.catalog_dir);
  add_quiet_flag(*cmd, opts->quiet);
  add_today_options(*cmd, opts->today);
  cmd->callback([opts, cmd, &ctx] { ctx.exit_code = run_sweep_command(*opts, *cmd, ctx); });
}

}  // namespace tco::cli
