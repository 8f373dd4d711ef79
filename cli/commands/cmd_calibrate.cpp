// tcosim calibrate SCENARIO [--paths N] [--seed S] [--threads T] [--out CALIBRATION.json]
//   [--catalog DIR] [--quiet]
// Fits the hourly fluid model's on-prem and cloud packing efficiency and spot overhead factor to the
// discrete-event replay of the scenario's jobs (engine/decisions/calibration.hpp, docs/calibration.md),
// prints per plan the replay's NPV (mean and 95% CI half-width) against the fluid model's before
// and after calibration, and writes the fitted factors with a merge patch per plan.
#include <cmath>
#include <memory>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/figure_dates.hpp"
#include "cli/options.hpp"
#include "cli/root_first.hpp"
#include "cli/shard/sharded_command.hpp"
#include "core/parallel/process_group.hpp"
#include "cli/terminal/terminal_answer.hpp"
#include "core/parallel_for_index.hpp"
#include "core/progress/progress_bar.hpp"
#include "engine/decisions/calibration.hpp"
#include "core/error.hpp"
#include "models/scenario.hpp"
#include "core/io/finite_figures.hpp"
#include "cli/command_outputs.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

namespace {

struct CalibrateOptions {
  std::string scenario;
  std::string out;
  std::string catalog;
  CalibrationOptions fit;  // --paths, --seed, --threads
  bool quiet = false;
  TodayOptions today;
  ShardOptions shard;
};

std::string factor_cell(const FactorFit& f) {
  switch (f.status) {
    case FactorFit::Status::not_fitted: return "-";
    case FactorFit::Status::fitted: return fmt::format("{:.4f}", f.value);
    case FactorFit::Status::clamped_low:
    case FactorFit::Status::clamped_high: return fmt::format("{:.4f}*", f.value);
  }
  return "-";
}

// "+1.23% ±0.45%": the paired difference fluid - DES relative to the DES mean, and its 95% CI.
std::string relative_cell(const Summary& difference, double des_mean) {
  if (des_mean == 0.0) return "n/a";
  return fmt::format("{:+.2f}% ±{:.2f}%", 100.0 * difference.mean / std::abs(des_mean),
                     100.0 * (difference.ci95_high - difference.mean) / std::abs(des_mean));
}

std::string calibration_console(const CalibrationResult& r) {
  std::string out = fmt::format(
      "Fluid model vs discrete-event replay: {} paths, seed {}; demand {:.6g} GPU-hours per path\n"
      "  (NPV in USD; fluid - DES relative to the DES mean, paired by path, with its 95% CI)\n",
      r.paths, r.seed, r.demand_gpu_hours);
  out += fmt::format("  {:<24} {:>15} {:>12} {:>15} {:>15} {:>17} {:>17} {:>8} {:>8} {:>8}\n", "plan", "DES NPV",
                     "±95% CI", "fluid NPV", "calibrated", "before", "after", "packing", "cloud pk", "spot x");
  bool clamped = false;
  for (const auto& c : r.plans) {
    out += fmt::format("  {:<24} {:>15.0f} {:>12.0f} {:>15.0f} {:>15.0f} {:>17} {:>17} {:>8} {:>8} {:>8}\n", c.name,
                       c.des_npv_usd.mean, c.des_half_width_usd(), c.fluid_npv_before_usd, c.fluid_npv_after_usd,
                       relative_cell(c.difference_before_usd, c.des_npv_usd.mean),
                       relative_cell(c.difference_after_usd, c.des_npv_usd.mean), factor_cell(c.packing),
                       factor_cell(c.cloud_packing), factor_cell(c.spot_overhead));
    const std::pair<const FactorFit*, const char*> fits[] = {{&c.packing, "onprem packing_efficiency"},
                                                             {&c.cloud_packing, "cloud packing_efficiency"},
                                                             {&c.spot_overhead, "spot_overhead_factor"}};
    for (const auto& [f, name] : fits) {
      if (f->status == FactorFit::Status::clamped_low || f->status == FactorFit::Status::clamped_high) {
        clamped = true;
        out += fmt::format("    {}: {} clamped: {}\n", c.name, name, f->note);
      }
    }
  }
  if (clamped) out += "  * clamped to its bounds (see the notes above)\n";
  out += "  merge patches (into each plan object):\n";
  for (const auto& c : r.plans)
    if (!c.merge_patch.empty()) out += fmt::format("    {} {}: {}\n", c.pointer, c.name, c.merge_patch.dump());
  return out;
}

int run_calibrate(const CalibrateOptions& o, CommandContext& ctx) {
  OutputSet outputs(ctx.out);
  const std::string today = resolved_today(o.today.today);
  // Under mpirun, rank 0 checks the outputs and the scenario first; every rank replays its block
  // of paths, and rank 0 alone fits and writes.
  const Scenario scenario = root_first([&] {
    outputs.add_file("--out", o.out, true);
    outputs.add_input("the scenario", o.scenario);
    Scenario loaded = load_scenario(o.scenario, o.catalog);
    add_scenario_inputs(outputs, loaded);
    require_calibration_jobs(loaded);  // before any rank starts
    return loaded;
  });
  note_shard_run(o.fit.seed.value_or(scenario.monte_carlo.seed), o.fit.paths.value_or(scenario.monte_carlo.paths));
  ProgressBar bar(ctx.err, progress_wanted(ctx, o.quiet));
  CalibrationOptions fit = o.fit;
  fit.threads = resolved_thread_count(fit.threads);
  fit.progress = bar.counter();
  fit.split_over_processes = true;
  const CalibrationResult result = calibrate(scenario, fit);
  bar.stop();
  if (!is_root_process()) return kExitOk;
  // Everything is computed and checked before anything is written.
  Json calibration = calibration_json(scenario, result);
  // The dates of the figures the scenario uses, as a report records them (docs/cli.md, --today).
  const Json ages = scenario_figure_ages(scenario, today, o.today.max_age_days);
  calibration["pricing"] = {{"today", today},
                            {"max_age_days", o.today.max_age_days},
                            {"oldest_as_of", ages.at("pricing").at("oldest_as_of")}};
  calibration["warnings"] = ages.at("warnings");
  require_finite_figures(calibration, o.scenario);
  commit_and_answer(ctx.out, outputs, o.out, calibration.dump(2) + "\n", o.quiet,
                    [&] { return figure_age_lines(ages) + calibration_console(result); });
  return kExitOk;
}

}  // namespace

void setup_calibrate(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<CalibrateOptions>();
  opts->fit.threads = 0;  // all cores, as every command's --threads
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit the hourly fluid model to the discrete-event replay of the scenario's jobs: per plan, the on-prem packing "
      "efficiency (matching on-prem busy GPU-hours), the cloud packing efficiency (matching billed cloud GPU-hours per "
      "GPU-hour of cloud work) and the spot overhead factor (matching billed spot GPU-hours); "
      "prints DES vs fluid NPV before and after, and writes the factors with a merge patch per plan "
      "(docs/calibration.md).");
  cmd->add_option("scenario", opts->scenario, "Scenario file with a \"jobs\" section (JSON; docs/scenario.md)")
      ->required();
  cmd->add_option("--paths", opts->fit.paths,
                  "Monte Carlo paths of the replay (default: the scenario's monte_carlo.paths); the fluid demand is "
                  "the same paths' jobs, averaged")
      ->check(CLI::Range(1L, 100000000L));
  cmd->add_option("--seed", opts->fit.seed,
                  "Random seed (default: the scenario's monte_carlo.seed; 0 is an ordinary seed)");
  add_threads_option(*cmd, opts->fit.threads);
  cmd->add_option("--out,-o", opts->out, "Write the fitted factors here as JSON (\"-\": the standard output)");
  add_catalog_option(*cmd, opts->catalog);
  add_quiet_flag(*cmd, opts->quiet);
  add_today_options(*cmd, opts->today);
  add_shard_options(*cmd, opts->shard);
  cmd->callback([opts, &ctx] {
    ctx.exit_code =
        run_maybe_sharded(opts->shard, "calibrate", opts->scenario, opts->out, opts->quiet, ctx,
                          [&] { return run_calibrate(*opts, ctx); });
  });
}

}  // namespace tco::cli
