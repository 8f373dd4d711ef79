#include "cli/app.hpp"

#include <algorithm>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands/serving_commands.hpp"
#include "cli/root_first.hpp"
#include "cli/shard/sharded_command.hpp"
#include "core/error.hpp"
#include "core/io/utf8_text.hpp"
#include "core/parallel/process_group.hpp"
#include "engine/sweep/sweep_parity_probe.hpp"

namespace tco::cli {

static void register_commands(CLI::App& app, CommandContext& ctx) {
  setup_run(app, ctx);
  setup_report(app, ctx);
  setup_validate(app, ctx);
  setup_pricing(app, ctx);
  setup_demand(app, ctx);
  setup_diff(app, ctx);
  setup_regress(app, ctx);
  setup_sweep(app, ctx);
  setup_merge(app, ctx);
  setup_trace(app, ctx);
  setup_optimize(app, ctx);
  setup_sensitivity(app, ctx);
  setup_calibrate(app, ctx);
  setup_throughput(app, ctx);
  // Under mpirun with K > 1, only the commands that split their work over the ranks may run;
  // the others would compute everything K times and write the same files K times.
  const std::set<std::string> splitting = {"run", "sweep", "optimize", "sensitivity", "calibrate", "regress"};
  for (CLI::App* sub : app.get_subcommands({})) {
    const std::string name = sub->get_name();
    if (splitting.count(name)) continue;
    sub->preparse_callback([name](std::size_t) {
      if (process_count() > 1) {
        mark_error_known_to_every_rank();  // every rank parses the same command line
        throw ModelError(fmt::format("{} does not split its work over MPI ranks yet (started as {} processes): "
                                     "run it as one process; docs/cluster.md lists the commands that do",
                                     name, process_count()));
      }
    });
  }
}

int exit_code_of_current_exception() {
  try {
    throw;
  } catch (const CLI::ParseError& e) {
    return e.get_exit_code() == 0 ? kExitOk : kExitBadInput;
  } catch (...) {
    return exit_code_of_current_error();
  }
}

// A report lost to a full disk or a closed pipe is a failure, never exit 0. A stream's failure is
// sticky, so one check after the command (and the flush that makes the last bytes leave) covers
// every write the command made to `out`.
static int checked_standard_output(int code, std::ostream& out, std::ostream& err) {
  out.flush();
  if (!out.fail()) return code;
  err << "tcosim: error: writing to the standard output failed (a full disk or a closed pipe?): "
         "what was written there is incomplete\n";
  return code > kExitBadInput ? code : kExitBadInput;
}

static int run_command(int argc, char** argv, std::ostream& out, std::ostream& err, bool throwing = false) {
  // Named, so usage lines say "tcosim" rather than the path the program was started by.
  CLI::App app{"tcosim: rent, buy, or both? Total cost of GPU capacity, cloud vs on-prem.", "tcosim"};
  app.set_version_flag("--version", std::string("tcosim ") + TCO_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  CommandContext ctx{out, err};
  note_command_line(std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
  register_commands(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const PeerFailed& e) {
    return e.exit_code();
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp& e) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    mark_error_known_to_every_rank();  // every rank parses the same command line
    // Help on a subcommand comes through here too (CLI11 raises it from the subcommand).
    if (e.get_exit_code() == 0) {
      out << (app.get_subcommands().empty() ? app.help() : app.get_subcommands().front()->help());
      return kExitOk;
    }
    err << "tcosim: " << escaped_text(e.what(), LineBreaks::keep) << "\n" << "Run with --help for usage.\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    if (throwing) throw;
    // From its parts, not what(): a NUL in a quoted value would end what() there.
    const std::string text = (e.file().empty() ? std::string("<input>") : e.file()) +
                             (e.where().empty() ? std::string() : ": " + e.where()) + ": " + e.message();
    err << "tcosim: error: " << escaped_text(text, LineBreaks::keep) << "\n";
    return kExitBadInput;
  } catch (const ModelError& e) {
    if (throwing) throw;
    err << "tcosim: error: " << escaped_text(e.what(), LineBreaks::keep) << "\n";
    return kExitBadInput;
  } catch (const DeviceError& e) {
    err << "tcosim: error: " << escaped_text(e.what(), LineBreaks::keep) << "\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    err << "tcosim: internal error: " << escaped_text(e.what(), LineBreaks::keep) << "\n";
    return kExitInternal;
  }
  return ctx.exit_code;
}

int run_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  return checked_standard_output(run_command(argc, argv, out, err), out, err);
}

static int run_main_args(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool throwing) {
  std::vector<std::string> storage;
  storage.reserve(args.size() + 1);
  storage.push_back("tcosim");
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  return checked_standard_output(run_command(static_cast<int>(argv.size()), argv.data(), out, err, throwing), out, err);
}

int run_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_main_args(args, out, err, false);
}

int run_main_throwing(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_main_args(args, out, err, true);
}

}  // namespace tco::cli
