// Refresh (docs/report.md, `refresh`): per plan that refreshes, the successor, the month and the
// money of the sale and the purchase, or that the refresh falls past the horizon.
#include <fmt/format.h>

#include "reports/document/report_section.hpp"
#include "reports/json/refresh_table.hpp"

namespace tco {

Section refresh_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"successor", "successor_server"},
                        {"", "months_after_arrival", Shown::csv},
                        {"month", "month"},
                        {"", "inside_horizon", Shown::csv},
                        {"nodes", "nodes"},
                        {"sale of the old fleet", "old_fleet_sale_usd"},
                        {"successor capex", "successor_capex_usd"},
                        {"successor resale at the horizon's end", "successor_sale_usd"},
                        {"", "successor_racks", Shown::csv}},
                       "refresh.csv");
  for (const Json& r : refresh_rows(report)) {  // in refresh_columns() order
    const bool inside = r.at(4).get<bool>();
    auto money = [&](int c) { return inside ? usd_cell(r.at(c)) : shown_as(usd_cell(r.at(c)), "-"); };
    Cell month = month_cell(r.at(3));
    if (!inside) month = shown_as(month, fmt::format("not inside the horizon (month {})", r.at(3).get<int>()));
    t.rows.push_back({{text_cell(r.at(0)), text_cell(r.at(1)), count_cell(r.at(2)), month, text_cell(r.at(4)),
                       count_cell(r.at(5)), money(6), money(7), money(8), count_cell(r.at(9))}});
  }
  return make_section(
      "refresh", "Refresh",
      "months from the start, 0 = the first; at the refresh month the plan sells its owned nodes at their resale "
      "value and buys the successor's nodes, in the deterministic run",
      {t});
}

}  // namespace tco
