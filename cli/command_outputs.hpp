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
// Renders and stages them (rendering errors propagate before anything is staged).
void stage_human_formats(OutputSet& outputs, const Json& report, const HumanFormats& formats);

// The end of a command that writes one JSON document: stages it at report_path (when one is
// named), commits every staged file, then prints answer() and the files written, unless quiet
// or the document went to standard output (which then holds the document only).
void commit_and_answer(std::ostream& out, OutputSet& outputs, const std::string& report_path,
                       const std::string& report_text, bool quiet, const std::function<std::string()>& answer);

}  // namespace tco::cli
