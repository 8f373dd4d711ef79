#include "reports/html/html_depreciation.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/markdown_summary.hpp"

namespace tco {

namespace {

// Row k's column c of a {columns, rows} table, or "-" past its last row (or without the view).
std::string cell_usd(const Json& table, std::size_t k, std::size_t c) {
  if (table.is_null() || k >= table.at("rows").size()) return "-";
  return format_usd(table.at("rows").at(k).at(c));
}

}  // namespace

std::string depreciation_section(const Json& report) {
  std::string out;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("depreciation_views")) continue;
    const Json& v = p.at("depreciation_views");
    const Json& book = v.at("book");
    const Json& tax = v.at("tax");
    out += fmt::format("<p>{} (book: {}; the tax shield uses the {} view)</p>\n<table><tr><th>year</th><th>book "
                       "depreciation</th><th>book value after</th><th>tax deduction</th><th>tax basis after</th></tr>\n",
                       html_escape(p.at("name").get<std::string>()), html_escape(book.at("method").get<std::string>()),
                       html_escape(v.at("tax_shield_view").get<std::string>()));
    const std::size_t years =
        std::max(book.at("rows").size(), tax.is_null() ? std::size_t{0} : tax.at("rows").size());
    for (std::size_t k = 0; k < years; ++k)
      out += fmt::format("<tr><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td "
                         "class=n>{}</td></tr>\n",
                         k + 1, cell_usd(book, k, 1), cell_usd(book, k, 2), cell_usd(tax, k, 4), cell_usd(tax, k, 5));
    out += "</table>\n";
  }
  if (out.empty()) return out;
  return "<h2>Depreciation views</h2>\n<p class=note>Year 1 is the 12 months from the delivery. The after-tax NPV "
         "(the tax_shield category) uses the view named per plan; the book value is the book view's.</p>\n" +
         out;
}

}  // namespace tco
