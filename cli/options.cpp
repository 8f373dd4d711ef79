#include "cli/options.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/progress/progress_bar.hpp"

namespace tco::cli {

MonteCarloOptions monte_carlo_options(const std::optional<long>& paths, const std::optional<std::uint64_t>& seed,
                                      int threads) {
  MonteCarloOptions mc;
  mc.paths = paths;
  mc.seed = seed;
  mc.threads = threads;
  return mc;
}

void add_threads_option(CLI::App& cmd, int& threads) {
  cmd.add_option("--threads", threads, "CPU threads (default 0: all cores); the numbers do not depend on it")
      ->check(CLI::Range(0, 4096));
}

void add_backend_option(CLI::App& cmd, std::string& backend) {
  cmd.add_option("--backend", backend,
                 "Fluid-model backend: auto (default: CUDA when built, a device is visible and it passes the parity "
                 "probe against the CPU, else CPU), cpu, or cuda (an error without a device, exit 3 when it fails the "
                 "probe); CPU and CUDA agree to 1e-9 relative (docs/sweep.md)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
}

SweepBackend backend_of(const std::string& backend) {
  return backend == "cpu" ? SweepBackend::cpu : backend == "cuda" ? SweepBackend::cuda : SweepBackend::automatic;
}

void add_catalog_option(CLI::App& cmd, std::string& catalog) {
  cmd.add_option("--catalog", catalog, "Pricing catalog folder, replacing the scenario's catalog_dir");
}

void add_today_options(CLI::App& cmd, TodayOptions& options) {
  cmd.add_option("--today", options.today,
                 "Today's date, YYYY-MM-DD (default: the system date): every figure the report uses that is dated "
                 "more than --max-age-days before it is a warning, and the report records it");
  cmd.add_option("--max-age-days", options.max_age_days,
                 "With --today: warn when a figure used is more than this many days old (default 365)")
      ->check(CLI::Range(0, 1000000));
}

std::string resolved_today(const std::string& today) {
  if (!today.empty()) {
    Date date;
    if (!parse_date(today, date))
      throw InputError("", "--today", "expected a date YYYY-MM-DD, found \"" + today + "\"");
    return today;
  }
  const std::chrono::year_month_day now{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  return format_date(Date{static_cast<int>(now.year()), static_cast<int>(static_cast<unsigned>(now.month())),
                          static_cast<int>(static_cast<unsigned>(now.day()))});
}

RunMetadata with_today(RunMetadata meta, const TodayOptions& options) {
  meta.today = resolved_today(options.today);
  meta.max_age_days = options.max_age_days;
  return meta;
}

void add_quiet_flag(CLI::App& cmd, bool& quiet) {
  cmd.add_flag("--quiet,-q", quiet, "Print nothing on success, and no progress bar");
}

void add_report_out_option(CLI::App& cmd, std::string& out) {
  cmd.add_option("--out,-o", out, "Write the JSON report here (\"-\": the standard output; see docs/report.md)");
}

bool progress_wanted(const CommandContext& ctx, bool quiet) {
  return !quiet && &ctx.err == &std::cerr && stderr_is_terminal();
}

}  // namespace tco::cli
