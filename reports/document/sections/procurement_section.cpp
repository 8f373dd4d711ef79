// Procurement (docs/report.md, `procurement`): per owned plan with an order, when it was ordered
// and paid, when it was promised and planned, and when it came over the paths.
#include <fmt/format.h>

#include "reports/document/report_section.hpp"

namespace tco {

namespace {

std::string delivery_words(const Json& p) {
  const Json& d = p.at("delivery_month");
  if (p.at("delivery_slip").get<std::string>() == "fixed")
    return fmt::format("month {}", p.at("planned_delivery_month").get<int>());
  return fmt::format("P5 {:.0f} / P50 {:.0f} / P95 {:.0f} (mean {:.1f} over {} paths)", d.at("p5").get<double>(),
                     d.at("p50").get<double>(), d.at("p95").get<double>(), d.at("mean").get<double>(),
                     d.at("paths").get<long>());
}

}  // namespace

Section procurement_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"order month", "order_month"},
                        {"deposit", "deposit_usd"},
                        {"promised delivery", "purchase_month"},
                        {"planned delivery", "planned_delivery_month"},
                        {"", "delivery_slip", Shown::csv},
                        {"", "paths", Shown::csv},
                        {"", "delivery_month_mean", Shown::csv},
                        {"", "delivery_month_p5", Shown::csv},
                        {"", "delivery_month_p50", Shown::csv},
                        {"", "delivery_month_p95", Shown::csv},
                        {"delivery", "", Shown::human},
                        {"later than planned", "share_later_than_planned"},
                        {"past the horizon", "share_past_horizon"}},
                       "procurement.csv");
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("procurement")) continue;
    const Json& p = plan.at("procurement");
    const Json& d = p.at("delivery_month");
    t.rows.push_back(
        {{text_cell(plan.at("name")), month_cell(p.at("order_month")), usd_cell(p.at("deposit_usd")),
          month_cell(p.at("purchase_month")), month_cell(p.at("planned_delivery_month")),
          text_cell(p.at("delivery_slip")), count_cell(d.at("paths")), count_cell(d.at("mean"), 1),
          month_cell(d.at("p5")), month_cell(d.at("p50")), month_cell(d.at("p95")), text_cell(delivery_words(p)),
          percent_cell(p.at("share_later_than_planned")), percent_cell(p.at("share_past_horizon"))}});
  }
  return make_section(
      "procurement", "Procurement",
      "months from the start, 0 = the first; the deposit is paid at the order, the balance at delivery; until "
      "delivery the plan's demand goes to its cloud",
      {t});
}

}  // namespace tco
