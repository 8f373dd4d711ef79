// The human formats of a report (--html, --md, --csv) as outputs of a command's OutputSet
// (core/io/output_set.hpp), and the files a scenario reads as its inputs.
#pragma once

#include <functional>
#include <string>

#include "core/io/json_reader.hpp"
#include "models/scenario_inputs.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

// The --html, --md and --csv outputs of a report (each optional; empty = none).
struct HumanFormats {
  std::string html;
  std::string md;
  std::string csv_dir;

  bool empty() const { return html.empty() && md.empty() && csv_dir.empty(); }
};
void add_human_formats(OutputSet& outputs, const HumanFormats& formats);

// The help of run's and report's --csv: the files the folder receives (reports/csv/csv_report.cpp
// and each section's csv_file).
inline constexpr const char* kCsvFolderHelp =
    "Also write the report's tables as CSV files into this folder: monthly_cash_flows.csv, plans.csv, categories.csv, "
    "sources.csv, warnings.csv, breakevens_utilization.csv, breakevens_cloud_price.csv, monte_carlo.csv (with Monte "
    "Carlo paths), sensitivity.csv (with a tornado), sizing.csv (a sizing) and one per feature section the report has (docs/report.md)";
// Renders and stages them (rendering errors propagate before anything is staged).
void stage_human_formats(OutputSet& outputs, const Json& report, const HumanFormats& formats);

// The end of a command that writes one JSON document: stages it at report_path (when one is
// named), commits every staged file, then prints answer() and the files written, unless quiet
// or the document went to standard output (which then holds the document only).
void commit_and_answer(std::ostream& out, OutputSet& outputs, const std::string& report_path,
                       const std::string& report_text, bool quiet, const std::function<std::string()>& answer);

}  // namespace tco::cli
