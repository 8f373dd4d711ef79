#include "reports/markdown/procurement_markdown.hpp"

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string delivery_words(const Json& p) {
  const Json& d = p.at("delivery_month");
  if (p.at("delivery_slip").get<std::string>() == "fixed") return fmt::format("month {}", p.at("planned_delivery_month").get<int>());
  return fmt::format("P5 {:.0f} / P50 {:.0f} / P95 {:.0f} (mean {:.1f} over {} paths)", d.at("p5").get<double>(),
                     d.at("p50").get<double>(), d.at("p95").get<double>(), d.at("mean").get<double>(),
                     d.at("paths").get<long>());
}

std::string procurement_markdown(const Json& report) {
  std::string md;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("procurement")) continue;
    const Json& p = plan.at("procurement");
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {:.1f}% | {:.1f}% |\n", plan.at("name").get<std::string>(),
                      p.at("order_month").get<int>(), format_usd(p.at("deposit_usd")),
                      p.at("purchase_month").get<int>(), p.at("planned_delivery_month").get<int>(), delivery_words(p),
                      100.0 * p.at("share_later_than_planned").get<double>(),
                      100.0 * p.at("share_past_horizon").get<double>());
  }
  if (md.empty()) return md;
  return "\n**Procurement** (months from the start, 0 = the first; the deposit is paid at the order, the balance at "
         "delivery; until delivery the plan's demand goes to its cloud):\n\n"
         "| plan | order month | deposit | promised delivery | planned delivery | delivery | later than planned | "
         "past the horizon |\n|---|---:|---:|---:|---:|---|---:|---:|\n" +
         md;
}

}  // namespace tco
