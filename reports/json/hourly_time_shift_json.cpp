#include "reports/json/hourly_time_shift_json.hpp"

#include "reports/json/plan_block_rows.hpp"

namespace tco {

Json hourly_time_shift_json(const HourlyShiftFigures& f) {
  return {{"deferrable_share", f.share},
          {"max_delay_h", f.max_delay_h},
          {"moved_gpu_hours", f.moved_gpu_hours},
          {"held_gpu_hours", f.held_gpu_hours},
          {"target_hours", f.target_hours},
          {"saved_usd", f.saved_usd},
          {"hold_usd", f.hold_usd},
          {"net_saving_usd", f.saved_usd - f.hold_usd}};
}

const std::vector<std::string>& hourly_time_shift_columns() {
  static const std::vector<std::string> columns = {
      "plan",         "deferrable_share", "max_delay_h", "moved_gpu_hours", "held_gpu_hours",
      "target_hours", "saved_usd",        "hold_usd",    "net_saving_usd"};
  return columns;
}

std::vector<Json> hourly_time_shift_rows(const Json& report) {
  return plan_block_rows(report, "hourly_time_shift", hourly_time_shift_columns());
}

}  // namespace tco
