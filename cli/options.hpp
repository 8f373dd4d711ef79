// What several commands declare or do alike, written once so it reads the same in each: the
// options of a Monte Carlo over a scenario's paths, and writing a report then saying where.
// The setup_x functions stay alike in shape (a subcommand, its description, its options, a
// callback): that is CLI11's idiom, and each option's help is its own command's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cli/app.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "reports/json/json_report.hpp"

namespace tco::cli {

// The options of a Monte Carlo over the scenario's paths as the command line gives them (unset:
// the scenario's monte_carlo section).
MonteCarloOptions monte_carlo_options(const std::optional<long>& paths, const std::optional<std::uint64_t>& seed,
                                      int threads);

// --threads: 0 to 4096, 0 (the default) meaning all cores; every command's numbers are the same
// on any count. Commands pass resolved_thread_count(threads) (core/parallel_for_index.hpp) on.
void add_threads_option(CLI::App& cmd, int& threads);
// --backend: auto (the default: CUDA when built and a device is visible, else CPU), cpu or cuda.
void add_backend_option(CLI::App& cmd, std::string& backend);
SweepBackend backend_of(const std::string& backend);
// --catalog: a pricing catalog folder in place of the scenario's catalog_dir.
void add_catalog_option(CLI::App& cmd, std::string& catalog);
// --today (default: the system date, UTC) and --max-age-days (default 365), as `validate` has
// them: the day the figures' ages are taken on. A report records both and warns per figure used
// that is older (models/catalog/figure_age.hpp; docs/cli.md).
struct TodayOptions {
  std::string today;  // "" until given: resolved_today() then reads the clock
  int max_age_days = 365;
};
void add_today_options(CLI::App& cmd, TodayOptions& options);
// The --today given (checked: InputError at --today for anything but YYYY-MM-DD), else the
// system date.
std::string resolved_today(const std::string& today);
// A report's metadata with the resolved --today and --max-age-days.
RunMetadata with_today(RunMetadata meta, const TodayOptions& options);
// --quiet, -q: print nothing on success, and no progress bar.
void add_quiet_flag(CLI::App& cmd, bool& quiet);
// --out, -o: where the command writes its JSON report ("-": the standard output).
void add_report_out_option(CLI::App& cmd, std::string& out);
// The progress bar is drawn only on the process's own standard error when it is a terminal and
// the command is not --quiet (never into a test's captured stream or a log file).
bool progress_wanted(const CommandContext& ctx, bool quiet);

}  // namespace tco::cli
