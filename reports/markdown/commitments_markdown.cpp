#include "reports/markdown/commitments_markdown.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string format_gpu_hours(const Json& value) {
  if (value.is_null()) return "n/a";
  // The USD grouping without its sign and "$": the same thousands separators.
  const std::string usd = format_usd(value.get<double>());
  return usd.rfind('$', 0) == 0 ? usd.substr(1) : usd;
}

std::string commitments_markdown(const Json& report) {
  std::string md;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("commitments")) continue;
    for (const auto& c : plan.at("commitments"))
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", plan.at("name").get<std::string>(),
                        c.at("name").get<std::string>(), c.at("kind").get<std::string>(),
                        format_usd(c.at("committed_usd")), format_usd(c.at("used_usd")),
                        format_usd(c.at("unused_usd")), format_gpu_hours(c.at("committed_gpu_hours")),
                        format_gpu_hours(c.at("used_gpu_hours")), format_gpu_hours(c.at("unused_gpu_hours")));
  }
  if (md.empty()) return md;
  return "\n**Commitments** (capacity bought ahead and paid whether used or not; booked as cloud_reserved; "
         "committed, used and unused in dollars of the commitment, and in GPU-hours where one rate applies):\n\n"
         "| plan | instrument | kind | committed | used | unused | committed GPU-h | used GPU-h | unused GPU-h |\n"
         "|---|---|---|---:|---:|---:|---:|---:|---:|\n" +
         md;
}

}  // namespace tco
