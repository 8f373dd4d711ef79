#include "cli/options.hpp"

#include <CLI/CLI.hpp>

#include "core/io/atomic_file.hpp"

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
  cmd.add_option("--threads", threads, "Threads over the paths (default 1); the numbers do not depend on it")
      ->check(CLI::Range(1, 4096));
}

void add_catalog_option(CLI::App& cmd, std::string& catalog) {
  cmd.add_option("--catalog", catalog, "Pricing catalog folder, replacing the scenario's catalog_dir");
}

void add_quiet_flag(CLI::App& cmd, bool& quiet) { cmd.add_flag("--quiet,-q", quiet, "Print nothing on success"); }

}  // namespace tco::cli
