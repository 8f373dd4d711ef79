#include "reports/html/html_hourly_time_shift.hpp"

#include "reports/markdown/table_rows.hpp"
#include "reports/json/hourly_time_shift_json.hpp"
#include "reports/markdown/hourly_time_shift_markdown.hpp"

namespace tco {

std::string hourly_time_shift_section(const Json& report) {
  const std::string rows = html_table_rows(hourly_time_shift_rows(report), hourly_time_shift_cells);
  if (rows.empty()) return rows;
  return "<h2>Time shifting in the hourly model</h2>\n<table><tr><th>plan</th><th>deferrable</th><th>max "
         "delay</th><th>GPU-hours moved</th><th>GPU-hours held</th><th>saved</th><th>hold</th><th>net "
         "saving</th></tr>\n" +
         rows +
         "</table>\n<p class=note>The deferrable share of each hour's work is moved into later hours where the "
         "owned GPUs stand idle and energy costs less (docs/model.md §5.2), planned on the deterministic "
         "forecast. GPU-hours held: work x hours waited. Saved: energy and carbon price at the forecast's prices; "
         "hold: the waiting cost of the held work, booked as waiting.</p>\n";
}

}  // namespace tco
