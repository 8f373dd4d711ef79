#include "reports/markdown/venues_markdown.hpp"

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

std::string venue_cost_words(const Json& v) {
  if (v.at("work_gpu_hours").get<double>() <= 0.0 && v.at("billed_gpu_hours").get<double>() <= 0.0)
    return "nothing served";
  return format_usd(v.at("cost_nominal_usd"));
}

std::string gpu_hours_words(const Json& gpu_hours) {
  return gpu_hours.is_number() ? fmt::format("{:.0f} GPU-h", gpu_hours.get<double>()) : std::string("n/a");
}

std::string venues_markdown(const Json& report) {
  std::string md;
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("venues")) continue;
    const Json& venues = plan.at("venues");
    const std::string name = plan.at("name").get<std::string>();
    int order = 1;
    for (const auto& v : venues.at("list"))
      md += fmt::format("| {} | {}. {} | {} | {} | {} | {} |\n", name, order++, v.at("name").get<std::string>(),
                        v.at("price").get<std::string>(), gpu_hours_words(v.at("work_gpu_hours")),
                        gpu_hours_words(v.at("billed_gpu_hours")), venue_cost_words(v));
    md += fmt::format("| {} | no venue: waited / unserved | | {} / {} | | |\n", name,
                      gpu_hours_words(venues.at("waited_gpu_hours")), gpu_hours_words(venues.at("unserved_gpu_hours")));
  }
  if (md.empty()) return md;
  return "\n**Cloud venues** (in each plan's order after owned and reserved capacity; work in reference GPU-hours; "
         "waited: GPU-hours of work that found no venue, summed over the hours it waited; unserved: still waiting at "
         "the end):\n\n"
         "| plan | venue | price | work served | billed | cost (nominal) |\n|---|---|---|---:|---:|---:|\n" +
         md;
}

}  // namespace tco
