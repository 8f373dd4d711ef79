// tcosim report REPORT.json [--html OUT.html] [--md OUT.md] [--csv DIR] [--xlsx OUT.xlsx]: renders a saved
// JSON report into the human formats, exactly as `run` would have. [--today D [--max-age-days N]]
// re-dates it: its as-of warnings become those of day D (default: the day the report records).
// [--focus OUT.csv] writes its monthly cash flows as FOCUS 1.2 billing rows (reports/focus/).
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "cli/options.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/focus/focus_export.hpp"
#include "reports/html/html_report.hpp"
#include "cli/command_outputs.hpp"
#include "cli/terminal/terminal_answer.hpp"
#include "reports/json/figure_ages_json.hpp"
#include "reports/json/json_report.hpp"
#include "reports/reader/report_reader.hpp"
#include "reports/workbook/workbook.hpp"

namespace tco::cli {

struct ReportOptions {
  std::string report;
  HumanFormats formats;
  std::string xlsx;
  std::string focus;
  TodayOptions today;
};

static int run_report(const ReportOptions& o, CommandContext& ctx) {
  OutputSet outputs(ctx.out);
  add_human_formats(outputs, o.formats);
  outputs.add_file("--xlsx", o.xlsx);
  outputs.add_file("--focus", o.focus);
  outputs.add_input("the report", o.report);
  Json report = read_report_file(o.report);
  if (report.value("schema_version", "") != kReportSchemaVersion)
    throw InputError(o.report, "/schema_version",
                     std::string("expected a tcosim report with schema_version \"") + kReportSchemaVersion + "\", found " +
                         (report.contains("schema_version") ? report.at("schema_version").dump() : std::string("none")));
  check_report_inputs(report, o.report);
  try {
    if (!o.today.today.empty()) redate_report(report, resolved_today(o.today.today), o.today.max_age_days);
    stage_human_formats(outputs, report, o.formats);
    // The JSON report holds no per-path NPVs: a workbook made from it has no Paths sheet.
    if (!o.xlsx.empty()) write_workbook_atomically(report, WorkbookPaths{}, outputs.staging_path(o.xlsx));
    if (!o.focus.empty()) outputs.stage(o.focus, focus_csv(report, o.report));
    if (o.formats.empty() && o.xlsx.empty() && o.focus.empty()) ctx.out << terminal_answer(report, {});
  } catch (const Json::exception& e) {
    // A report edited by hand or cut short: a field the renderers need is missing or of the
    // wrong type. nlohmann's diagnostics put its pointer in parentheses: "(/plans/0/npv_usd) ...".
    const std::string what = e.what();
    const auto open = what.find("(/"), close = what.find(") ", open);
    const std::string pointer = open != std::string::npos && close != std::string::npos
                                    ? what.substr(open + 1, close - open - 1)
                                    : std::string();
    throw InputError(o.report, pointer, "not a complete tcosim report: " + what);
  }
  outputs.commit();
  ctx.out << files_written_lines(outputs.written_files());
  return 0;
}

void setup_report(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Render a saved JSON report as a self-contained HTML page, a Markdown summary and/or CSV tables.");
  cmd->add_option("report", opts->report, "A JSON report written by tcosim run / optimize / sensitivity")->required();
  cmd->add_option("--html", opts->formats.html, "Write the HTML page here (inline SVG charts, no network, no JavaScript)");
  cmd->add_option("--md", opts->formats.md, "Write the Markdown summary here");
  cmd->add_option("--csv", opts->formats.csv_dir, kCsvFolderHelp);
  cmd->add_option("--xlsx", opts->xlsx,
                  "Write an Excel workbook here: inputs, monthly flows per plan with NPV and totals as formulas, a "
                  "summary (no Paths sheet: the JSON report has no per-path NPVs; docs/report.md)");
  cmd->add_option("--focus", opts->focus,
                  "Write each plan's monthly cash flows here as FOCUS 1.2 billing rows (CSV; a replay's mean path; "
                  "docs/report.md \"The FOCUS export\")");
  cmd->add_option("--today", opts->today.today,
                  "Re-date the report: its figures' ages taken on this day, YYYY-MM-DD (default: the day the report "
                  "records, so a saved report renders as it was written)");
  cmd->add_option("--max-age-days", opts->today.max_age_days,
                  "With --today: warn when a figure used is more than this many days old (default 365)")
      ->check(CLI::Range(0, 1000000));
  cmd->callback([opts, &ctx] { ctx.exit_code = run_report(*opts, ctx); });
}

}  // namespace tco::cli
