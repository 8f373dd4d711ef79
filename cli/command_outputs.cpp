#include "cli/command_outputs.hpp"

#include <ostream>

#include "cli/terminal/terminal_answer.hpp"

#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/markdown/markdown_summary.hpp"

namespace tco::cli {

void add_human_formats(OutputSet& outputs, const HumanFormats& formats) {
  outputs.add_file("--html", formats.html);
  outputs.add_file("--md", formats.md);
  outputs.add_folder("--csv", formats.csv_dir);
}

void stage_human_formats(OutputSet& outputs, const Json& report, const HumanFormats& formats) {
  const std::string html_text = formats.html.empty() ? std::string() : html_report(report);
  const std::string md_text = formats.md.empty() ? std::string() : markdown_summary(report);
  const CsvTables tables = formats.csv_dir.empty() ? CsvTables() : csv_tables(report);
  if (!formats.html.empty()) outputs.stage(formats.html, html_text);
  if (!formats.md.empty()) outputs.stage(formats.md, md_text);
  for (const auto& [name, text] : tables) outputs.stage_in_folder(formats.csv_dir, name, text);
}

void commit_and_answer(std::ostream& out, OutputSet& outputs, const std::string& report_path,
                       const std::string& report_text, bool quiet, const std::function<std::string()>& answer) {
  if (!report_path.empty()) outputs.stage(report_path, report_text);
  outputs.commit();
  if (quiet || OutputSet::is_stdout(report_path)) return;
  out << answer() << files_written_lines(outputs.written_files());
}

}  // namespace tco::cli
