#include "reports/html/html_depreciation.hpp"

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/depreciation_markdown.hpp"

namespace tco {

std::string depreciation_section(const Json& report) {
  std::string out;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("depreciation_views")) continue;
    const Json& v = p.at("depreciation_views");
    out += fmt::format("<p>{} (book: {}; the tax shield uses the {} view)</p>\n<table><tr><th>year</th><th>book "
                       "depreciation</th><th>book value after</th><th>tax deduction</th><th>tax basis after</th>"
                       "<th>economic depreciation</th><th>resale value after</th></tr>\n",
                       html_escape(p.at("name").get<std::string>()), html_escape(v.at("book").at("method").get<std::string>()),
                       html_escape(v.at("tax_shield_view").get<std::string>()));
    for (std::size_t k = 0; k < depreciation_years(v); ++k) {
      out += fmt::format("<tr><td class=n>{}</td>", k + 1);
      for (const std::string& cell : depreciation_year_cells(v, k)) out += "<td class=n>" + html_escape(cell) + "</td>";
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  if (out.empty()) return out;
  return "<h2>Depreciation views</h2>\n<p class=note>Year 1 is the 12 months from the delivery. The after-tax NPV "
         "(the tax_shield category) uses the view named per plan; the book value is the book view's. Economic "
         "depreciation is the resale value lost each year on the curve the residual is sold on (year 1 from what "
         "was paid, install and room included).</p>\n" +
         out;
}

}  // namespace tco
