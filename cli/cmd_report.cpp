// tcosim report REPORT.json [--html OUT.html] [--md OUT.md] [--csv DIR]: renders a saved
// JSON report into the human formats, exactly as `run` would have.
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "reports/csv_report.hpp"
#include "reports/html_report.hpp"
#include "reports/json_report.hpp"
#include "reports/markdown_summary.hpp"

namespace tco::cli {

struct ReportOptions {
  std::string report;
  std::string html;
  std::string md;
  std::string csv_dir;
};

static int run_report(const ReportOptions& o, CommandContext& ctx) {
  const Json report = read_json_file(o.report);
  if (!report.is_object() || report.value("schema_version", "") != kReportSchemaVersion)
    throw InputError(o.report, "/schema_version",
                     std::string("expected a tcosim report with schema_version \"") + kReportSchemaVersion + "\", found " +
                         (report.is_object() && report.contains("schema_version") ? report.at("schema_version").dump()
                                                                                  : std::string("none")));
  try {
    write_human_formats(report, o.html, o.md, o.csv_dir);
    if (o.html.empty() && o.md.empty() && o.csv_dir.empty()) ctx.out << console_summary(report);
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
  return 0;
}

void write_human_formats(const Json& report, const std::string& html, const std::string& md, const std::string& csv_dir) {
  // Render everything first, so a rendering error leaves no file written.
  const std::string html_text = html.empty() ? std::string() : html_report(report);
  const std::string md_text = md.empty() ? std::string() : markdown_summary(report);
  const CsvTables tables = csv_dir.empty() ? CsvTables() : csv_tables(report);
  if (!html.empty()) write_file_atomically(html, html_text);
  if (!md.empty()) write_file_atomically(md, md_text);
  if (!csv_dir.empty()) write_csv_tables(tables, csv_dir);
}

void setup_report(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Render a saved JSON report as a self-contained HTML page, a Markdown summary and/or CSV tables.");
  cmd->add_option("report", opts->report, "A JSON report written by tcosim run / optimize / sensitivity")->required();
  cmd->add_option("--html", opts->html, "Write the HTML page here (inline SVG charts, no network, no JavaScript)");
  cmd->add_option("--md", opts->md, "Write the Markdown summary here");
  cmd->add_option("--csv", opts->csv_dir, "Write monthly_cash_flows.csv, plans.csv (and sizing/sensitivity tables) into this folder");
  cmd->callback([opts, &ctx] { ctx.exit_code = run_report(*opts, ctx); });
}

}  // namespace tco::cli
