// The monthly cash flows (docs/report.md, `plans[].monthly`): one table per plan, a row per month
// from 0, a column per cost category in USD and the totals after them, as the JSON report lists
// its columns (peak_facility_kw in kW). The tables are long: the HTML folds each under its plan's
// name, Markdown and the terminal name them, and the CSV writes them one after another under one
// header with the plan first (monthly_cash_flows.csv). The workbook's plan sheets hold the same
// rows as formulas (reports/workbook/workbook.cpp).
#include "reports/document/report_section.hpp"

namespace tco {

namespace {

Cell flow_cell(const std::string& column, const Json& value) {
  if (column == "month") return month_cell(value);
  if (column.size() > 3 && column.compare(column.size() - 3, 3, "_kw") == 0) return count_cell(value, 2);
  return usd_price_cell(value, 2);
}

}  // namespace

Section monthly_section(const Json& report) {
  Section s = make_section("monthly", "Monthly cash flows", "USD by month from 0 at the start, one table per plan");
  for (const auto& p : report.at("plans")) {
    const Json& monthly = p.at("monthly");
    std::vector<Column> columns = {{"", "plan", Shown::csv}};
    std::vector<std::string> names;
    for (const auto& c : monthly.at("columns")) {
      names.push_back(c.get<std::string>());
      columns.emplace_back(names.back(), names.back());
    }
    Table t = make_table(std::move(columns), "monthly_cash_flows.csv");
    t.caption = p.at("name").get<std::string>();
    t.folded = true;
    const Json& column_names = monthly.at("columns");
    for (const auto& r : monthly.at("rows")) {
      // A report edited by hand: a row longer than its columns names no column for its last cell,
      // a shorter one lacks a cell. json's out_of_range says where (the columns, or the row), and
      // `report` turns it into exit 2 at that pointer.
      if (r.size() > names.size()) (void)column_names.at(r.size() - 1);
      std::vector<Cell> cells = {text_cell(p.at("name"))};
      for (std::size_t i = 0; i < names.size(); ++i) cells.push_back(flow_cell(names[i], r.at(i)));
      t.rows.emplace_back(std::move(cells));
    }
    s.tables.push_back(std::move(t));
  }
  return s;
}

}  // namespace tco
