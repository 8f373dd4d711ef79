// The sensitivity of the saving (docs/report.md, `sensitivity`): an uncertain scenario's analysis
// in one sentence, then the tornado of `tcosim sensitivity` or of the uncertain inputs: each
// input at its low and high value with the plan's NPV saving against the baseline at each, and
// the swing between them, largest first (the report's order). The HTML page draws the tornado
// chart of the same rows under the table (reports/html/html_charts.cpp).
#include "reports/document/number_words.hpp"
#include "reports/document/report_section.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

Section sensitivity_section(const Json& report) {
  Section s = make_section("sensitivity", "Sensitivity (tornado)", "");
  if (const std::string uncertainty = uncertainty_sentence(report); !uncertainty.empty()) s.opening = {uncertainty};
  if (!report.contains("sensitivity") || !report.at("sensitivity").contains("tornado")) return s;
  const Json& tornado = report.at("sensitivity").at("tornado");
  s.lead = "the NPV saving in USD of " + tornado.at("plan").get<std::string>() + " against " +
           tornado.at("baseline").get<std::string>() + ", " + format_usd(tornado.at("base_saving_usd")) +
           " with every input at its base value; the inputs' values are in their own units";
  // The inputs' values: fractions, GPUs, USD/kWh, ... in the scenario's units, four significant places.
  Table t = make_table({{"input", "input"},
                        {"", "pointer", Shown::csv},
                        {"base value", "base"},
                        {"low value", "low"},
                        {"high value", "high"},
                        {"saving at the low value", "saving_at_low_usd"},
                        {"saving at the high value", "saving_at_high_usd"},
                        {"swing", "swing_usd"}},
                       "sensitivity.csv");
  for (const auto& row : tornado.at("inputs"))
    t.rows.emplace_back(std::vector<Cell>{text_cell(row.at("input")), text_cell(row.at("pointer")), count_cell(row.at("base"), 4),
                                          count_cell(row.at("low"), 4), count_cell(row.at("high"), 4),
                                          usd_cell(row.at("saving_at_low_usd")), usd_cell(row.at("saving_at_high_usd")),
                                          usd_cell(row.at("swing_usd"))});
  s.tables = {t};
  return s;
}

}  // namespace tco
