// CO2 per plan (docs/report.md, `co2_kg`): the on-prem grid's, the servers' embodied share inside
// the horizon, the cloud's where its offer gives a PUE and a grid intensity ("n/a" otherwise,
// never a guessed 0), and the carbon price's cost.
#include "reports/document/report_section.hpp"

namespace tco {

Section carbon_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"on-prem grid", "co2_onprem_kg"},
                        {"embodied", "co2_embodied_kg"},
                        {"cloud", "co2_cloud_kg"},
                        {"carbon price", "carbon_usd"}},
                       "carbon.csv");
  for (const auto& p : report.at("plans")) {
    // A report written before embodied CO2 and the carbon category has neither (tcosim report OLD.json).
    const Json& co2 = p.at("co2_kg");
    const Json& carbon_usd = p.at("breakdown_nominal_usd").value("carbon", Json(0.0));
    Cell cloud = co2_kg_cell(co2.at("cloud"));
    if (!cloud.has_number()) cloud = shown_as(cloud, "n/a (the offer gives no PUE or grid intensity)");
    Cell carbon = usd_cell(carbon_usd);
    if (carbon.number() == 0.0) carbon = shown_as(carbon, "none set");
    t.rows.push_back({{text_cell(p.at("name")), co2_kg_cell(co2.at("onprem")),
                       co2_kg_cell(co2.value("embodied", Json(nullptr))), cloud, carbon}});
  }
  return make_section(
      "carbon", "CO2 per plan",
      "tonnes over the horizon: on-prem = facility kWh x the grid's g CO2/kWh; embodied = the servers' "
      "manufacturing CO2 spread over their life; cloud = GPU-hours x GPU kW x the provider's PUE x its grid's "
      "intensity",
      {t});
}

}  // namespace tco
