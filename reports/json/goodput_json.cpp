#include "reports/json/goodput_json.hpp"

namespace tco {

Json goodput_json(const GoodputFigures& g, int spare_nodes) {
  return {{"goodput", g.goodput},
          {"useful_gpu_hours", g.useful_gpu_hours},
          {"lost_gpu_hours", g.lost_gpu_hours},
          {"repair_wait_gpu_hours", g.repair_wait_gpu_hours},
          {"node_failures", g.node_failures},
          {"spare_swaps", g.spare_swaps},
          {"spare_nodes", spare_nodes}};
}

const std::vector<std::string>& goodput_columns() {
  static const std::vector<std::string> columns = {
      "plan", "spare_nodes", "goodput", "goodput_path_mean", "goodput_ci95_low", "goodput_ci95_high",
      "useful_gpu_hours", "lost_gpu_hours", "repair_wait_gpu_hours", "node_failures", "spare_swaps",
      "repair_usd"};
  return columns;
}

std::vector<Json> goodput_rows(const Json& report) {
  std::vector<Json> rows;
  const Json* mc_plans = report.contains("monte_carlo") && report.at("monte_carlo").contains("plans")
                             ? &report.at("monte_carlo").at("plans")
                             : nullptr;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("goodput")) continue;
    const Json& g = p.at("goodput");
    // The per-path statistics sit beside the plan's NPV statistics; a report always has them for
    // a plan with goodput (it comes from the replay), the plan's own figure otherwise.
    Json stats = {{"mean", g.at("goodput")}, {"ci95_low", g.at("goodput")}, {"ci95_high", g.at("goodput")}};
    if (mc_plans)
      for (const auto& m : *mc_plans)
        if (m.at("name") == p.at("name") && m.contains("goodput")) stats = m.at("goodput");
    rows.push_back(Json::array({p.at("name"), g.at("spare_nodes"), g.at("goodput"), stats.at("mean"),
                                stats.at("ci95_low"), stats.at("ci95_high"), g.at("useful_gpu_hours"),
                                g.at("lost_gpu_hours"), g.at("repair_wait_gpu_hours"), g.at("node_failures"),
                                g.at("spare_swaps"), p.at("breakdown_nominal_usd").value("repair", 0.0)}));
  }
  return rows;
}

}  // namespace tco
