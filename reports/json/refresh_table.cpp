#include "reports/json/refresh_table.hpp"

#include "reports/json/plan_block_rows.hpp"

namespace tco {

const std::vector<std::string>& refresh_columns() {
  static const std::vector<std::string> columns = {
      "plan", "successor_server", "months_after_arrival", "month", "inside_horizon", "nodes", "old_fleet_sale_usd",
      "successor_capex_usd", "successor_sale_usd", "successor_racks"};
  return columns;
}

std::vector<Json> refresh_rows(const Json& report) { return plan_block_rows(report, "refresh", refresh_columns()); }

}  // namespace tco
