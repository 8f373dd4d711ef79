#include "reports/markdown/carbon_markdown.hpp"

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string tonnes_words(const Json& kg) {
  if (!kg.is_number()) return "n/a (the offer gives no PUE or grid intensity)";
  return fmt::format("{:.1f} t", kg.get<double>() / 1000.0);
}

std::string carbon_markdown(const Json& report) {
  std::string md =
      "\n**CO2 per plan** (tonnes over the horizon: on-prem = facility kWh x the grid's g CO2/kWh; embodied = the "
      "servers' manufacturing CO2 spread over their life; cloud = GPU-hours x GPU kW x the provider's PUE x its "
      "grid's intensity):\n\n| plan | on-prem grid | embodied | cloud | carbon price |\n|---|---:|---:|---:|---:|\n";
  for (const auto& p : report.at("plans")) {
    // A report written before embodied CO2 and the carbon category has neither (tcosim report OLD.json).
    const Json& co2 = p.at("co2_kg");
    const Json embodied = co2.value("embodied", Json(nullptr));
    const double carbon_usd = p.at("breakdown_nominal_usd").value("carbon", 0.0);
    md += fmt::format("| {} | {} | {} | {} | {} |\n", p.at("name").get<std::string>(), tonnes_words(co2.at("onprem")),
                      embodied.is_number() ? tonnes_words(embodied) : std::string("n/a"), tonnes_words(co2.at("cloud")),
                      carbon_usd != 0.0 ? format_usd(carbon_usd) : std::string("none set"));
  }
  return md;
}

}  // namespace tco
