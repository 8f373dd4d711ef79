#include "reports/markdown/goodput_markdown.hpp"

#include <fmt/format.h>

#include "reports/json/goodput_json.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/markdown/table_rows.hpp"

namespace tco {

std::vector<std::string> goodput_cells(const Json& r) {
  auto percent = [&r](int c) { return fmt::format("{:.2f}%", 100.0 * r.at(c).get<double>()); };
  auto gpu_hours = [&r](int c) { return fmt::format("{:.0f}", r.at(c).get<double>()); };
  return {r.at(0).get<std::string>(),
          fmt::format("{}", r.at(1).get<int>()),
          percent(2),
          fmt::format("{} [{}, {}]", percent(3), percent(4), percent(5)),
          gpu_hours(6),
          gpu_hours(7),
          gpu_hours(8),
          fmt::format("{:.1f}", r.at(9).get<double>()),
          fmt::format("{:.1f}", r.at(10).get<double>()),
          format_usd(r.at(11))};
}

std::string goodput_markdown(const Json& report) {
  const std::string md = markdown_table_rows(goodput_rows(report), goodput_cells);
  if (md.empty()) return md;
  return "\n**Goodput** (the on-prem pool's useful GPU-hours / (useful + lost to node failures + waiting for a "
         "repair or a spare), means per path from the replay; docs/model.md \"Spares and goodput\"):\n\n"
         "| plan | spares | goodput | per-path mean [95% CI] | useful GPU-h | lost GPU-h | repair wait GPU-h | "
         "failures | spare swaps | repair cost |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" +
         md;
}

}  // namespace tco
