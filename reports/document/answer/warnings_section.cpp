// Warnings (docs/report.md, `warnings`): each warning's message with its code, in the report's
// order; the CSV and the workbook hold the code and message as columns.
#include "reports/document/report_section.hpp"

namespace tco {

Section warnings_section(const Json& report) {
  Table t = make_table({{"", "code", Shown::csv}, {"", "message", Shown::csv}}, "warnings.csv");
  Section s = make_section("warnings", "Warnings", "");
  for (const auto& w : report.at("warnings")) {
    t.rows.emplace_back(std::vector<Cell>{text_cell(w.at("code")), text_cell(w.at("message"))});
    s.items.push_back(w.at("message").get<std::string>() + " [" + w.at("code").get<std::string>() + "]");
  }
  s.tables = {t};
  return s;
}

}  // namespace tco
