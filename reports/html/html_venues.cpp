#include "reports/html/html_venues.hpp"

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/venues_markdown.hpp"

namespace tco {

std::string venues_section(const Json& report) {
  std::string rows;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("venues")) continue;
    const Json& venues = plan.at("venues");
    const std::string name = html_escape(plan.at("name").get<std::string>());
    int order = 1;
    for (const auto& v : venues.at("list"))
      rows += fmt::format("<tr><td>{}</td><td>{}. {}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td>"
                          "<td class=n>{}</td></tr>\n",
                          name, order++, html_escape(v.at("name").get<std::string>()),
                          html_escape(v.at("price").get<std::string>()), gpu_hours_words(v.at("work_gpu_hours")),
                          gpu_hours_words(v.at("billed_gpu_hours")), html_escape(venue_cost_words(v)));
    rows += fmt::format("<tr><td>{}</td><td>no venue: waited / unserved</td><td></td><td class=n>{} / {}</td>"
                        "<td></td><td></td></tr>\n",
                        name, gpu_hours_words(venues.at("waited_gpu_hours")),
                        gpu_hours_words(venues.at("unserved_gpu_hours")));
  }
  if (rows.empty()) return rows;
  return "<h2>Cloud venues</h2>\n<table><tr><th>plan</th><th>venue</th><th>price</th><th>work served</th>"
         "<th>billed</th><th>cost (nominal)</th></tr>\n" +
         rows +
         "</table>\n<p class=note>Venues in each plan's order after owned and reserved capacity; work in reference "
         "GPU-hours. Waited: GPU-hours of work that found no venue, summed over the hours it waited (costed at "
         "waiting_usd_per_gpu_hour); unserved: still waiting at the horizon's end.</p>\n";
}

}  // namespace tco
