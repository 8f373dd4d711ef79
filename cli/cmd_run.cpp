// tcosim run SCENARIO --out REPORT.json [--md SUMMARY.md] [--catalog DIR]
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "engine/scenario_run.hpp"
#include "models/scenario.hpp"
#include "reports/atomic_file.hpp"
#include "reports/json_report.hpp"
#include "reports/markdown_summary.hpp"

namespace tco::cli {

struct RunOptions {
  std::string scenario;
  std::string out;
  std::string md;
  std::string catalog;
  bool quiet = false;
};

static int run_run(const RunOptions& o, CommandContext& ctx) {
  const Scenario scenario = load_scenario(o.scenario, o.catalog);
  const ScenarioRun run = run_deterministic(scenario);
  const Json report = report_json(scenario, run, RunMetadata{"run", 1});
  // Everything is computed before anything is written: bad input leaves no file behind.
  const std::string md = o.md.empty() ? std::string() : markdown_summary(report);
  if (!o.out.empty()) write_file_atomically(o.out, report_text(report));
  if (!o.md.empty()) write_file_atomically(o.md, md);
  if (!o.quiet) ctx.out << console_summary(report);
  if (!o.out.empty() && !o.quiet) ctx.out << "report: " << o.out << "\n";
  return 0;
}

void setup_run(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Evaluate every plan of a scenario hour by hour over its horizon and report costs (nominal and NPV), the "
      "breakdown by category, monthly cash flows, comparisons with the baseline (NPV saving, payback month, IRR), "
      "utilization and cloud-price breakevens, and warnings.");
  cmd->add_option("scenario", opts->scenario, "Scenario file (JSON; see docs/scenario.md)")->required();
  cmd->add_option("--out,-o", opts->out, "Write the JSON report here (atomically; see docs/report.md)");
  cmd->add_option("--md", opts->md, "Also write a Markdown summary here (for a pull-request comment)");
  cmd->add_option("--catalog", opts->catalog,
                  "Pricing catalog folder, replacing the scenario's catalog_dir (default: ../pricing-data beside "
                  "the scenario)");
  cmd->add_flag("--quiet,-q", opts->quiet, "Print nothing on success");
  cmd->callback([opts, &ctx] { ctx.exit_code = run_run(*opts, ctx); });
}

}  // namespace tco::cli
