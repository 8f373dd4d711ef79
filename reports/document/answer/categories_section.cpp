// Cost by category (docs/report.md, `breakdown_npv_usd`): each plan's NPV split by what it pays
// for, one row per category in the report's order, one column per plan. A category that is 0 for
// every plan is left out (the JSON report keeps it).
#include "reports/document/report_section.hpp"

namespace tco {

Section categories_section(const Json& report) {
  const Json& plans = report.at("plans");
  std::vector<Column> columns = {{"category", "category"}};
  for (const auto& p : plans) columns.emplace_back(p.at("name").get<std::string>(), p.at("name").get<std::string>());
  Table t = make_table(std::move(columns), "categories.csv");
  for (const auto& [category, ignored] : plans.at(0).at("breakdown_npv_usd").items()) {
    std::vector<Cell> cells = {text_cell(category)};
    bool paid = false;
    for (const auto& p : plans) {
      cells.push_back(usd_cell(p.at("breakdown_npv_usd").at(category)));
      paid = paid || !cells.back().has_number() || cells.back().number() != 0.0;
    }
    if (paid) t.rows.emplace_back(std::move(cells));
  }
  return make_section("categories", "Cost by category",
                      "each plan's NPV in USD by what it pays for; a category no plan pays for is left out", {t});
}

}  // namespace tco
