#include "reports/markdown/hourly_time_shift_markdown.hpp"

#include <fmt/format.h>

#include "reports/json/hourly_time_shift_json.hpp"
#include "reports/markdown/commitments_markdown.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/markdown/table_rows.hpp"

namespace tco {

// Cells in the order of hourly_time_shift_columns(), target_hours left out.
std::vector<std::string> hourly_time_shift_cells(const Json& r) {
  return {r.at(0).get<std::string>(),
          fmt::format("{:.0f} %", r.at(1).get<double>() * 100.0),
          fmt::format("{:g} h", r.at(2).get<double>()),
          format_gpu_hours(r.at(3)),
          format_gpu_hours(r.at(4)),
          format_usd(r.at(6)),
          format_usd(r.at(7)),
          format_usd(r.at(8))};
}

std::string hourly_time_shift_markdown(const Json& report) {
  const std::string md = markdown_table_rows(hourly_time_shift_rows(report), hourly_time_shift_cells);
  if (md.empty()) return md;
  return "\n**Time shifting in the hourly model** (the deferrable share of each hour's work moved into later "
         "hours where the owned GPUs stand idle and energy costs less, docs/model.md §5.2; the deterministic "
         "forecast. GPU-hours held: work x hours waited. Saved: energy and carbon price at the forecast's prices; "
         "hold: the waiting cost of the held work, booked as waiting):\n\n"
         "| plan | deferrable | max delay | GPU-hours moved | GPU-hours held | saved | hold | net saving |\n"
         "|---|---:|---:|---:|---:|---:|---:|---:|\n" +
         md;
}

}  // namespace tco
