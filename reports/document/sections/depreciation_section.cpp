// Depreciation views (docs/report.md, `depreciation_views`): per owned plan, the book, tax and
// economic views year by year side by side, and the tax on the sale at the horizon.
// depreciation.csv keeps its own shape (every tax column, one row per plan and year:
// reports/json/depreciation_json.hpp), so these tables name no CSV file.
#include <fmt/format.h>

#include <algorithm>

#include "reports/document/number_words.hpp"
#include "reports/document/report_section.hpp"

namespace tco {

namespace {

std::size_t rows_of(const Json& table) { return table.is_null() ? 0 : table.at("rows").size(); }

// Row k's column c of a {columns, rows} table; "-" past its last row.
Cell year_cell(const Json& table, std::size_t k, std::size_t c) {
  if (k >= rows_of(table)) return shown_as(usd_cell(Json(nullptr)), "-");  // a number's place, right-aligned
  return usd_cell(table.at("rows").at(k).at(c));
}

Table plan_table(const Json& plan) {
  const Json& v = plan.at("depreciation_views");
  const Json& book = v.at("book");
  const Json& tax = v.at("tax");
  const Json economic = v.value("economic", Json(nullptr));
  Table t = make_table({{"year", "year"},
                        {"book depreciation", "book_depreciation_usd"},
                        {"book value after", "book_value_after_usd"},
                        {"tax deduction", "tax_deduction_usd"},
                        {"tax basis after", "tax_basis_after_usd"},
                        {"economic depreciation", "economic_depreciation_usd"},
                        {"resale value after", "resale_value_after_usd"}});
  t.caption = fmt::format("{} (book: {}; the tax shield uses the {} view)", plan.at("name").get<std::string>(),
                          book.at("method").get<std::string>(), v.at("tax_shield_view").get<std::string>());
  const std::size_t years = std::max({rows_of(book), rows_of(tax), rows_of(economic)});
  for (std::size_t k = 0; k < years; ++k)
    t.rows.push_back({{count_cell(Json(k + 1)), year_cell(book, k, 1), year_cell(book, k, 2), year_cell(tax, k, 4),
                       year_cell(tax, k, 5), year_cell(economic, k, 1), year_cell(economic, k, 2)}});
  if (const Json& sale = v.at("sale"); !sale.is_null())
    t.after = fmt::format("Sale at the horizon: recapture {}, capital gain {}, loss {}, tax {}.",
                          format_usd(sale.at("ordinary_recapture_usd")), format_usd(sale.at("capital_gain_usd")),
                          format_usd(sale.at("loss_usd")), format_usd(sale.at("tax_usd")));
  return t;
}

}  // namespace

Section depreciation_section(const Json& report) {
  Section s = make_section(
      "depreciation", "Depreciation views",
      "year 1 = the 12 months from the delivery; the after-tax NPV (the tax_shield category) uses the view named "
      "per plan; economic: the resale value lost each year on the curve the residual is sold on, year 1 from "
      "what was paid");
  for (const auto& p : report.at("plans"))
    if (p.contains("depreciation_views")) s.tables.push_back(plan_table(p));
  return s;
}

}  // namespace tco
