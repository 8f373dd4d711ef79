#include "reports/json/refresh_table.hpp"

namespace tco {

const std::vector<std::string>& refresh_columns() {
  static const std::vector<std::string> columns = {
      "plan", "successor_server", "months_after_arrival", "month", "inside_horizon", "nodes", "old_fleet_sale_usd",
      "successor_capex_usd", "successor_sale_usd", "successor_racks"};
  return columns;
}

std::vector<Json> refresh_rows(const Json& report) {
  const std::vector<std::string>& columns = refresh_columns();
  std::vector<Json> rows;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("refresh")) continue;
    Json line = Json::array({p.at("name")});
    for (std::size_t c = 1; c < columns.size(); ++c) line.push_back(p.at("refresh").at(columns[c]));
    rows.push_back(std::move(line));
  }
  return rows;
}

}  // namespace tco
