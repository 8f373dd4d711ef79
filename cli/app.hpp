// The `tcosim` program. Each subcommand lives in its own file as a setup_x / run_x pair
// (setup_x declares the options on a CLI11 subcommand; run_x does the work and returns the
// exit code), so tests can run any command in-process through run_main.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace CLI {
class App;
}

namespace tco::cli {

struct CommandContext {
  std::ostream& out;
  std::ostream& err;
  int exit_code = 0;
};

// Runs the program with argv as given; returns the exit code (SPEC §2: 0 ok, 1 a
// regression or check failed, 2 bad input or usage, 3 internal error). A write to `out` that
// failed (a full disk, a closed pipe) makes it at least 2, with a message on `err`.
int run_main(int argc, char** argv, std::ostream& out, std::ostream& err);
// The same with the arguments as strings (argv[0] is added).
int run_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// The same, but an InputError or ModelError propagates instead of becoming a message on `err`
// and exit 2 (the Python module raises it as tcosim.InputError with its pointer).
int run_main_throwing(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// One line per subcommand file; each registers its subcommand on `app`.
void setup_run(CLI::App& app, CommandContext& ctx);
void setup_validate(CLI::App& app, CommandContext& ctx);
void setup_pricing(CLI::App& app, CommandContext& ctx);
void setup_demand(CLI::App& app, CommandContext& ctx);
void setup_diff(CLI::App& app, CommandContext& ctx);
void setup_regress(CLI::App& app, CommandContext& ctx);
void setup_report(CLI::App& app, CommandContext& ctx);
void setup_sweep(CLI::App& app, CommandContext& ctx);
void setup_merge(CLI::App& app, CommandContext& ctx);
void setup_trace(CLI::App& app, CommandContext& ctx);
void setup_optimize(CLI::App& app, CommandContext& ctx);
void setup_sensitivity(CLI::App& app, CommandContext& ctx);
void setup_calibrate(CLI::App& app, CommandContext& ctx);

}  // namespace tco::cli
