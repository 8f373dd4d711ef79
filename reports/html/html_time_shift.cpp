#include "reports/html/html_time_shift.hpp"

#include "reports/html/html_escape.hpp"
#include "reports/markdown/table_rows.hpp"
#include "reports/json/time_shift_json.hpp"
#include "reports/markdown/time_shift_markdown.hpp"

namespace tco {

std::string time_shift_section(const Json& report) {
  const std::string rows = html_table_rows(time_shift_rows(report), time_shift_cells, {0, 6});  // 6: the twin's name
  if (rows.empty()) return rows;
  std::string flags;
  for (const std::string& f : time_shift_miss_flags(report)) flags += "<p class=note><b>Flag:</b> " + html_escape(f) + ".</p>\n";
  return "<h2>Time shifting</h2>\n<table><tr><th>plan</th><th>holds</th><th>hours held</th><th>saved at "
         "hold</th><th>deadline misses</th><th>energy</th><th>without shifting</th><th>its energy</th><th>NPV "
         "change</th><th>its deadline misses</th><th>misses added</th></tr>\n" +
         rows +
         "</table>\n<p class=note>Deferrable jobs held for cheaper hours (docs/model.md §5.1), means per path from "
         "the replay. Saved at hold: what the holds expected to save at the site's forecast prices. Beside the "
         "same plan without shifting, on the same random numbers: its energy bill, the NPV change (negative: "
         "shifting is cheaper), its deadline misses and those shifting added.</p>\n" +
         flags;
}

}  // namespace tco
