// tcosim sensitivity SCENARIO [--plan NAME] [--paths N] [--seed S] [--threads T]
//   [--out REPORT.json] [--catalog DIR] [--quiet]
// Which uncertain inputs move a plan's NPV saving vs the baseline: a tornado (each input at its
// low and high value, all else at base) and standardised regression coefficients over the Monte
// Carlo draws of the scenario's `uncertain` section, plus the breakevens under uncertainty. The
// JSON report is run's report with the "sensitivity" and "uncertainty" sections
// (docs/decisions.md); `tcosim run` adds the same sections to any scenario with `uncertain`.
// Under `mpirun -n K`, the paths and the tornado's evaluations split over the K ranks
// (docs/cluster.md).
#include <cmath>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/options.hpp"
#include "cli/report_pipeline.hpp"
#include "cli/root_first.hpp"
#include "cli/shard/sharded_command.hpp"
#include "cli/terminal/terminal_answer.hpp"
#include "core/parallel_for_index.hpp"
#include "core/progress/progress_bar.hpp"
#include "core/error.hpp"
#include "core/parallel/process_group.hpp"
#include "engine/montecarlo/path_worlds.hpp"
#include "cli/command_outputs.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

namespace {

struct SensitivityOptions {
  std::string scenario;
  std::string plan;
  std::string out;
  std::string catalog;
  std::optional<long> paths;
  std::optional<std::uint64_t> seed;
  int threads = 0;
  bool quiet = false;
  TodayOptions today;
  ShardOptions shard;
};

std::string sensitivity_console(const Json& report) {
  const Json& s = report.at("sensitivity");
  const Json& t = s.at("tornado");
  std::string out = fmt::format("NPV saving of \"{}\" vs \"{}\": {} at the base values\n", t.at("plan").get<std::string>(),
                                t.at("baseline").get<std::string>(), format_usd(t.at("base_saving_usd")));
  out += fmt::format("  tornado (largest swing first):\n  {:<28} {:>14} {:>14} {:>16} {:>16}\n", "input", "low", "high",
                     "saving at low", "saving at high");
  for (const auto& b : t.at("inputs"))
    out += fmt::format("  {:<28} {:>14.6g} {:>14.6g} {:>16} {:>16}\n", b.at("input").get<std::string>(),
                       b.at("low").get<double>(), b.at("high").get<double>(), format_usd(b.at("saving_at_low_usd")),
                       format_usd(b.at("saving_at_high_usd")));
  const Json& src = s.at("src");
  out += fmt::format("  standardised regression coefficients ({} paths; |SRC| below {:.3f} is noise):\n",
                     src.at("n").get<long>(), src.at("noise_level").is_null() ? 0.0 : src.at("noise_level").get<double>());
  for (const auto& c : src.at("inputs"))
    out += fmt::format("  {:<28} {:>8}\n", c.at("input").get<std::string>(),
                       c.at("src").is_null() ? std::string("n/a") : fmt::format("{:+.3f}", c.at("src").get<double>()));
  out += fmt::format("  R^2 = {}\n", src.at("r_squared").is_null() ? std::string("n/a")
                                                                    : fmt::format("{:.3f}", src.at("r_squared").get<double>()));
  const Json& u = report.at("uncertainty");
  for (const auto& p : u.at("payback"))
    out += fmt::format("  payback of \"{}\": P(within the horizon) = {:.3f}, P50 month {}\n", p.at("plan").get<std::string>(),
                       p.at("probability_within_horizon").get<double>(),
                       p.at("p50_month").is_null() ? std::string("never") : fmt::format("{:.1f}", p.at("p50_month").get<double>()));
  return out;
}

int run_sensitivity(const SensitivityOptions& o, CommandContext& ctx) {
  OutputSet outputs(ctx.out);
  // Under mpirun, rank 0 checks the outputs and the scenario first; then every rank runs its block
  // of the report's paths, of the uncertain inputs' paths and of the tornado, and rank 0 alone
  // computes the statistics and writes.
  const Scenario scenario = root_first([&] {
    outputs.add_file("--out", o.out, true);
    outputs.add_input("the scenario", o.scenario);
    Scenario loaded = load_scenario(o.scenario, o.catalog);
    add_scenario_inputs(outputs, loaded);
    if (!loaded.uncertain)
      throw InputError(o.scenario, "/uncertain",
                       "expected an \"uncertain\" section: the inputs to vary and their distributions (docs/scenario.md)");
    if (draws_uncertain_in_replay(loaded))
      throw InputError(o.scenario, "/uncertain",
                       "a scenario of jobs alone draws its uncertain inputs per path in the discrete-event replay: "
                       "`tcosim run` reports their spread; the tornado, regression and breakevens of `sensitivity` "
                       "evaluate the hourly fluid model, which needs an hourly \"workload\" section");
    return loaded;
  });
  note_shard_run(o.seed.value_or(scenario.monte_carlo.seed), o.paths.value_or(scenario.monte_carlo.paths));
  ProgressBar bar(ctx.err, progress_wanted(ctx, o.quiet));
  MonteCarloOptions mc = monte_carlo_options(o.paths, o.seed, resolved_thread_count(o.threads));
  mc.progress = bar.counter();
  mc.split_over_processes = true;
  Json report = make_report(scenario, mc, with_today(RunMetadata{"sensitivity", mc.threads, process_count()}, o.today));
  add_uncertainty_analysis(report, o.scenario, o.catalog, mc, o.plan);
  bar.stop();
  if (!is_root_process()) return kExitOk;
  commit_and_answer(ctx.out, outputs, o.out, report_text(report), o.quiet, [&] { return sensitivity_console(report); });
  return kExitOk;
}

}  // namespace

void setup_sensitivity(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<SensitivityOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sensitivity",
      "Which uncertain inputs matter: a tornado (each input of the scenario's \"uncertain\" section at its low and "
      "high value, all else at base: the NPV saving of a plan vs the baseline, sorted by swing), standardised "
      "regression coefficients of the saving on the Monte Carlo draws with R^2, and the breakevens under "
      "uncertainty (payback-month distribution, price and utilization breakevens); the JSON report is run's report "
      "plus \"sensitivity\" and \"uncertainty\" sections (docs/decisions.md).");
  cmd->add_option("scenario", opts->scenario, "Scenario file with an \"uncertain\" section (JSON; docs/scenario.md)")
      ->required();
  cmd->add_option("--plan", opts->plan,
                  "The plan whose saving vs the baseline is analysed (default: the non-baseline plan with the largest "
                  "NPV saving at the base values)");
  cmd->add_option("--paths", opts->paths,
                  "Monte Carlo paths: draws of the uncertain inputs (default: the scenario's monte_carlo.paths); the "
                  "SRC noise level is about 2/sqrt(paths)")
      ->check(CLI::Range(1L, 100000000L));
  cmd->add_option("--seed", opts->seed,
                  "Seed of the input draws (default: the scenario's monte_carlo.seed; 0 is an ordinary seed)");
  add_threads_option(*cmd, opts->threads);
  add_report_out_option(*cmd, opts->out);
  add_catalog_option(*cmd, opts->catalog);
  add_quiet_flag(*cmd, opts->quiet);
  add_today_options(*cmd, opts->today);
  add_shard_options(*cmd, opts->shard);
  cmd->callback([opts, &ctx] {
    ctx.exit_code = run_maybe_sharded(opts->shard, "sensitivity", opts->scenario, opts->out, opts->quiet, ctx,
                                      [&] { return run_sensitivity(*opts, ctx); });
  });
}

}  // namespace tco::cli
