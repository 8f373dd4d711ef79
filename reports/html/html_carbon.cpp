#include "reports/html/html_carbon.hpp"

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/carbon_markdown.hpp"
#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string carbon_section(const Json& report) {
  std::string out =
      "<h2>CO2 per plan</h2>\n<table><tr><th>plan</th><th>on-prem grid</th><th>embodied</th><th>cloud</th><th>carbon "
      "price</th></tr>\n";
  for (const auto& p : report.at("plans")) {
    const Json& co2 = p.at("co2_kg");
    const Json embodied = co2.value("embodied", Json(nullptr));
    const double carbon_usd = p.at("breakdown_nominal_usd").value("carbon", 0.0);
    out += fmt::format("<tr><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>\n",
                       html_escape(p.at("name").get<std::string>()), html_escape(tonnes_words(co2.at("onprem"))),
                       html_escape(embodied.is_number() ? tonnes_words(embodied) : std::string("n/a")),
                       html_escape(tonnes_words(co2.at("cloud"))),
                       carbon_usd != 0.0 ? format_usd(carbon_usd) : std::string("none set"));
  }
  return out + "</table>\n<p class=note>Tonnes over the horizon. On-prem: facility kWh x the grid's g CO2/kWh; "
               "embodied: the servers' manufacturing CO2 spread over their depreciation life; cloud: GPU-hours x "
               "GPU kW x the provider's PUE x its grid's intensity, where the offer gives both.</p>\n";
}

}  // namespace tco
