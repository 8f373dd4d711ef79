#include "reports/html/html_commitments.hpp"

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/commitments_markdown.hpp"
#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string commitments_section(const Json& report) {
  std::string rows;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("commitments")) continue;
    for (const auto& c : plan.at("commitments"))
      rows += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>"
          "<td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>\n",
          html_escape(plan.at("name").get<std::string>()), html_escape(c.at("name").get<std::string>()),
          html_escape(c.at("kind").get<std::string>()), format_usd(c.at("committed_usd")),
          format_usd(c.at("used_usd")), format_usd(c.at("unused_usd")), format_gpu_hours(c.at("committed_gpu_hours")),
          format_gpu_hours(c.at("used_gpu_hours")), format_gpu_hours(c.at("unused_gpu_hours")),
          format_usd(c.at("cost_npv_usd")));
  }
  if (rows.empty()) return rows;
  return "<h2>Commitments</h2>\n<table><tr><th>plan</th><th>instrument</th><th>kind</th><th>committed</th>"
         "<th>used</th><th>unused</th><th>committed GPU-h</th><th>used GPU-h</th><th>unused GPU-h</th>"
         "<th>cost (NPV)</th></tr>\n" +
         rows +
         "</table>\n<p class=note>Capacity bought ahead: take-or-pay contracts, then capacity blocks (inside their "
         "window), take the overflow before the cloud offer; a savings plan pays for the on-demand usage it covers. "
         "Each is paid whether used or not (in the cloud_reserved category). Committed, used and unused are in "
         "dollars of the commitment (a savings plan's used: the covered instance-hours at its rates); GPU-hours "
         "are n/a for a savings plan over venues whose rates per GPU-hour differ.</p>\n";
}

}  // namespace tco
