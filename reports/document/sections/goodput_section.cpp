// Goodput (docs/report.md, `goodput`): per owned plan with spares, the pool's useful share of its
// GPU-hours, the per-path mean with its 95% interval, what failures cost, from the replay.
#include <fmt/format.h>

#include "reports/document/cell_text.hpp"
#include "reports/document/report_section.hpp"
#include "reports/json/goodput_json.hpp"

namespace tco {

Section goodput_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"spares", "spare_nodes"},
                        {"goodput", "goodput"},
                        {"per-path mean [95% CI]", "", Shown::human},
                        {"", "goodput_path_mean", Shown::csv},
                        {"", "goodput_ci95_low", Shown::csv},
                        {"", "goodput_ci95_high", Shown::csv},
                        {"useful GPU-h", "useful_gpu_hours"},
                        {"lost GPU-h", "lost_gpu_hours"},
                        {"repair wait GPU-h", "repair_wait_gpu_hours"},
                        {"failures", "node_failures"},
                        {"spare swaps", "spare_swaps"},
                        {"repair cost", "repair_usd"}},
                       "goodput.csv");
  for (const Json& r : goodput_rows(report)) {  // in goodput_columns() order
    const Cell mean = percent_cell(r.at(3), 2), low = percent_cell(r.at(4), 2), high = percent_cell(r.at(5), 2);
    t.rows.push_back({{text_cell(r.at(0)), count_cell(r.at(1)), percent_cell(r.at(2), 2),
                       text_cell(fmt::format("{} [{}, {}]", cell_text(mean), cell_text(low), cell_text(high))), mean,
                       low, high, gpu_hours_cell(r.at(6)), gpu_hours_cell(r.at(7)), gpu_hours_cell(r.at(8)),
                       count_cell(r.at(9), 1), count_cell(r.at(10), 1), usd_cell(r.at(11))}});
  }
  return make_section(
      "goodput", "Goodput",
      "the on-prem pool's useful GPU-hours / (useful + lost to node failures + waiting for a repair or a spare), "
      "means per path from the replay; lost is the work node failures undid (since the last checkpoint), repair "
      "wait the GPU-hours failed nodes' places stood empty; docs/model.md \"Spares and goodput\"",
      {t});
}

}  // namespace tco
