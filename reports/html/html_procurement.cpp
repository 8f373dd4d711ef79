#include "reports/html/html_procurement.hpp"

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/markdown/procurement_markdown.hpp"

namespace tco {

std::string procurement_section(const Json& report) {
  std::string rows;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("procurement")) continue;
    const Json& p = plan.at("procurement");
    rows += fmt::format(
        "<tr><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td>{}</td>"
        "<td class=n>{:.1f}%</td><td class=n>{:.1f}%</td></tr>\n",
        html_escape(plan.at("name").get<std::string>()), p.at("order_month").get<int>(), format_usd(p.at("deposit_usd")),
        p.at("purchase_month").get<int>(), p.at("planned_delivery_month").get<int>(), html_escape(delivery_words(p)),
        100.0 * p.at("share_later_than_planned").get<double>(), 100.0 * p.at("share_past_horizon").get<double>());
  }
  if (rows.empty()) return rows;
  return "<h2>Procurement</h2>\n<table><tr><th>plan</th><th>order month</th><th>deposit</th><th>promised "
         "delivery</th><th>planned delivery</th><th>delivery</th><th>later than planned</th><th>past the "
         "horizon</th></tr>\n" +
         rows +
         "</table>\n<p class=note>Months count from 0 at the start. The deposit is paid at the order, the balance at "
         "delivery; until delivery the plan's demand goes to its cloud.</p>\n";
}

}  // namespace tco
