// tcosim diff BASE.json NEW.json [--tolerance 0.5%] [--abs-tolerance-usd 1000] [--format text|md|json]
// Exit 1 when a decision changed or a headline figure moved beyond tolerance, 0 otherwise
// (prints "no change" when nothing differs), 2 on bad input (reports/diff/report_diff.hpp).
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "reports/diff/report_diff.hpp"
#include "reports/reader/report_reader.hpp"

namespace tco::cli {

struct DiffOptions {
  std::string base;
  std::string next;
  std::string tolerance = "0.5%";
  double abs_tolerance_usd = 1000.0;
  std::string format = "text";
};

static int run_diff(const DiffOptions& o, CommandContext& ctx) {
  const DiffTolerance tolerance{parse_relative_tolerance(o.tolerance), o.abs_tolerance_usd};
  const ReportDiff diff = diff_reports(read_report_file(o.base), read_report_file(o.next), tolerance, o.base, o.next);
  if (o.format == "json") ctx.out << diff_json(diff, tolerance).dump(2) << "\n";
  else if (o.format == "md") ctx.out << diff_markdown(diff, tolerance);
  else ctx.out << diff_text(diff, tolerance);
  return diff.fails() ? kExitCheckFailed : kExitOk;
}

void setup_diff(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<DiffOptions>();
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "Compare two reports of the same scenario: each plan's NPV (Monte Carlo mean, P50, P90), NPV saving vs the "
      "baseline, payback month, utilization and cloud-price breakevens, best N, and the breakdown by category. A "
      "changed decision (cheapest plan, best N, a payback appearing or disappearing) is shown first. A figure moved "
      "when it moved by more than both tolerances; a Monte Carlo figure within 3 combined standard errors is noise. "
      "Exit 1 when a decision changed or a headline figure moved, 0 otherwise, 2 on bad input.");
  cmd->add_option("base", opts->base, "The base report (JSON, e.g. a baseline)")->required();
  cmd->add_option("new", opts->next, "The new report (JSON)")->required();
  cmd->add_option("--tolerance", opts->tolerance,
                  "Relative tolerance: \"0.5%\" or \"0.005\" (default 0.5%). A move must exceed both this and "
                  "--abs-tolerance-usd to count.");
  cmd->add_option("--abs-tolerance-usd", opts->abs_tolerance_usd,
                  "Absolute tolerance for USD figures (default 1000)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--format", opts->format, "Output: text (default), md (a Markdown table) or json")
      ->check(CLI::IsMember({"text", "md", "json"}));
  cmd->callback([opts, &ctx] { ctx.exit_code = run_diff(*opts, ctx); });
}

}  // namespace tco::cli
