#include "reports/html/html_goodput.hpp"

#include "reports/markdown/table_rows.hpp"
#include "reports/json/goodput_json.hpp"
#include "reports/markdown/goodput_markdown.hpp"

namespace tco {

std::string goodput_section(const Json& report) {
  const std::string rows = html_table_rows(goodput_rows(report), goodput_cells);
  if (rows.empty()) return rows;
  return "<h2>Goodput</h2>\n<table><tr><th>plan</th><th>spares</th><th>goodput</th><th>per-path mean [95% "
         "CI]</th><th>useful GPU-h</th><th>lost GPU-h</th><th>repair wait GPU-h</th><th>failures</th><th>spare "
         "swaps</th><th>repair cost</th></tr>\n" +
         rows +
         "</table>\n<p class=note>Goodput = useful / (useful + lost + repair wait) GPU-hours of the on-prem pool: "
         "lost is the work node failures undid (since the last checkpoint), repair wait the GPU-hours failed "
         "nodes' places stood empty (the repair, or the swap when a hot spare takes the place). Means per path "
         "from the replay.</p>\n";
}

}  // namespace tco
