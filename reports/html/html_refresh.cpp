#include "reports/html/html_refresh.hpp"

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/refresh_markdown.hpp"

namespace tco {

std::string refresh_section(const Json& report) {
  std::string rows;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("refresh")) continue;
    const Json& r = plan.at("refresh");
    rows += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td>"
        "<td class=n>{}</td></tr>\n",
        html_escape(plan.at("name").get<std::string>()), html_escape(r.at("successor_server").get<std::string>()),
        r.at("nodes").get<int>(), html_escape(refresh_month_words(r)), refresh_usd_words(r, "old_fleet_sale_usd"),
        refresh_usd_words(r, "successor_capex_usd"), refresh_usd_words(r, "successor_sale_usd"));
  }
  if (rows.empty()) return rows;
  return "<h2>Refresh</h2>\n<table><tr><th>plan</th><th>successor</th><th>nodes</th><th>month</th><th>sale of the "
         "old fleet</th><th>successor capex</th><th>successor resale at the horizon's end</th></tr>\n" +
         rows +
         "</table>\n<p class=note>Months count from 0 at the start. At the refresh month the plan sells its owned "
         "nodes at their resale value and buys the successor's nodes; figures are the deterministic run's.</p>\n";
}

}  // namespace tco
