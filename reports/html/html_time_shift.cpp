#include "reports/html/html_time_shift.hpp"

#include "reports/html/html_escape.hpp"
#include "reports/json/time_shift_json.hpp"
#include "reports/markdown/time_shift_markdown.hpp"

namespace tco {

std::string time_shift_section(const Json& report) {
  std::string rows;
  for (const Json& row : time_shift_rows(report)) {
    const std::vector<std::string> cells = time_shift_cells(row);
    rows += "<tr><td>" + html_escape(cells[0]) + "</td>";
    for (std::size_t c = 1; c < cells.size(); ++c)
      rows += (c == 6 ? "<td>" : "<td class=n>") + html_escape(cells[c]) + "</td>";
    rows += "</tr>\n";
  }
  if (rows.empty()) return rows;
  return "<h2>Time shifting</h2>\n<table><tr><th>plan</th><th>holds</th><th>hours held</th><th>saved at "
         "hold</th><th>deadline misses</th><th>energy</th><th>without shifting</th><th>its energy</th><th>NPV "
         "change</th><th>its deadline misses</th></tr>\n" +
         rows +
         "</table>\n<p class=note>Deferrable jobs held for cheaper hours (docs/model.md §5.1), means per path from "
         "the replay. Saved at hold: what the holds expected to save at the site's forecast prices. Beside the "
         "same plan without shifting, on the same random numbers: its energy bill, the NPV change (negative: "
         "shifting is cheaper) and its deadline misses.</p>\n";
}

}  // namespace tco
