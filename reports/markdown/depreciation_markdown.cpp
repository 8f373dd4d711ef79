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

std::string plan_table(const std::string& plan, const Json& v) {
  const Json& book = v.at("book");
  const Json& tax = v.at("tax");
  std::string md = fmt::format("\n*{}* (book: {}; tax shield uses the {} view):\n\n", plan,
                               book.at("method").get<std::string>(), v.at("tax_shield_view").get<std::string>());
  md += "| year | book depreciation | book value after | tax deduction | tax basis after |\n"
        "|---:|---:|---:|---:|---:|\n";
  const std::size_t years =
      std::max(book.at("rows").size(), tax.is_null() ? std::size_t{0} : tax.at("rows").size());
  for (std::size_t k = 0; k < years; ++k)
    md += fmt::format("| {} | {} | {} | {} | {} |\n", k + 1, cell_usd(book, k, 1), cell_usd(book, k, 2),
                      cell_usd(tax, k, 4), cell_usd(tax, k, 5));
  if (const Json& sale = v.at("sale"); !sale.is_null())
    md += fmt::format("\nSale at the horizon: recapture {}, capital gain {}, loss {}, tax {}.\n",
                      format_usd(sale.at("ordinary_recapture_usd")), format_usd(sale.at("capital_gain_usd")),
                      format_usd(sale.at("loss_usd")), format_usd(sale.at("tax_usd")));
  return md;
}

}  // namespace

std::string depreciation_markdown(const Json& report) {
  std::string md;
  for (const auto& p : report.at("plans"))
    if (p.contains("depreciation_views")) md += plan_table(p.at("name").get<std::string>(), p.at("depreciation_views"));
  return md.empty() ? md : "\n**Depreciation views** (year 1 = the 12 months from the purchase):\n" + md;
}

}  // namespace tco
