#include "reports/markdown/depreciation_markdown.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

namespace {

// Row k's column c of a {columns, rows} table, or "-" past its last row.
std::string cell_usd(const Json& table, std::size_t k, std::size_t c) {
  if (table.is_null() || k >= table.at("rows").size()) return "-";
  return format_usd(table.at("rows").at(k).at(c));
}

std::size_t rows_of(const Json& table) { return table.is_null() ? 0 : table.at("rows").size(); }

const Json& economic_of(const Json& views) {
  static const Json none;
  return views.contains("economic") ? views.at("economic") : none;
}

std::string plan_table(const std::string& plan, const Json& v) {
  std::string md = fmt::format("\n*{}* (book: {}; tax shield uses the {} view):\n\n", plan,
                               v.at("book").at("method").get<std::string>(), v.at("tax_shield_view").get<std::string>());
  md += "| year | book depreciation | book value after | tax deduction | tax basis after | economic depreciation | "
        "resale value after |\n|---:|---:|---:|---:|---:|---:|---:|\n";
  for (std::size_t k = 0; k < depreciation_years(v); ++k) {
    md += fmt::format("| {} |", k + 1);
    for (const std::string& cell : depreciation_year_cells(v, k)) md += " " + cell + " |";
    md += "\n";
  }
  if (const Json& sale = v.at("sale"); !sale.is_null())
    md += fmt::format("\nSale at the horizon: recapture {}, capital gain {}, loss {}, tax {}.\n",
                      format_usd(sale.at("ordinary_recapture_usd")), format_usd(sale.at("capital_gain_usd")),
                      format_usd(sale.at("loss_usd")), format_usd(sale.at("tax_usd")));
  return md;
}

}  // namespace

std::size_t depreciation_years(const Json& v) {
  return std::max({rows_of(v.at("book")), rows_of(v.at("tax")), rows_of(economic_of(v))});
}

std::vector<std::string> depreciation_year_cells(const Json& v, std::size_t k) {
  const Json& book = v.at("book");
  const Json& tax = v.at("tax");
  const Json& economic = economic_of(v);
  return {cell_usd(book, k, 1), cell_usd(book, k, 2),     cell_usd(tax, k, 4),
          cell_usd(tax, k, 5),  cell_usd(economic, k, 1), cell_usd(economic, k, 2)};
}

std::string depreciation_markdown(const Json& report) {
  std::string md;
  for (const auto& p : report.at("plans"))
    if (p.contains("depreciation_views")) md += plan_table(p.at("name").get<std::string>(), p.at("depreciation_views"));
  return md.empty() ? md : "\n**Depreciation views** (year 1 = the 12 months from the purchase; economic: the resale value lost "
                       "each year, year 1 from what was paid):\n" + md;
}

}  // namespace tco
