// Time shifting in the hourly model (docs/report.md, `hourly_time_shift`): per plan, the work
// moved into later hours and what it saved against what holding it cost.
#include "reports/document/report_section.hpp"
#include "reports/json/hourly_time_shift_json.hpp"

namespace tco {

Section hourly_time_shift_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"deferrable", "deferrable_share"},
                        {"max delay", "max_delay_h"},
                        {"GPU-hours moved", "moved_gpu_hours"},
                        {"GPU-hours held", "held_gpu_hours"},
                        {"", "target_hours", Shown::csv},
                        {"saved", "saved_usd"},
                        {"hold", "hold_usd"},
                        {"net saving", "net_saving_usd"}},
                       "hourly_time_shift.csv");
  for (const Json& r : hourly_time_shift_rows(report))  // in hourly_time_shift_columns() order
    t.rows.push_back(
        {{text_cell(r.at(0)), percent_cell(r.at(1), 0), hours_cell(r.at(2)), gpu_hours_cell(r.at(3)),
          gpu_hours_cell(r.at(4)), count_cell(r.at(5)), usd_cell(r.at(6)), usd_cell(r.at(7)), usd_cell(r.at(8))}});
  return make_section(
      "hourly_time_shift", "Time shifting in the hourly model",
      "the deferrable share of each hour's work moved into later hours where the owned GPUs stand idle and energy "
      "costs less, docs/model.md §5.2; the deterministic forecast. GPU-hours held: work x hours waited. Saved: "
      "energy and carbon price at the forecast's prices; hold: the waiting cost of the held work, booked as "
      "waiting",
      {t});
}

}  // namespace tco
