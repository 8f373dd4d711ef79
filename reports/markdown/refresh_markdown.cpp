#include "reports/markdown/refresh_markdown.hpp"

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string refresh_month_words(const Json& r) {
  const int month = r.at("month").get<int>();
  if (r.at("inside_horizon").get<bool>()) return fmt::format("{}", month);
  return fmt::format("not inside the horizon (month {})", month);
}

std::string refresh_usd_words(const Json& r, const char* key) {
  return r.at("inside_horizon").get<bool>() ? format_usd(r.at(key)) : std::string("-");
}

std::string refresh_markdown(const Json& report) {
  std::string md;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("refresh")) continue;
    const Json& r = plan.at("refresh");
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", plan.at("name").get<std::string>(),
                      r.at("successor_server").get<std::string>(), r.at("nodes").get<int>(), refresh_month_words(r),
                      refresh_usd_words(r, "old_fleet_sale_usd"), refresh_usd_words(r, "successor_capex_usd"),
                      refresh_usd_words(r, "successor_sale_usd"));
  }
  if (md.empty()) return md;
  return "\n**Refresh** (months from the start, 0 = the first; at the refresh month the plan sells its owned nodes "
         "at their resale value and buys the successor's nodes, in the deterministic run):\n\n"
         "| plan | successor | nodes | month | sale of the old fleet | successor capex | successor resale at the "
         "horizon's end |\n|---|---|---:|---|---:|---:|---:|\n" +
         md;
}

}  // namespace tco
