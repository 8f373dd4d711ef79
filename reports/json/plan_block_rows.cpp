#include "reports/json/plan_block_rows.hpp"

namespace tco {

std::vector<Json> plan_block_rows(const Json& report, const std::string& block, const std::vector<std::string>& columns) {
  std::vector<Json> rows;
  for (const auto& p : report.at("plans")) {
    if (!p.contains(block)) continue;
    Json line = Json::array({p.at("name")});
    for (std::size_t c = 1; c < columns.size(); ++c) line.push_back(p.at(block).at(columns[c]));
    rows.push_back(std::move(line));
  }
  return rows;
}

}  // namespace tco
