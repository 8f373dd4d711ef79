// tcosim sweep SCENARIO --grid GRID --out SWEEP.json [--paths N] [--seed S] [--threads T]
//   [--backend auto|cpu|cuda] [--shard k/N] [--csv SWEEP.csv] [--resume] [--catalog DIR]
// Evaluates every point of a grid of scenario fields on every Monte Carlo path with the hourly
// fluid model (docs/sweep.md) and writes per point the statistics of each plan's NPV and of its
// saving vs the baseline, and the best plan.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "core/io/atomic_file.hpp"

namespace tco::cli {

namespace {

struct SweepCliOptions {
  SweepOptions sweep;
  std::string backend = "auto";
  std::string shard;
  long paths = 0;
  std::uint64_t seed = 0;
  bool quiet = false;
};

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

// A one-line progress bar with rate and ETA, redrawn at most five times a second.
class ProgressBar {
 public:
  explicit ProgressBar(std::ostream& err) : err_(err), started_(std::chrono::steady_clock::now()) {}

  void update(const SweepProgressInfo& p) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - started_).count();
    const bool finished = p.points_done >= p.points_total;
    if (!finished && drawn_ && std::chrono::duration<double>(now - last_).count() < 0.2) return;
    last_ = now;
    drawn_ = true;
    const double fraction = p.path_hours_total > 0.0 ? p.path_hours_done / p.path_hours_total : 1.0;
    const int width = 30;
    const int filled = static_cast<int>(std::min(1.0, fraction) * width);
    const double rate = elapsed > 0.0 ? p.path_hours_done / elapsed : 0.0;
    const double eta = rate > 0.0 ? (p.path_hours_total - p.path_hours_done) / rate : NAN;
    err_ << fmt::format("\r[{}{}] {:5.1f}%  {}/{} points  {:.2e} path-hours/s  ETA {}   ", std::string(filled, '#'),
                        std::string(width - filled, '-'), 100.0 * std::min(1.0, fraction), p.points_done,
                        p.points_total, rate, duration_text(eta))
         << std::flush;
  }

  void finish() {
    if (drawn_) err_ << "\n" << std::flush;
  }

 private:
  std::ostream& err_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_;
  bool drawn_ = false;
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
  s.backend = o.backend == "cpu" ? SweepBackend::cpu : o.backend == "cuda" ? SweepBackend::cuda : SweepBackend::automatic;
  if (!o.shard.empty()) parse_shard(o.shard, s);

  // The bar goes to a terminal only: never into a log file or a test's captured stream.
  const bool show_bar = !o.quiet && &ctx.err == &std::cerr && isatty(STDERR_FILENO);
  ProgressBar bar(ctx.err);
  SweepProgressDisplay display;
  if (show_bar) display = [&bar](const SweepProgressInfo& p) { bar.update(p); };
  SweepRunSummary r;
  try {
    r = run_sweep(s, display);
  } catch (...) {
    bar.finish();
    throw;
  }
  bar.finish();
  if (o.quiet) return kExitOk;

  if (r.already_complete) {
    ctx.out << fmt::format("sweep: {} is already complete (--resume); nothing to do\n", s.out);
  } else {
    const double rate = r.seconds > 0.0 ? r.path_hours / r.seconds : 0.0;
    ctx.out << fmt::format("sweep: {} points computed, {} resumed, {} paths, on {} in {:.1f} s ({:.3g} path-hours/s)\n",
                           r.points_computed, r.points_resumed, r.document.at("monte_carlo").at("paths").get<long>(),
                           to_string(r.backend), r.seconds, rate);
  }
  std::map<std::string, long> best;
  for (const auto& p : r.document.at("points")) ++best[p.at("best_plan").get<std::string>()];
  for (const auto& name : r.document.at("plans"))
    if (best.count(name.get<std::string>()))
      ctx.out << fmt::format("  best plan at {} point(s): {}\n", best[name.get<std::string>()], name.get<std::string>());
  ctx.out << "wrote: " << s.out << (s.csv.empty() ? "" : ", " + s.csv) << "\n";
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
                  "Write the sweep here (atomically; with --shard, this shard's part for tcosim merge)")
      ->required();
  cmd->add_option("--csv", opts->sweep.csv, "Also write one CSV row per point and plan here");
  cmd->add_option("--paths", opts->paths, "Monte Carlo paths per point (default: the scenario's monte_carlo.paths)")
      ->check(CLI::Range(1L, 100000000L));
  cmd->add_option("--seed", opts->seed, "Seed of the random streams (default: the scenario's monte_carlo.seed)");
  cmd->add_option("--threads", opts->sweep.threads, "CPU threads (default: all cores); the numbers do not depend on it")
      ->check(CLI::Range(0, 4096));
  cmd->add_option("--backend", opts->backend,
                  "auto (CUDA when built and a device is visible, else CPU), cpu, or cuda (an error without a device)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--shard", opts->shard,
                  "Evaluate only shard k of N (k/N, 1-based: contiguous blocks of grid points); merge the shards with "
                  "tcosim merge");
  cmd->add_flag("--resume", opts->sweep.resume,
                "Keep the point blocks an interrupted run already wrote beside --out (OUT.parts/) and compute the rest");
  cmd->add_option("--block-points", opts->sweep.block_points,
                  "Points per resumable block (default: about 8e9 path-hours per block)")
      ->check(CLI::Range(1L, 1000000000L));
  cmd->add_option("--catalog", opts->sweep.catalog_dir,
                  "Pricing catalog folder, replacing the scenario's catalog_dir");
  cmd->add_flag("--quiet,-q", opts->quiet, "Print nothing on success, and no progress bar");
  cmd->callback([opts, cmd, &ctx] { ctx.exit_code = run_sweep_command(*opts, *cmd, ctx); });
}

}  // namespace tco::cli
