// Commitments (docs/report.md, `commitments`): per instrument what was committed, used and left
// unused, in dollars of the commitment and in GPU-hours where one rate applies ("n/a" otherwise).
#include <string>

#include "reports/document/report_section.hpp"
#include "reports/json/commitments_json.hpp"

namespace tco {

Section commitments_section(const Json& report) {
  static const char* const kHeaders[] = {
      "instrument",      "kind",       "committed",    "used",           "unused",
      "committed GPU-h", "used GPU-h", "unused GPU-h", "cost (nominal)", "cost (NPV)"};
  Table t = make_table({{"plan", "plan"}}, "commitments.csv");
  for (std::size_t k = 0; k < kCommitmentFigureKeys.size(); ++k)
    // The nominal cost is the committed dollars again: the CSV keeps it, the tables show it once.
    t.columns.push_back({kHeaders[k], std::string(kCommitmentFigureKeys[k]),
                         kCommitmentFigureKeys[k] == "cost_nominal_usd" ? Shown::csv : Shown::everywhere});
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("commitments")) continue;
    for (const auto& c : plan.at("commitments")) {
      Row row{{text_cell(plan.at("name"))}};
      for (const std::string_view key : kCommitmentFigureKeys) {
        const Json& v = c.at(std::string(key));
        row.cells.push_back(key.ends_with("_usd")         ? usd_cell(v)
                            : key.ends_with("_gpu_hours") ? gpu_hours_cell(v)
                                                          : text_cell(v));
      }
      t.rows.push_back(std::move(row));
    }
  }
  return make_section(
      "commitments", "Commitments",
      "capacity bought ahead and paid whether used or not, booked as cloud_reserved: take-or-pay contracts, then "
      "capacity blocks (inside their window), take the overflow before the cloud offer; a savings plan pays for "
      "the on-demand usage it covers. Committed, used and unused in dollars of the commitment (a savings plan's "
      "used: the covered instance-hours at its rates), and in GPU-hours where one rate applies",
      {t});
}

}  // namespace tco
