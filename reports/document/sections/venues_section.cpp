// Cloud venues (docs/report.md, `venues`): per plan, each venue in its order with the work it
// served, the GPU-hours billed and their cost; then the work no venue took.
#include <fmt/format.h>

#include "reports/document/report_section.hpp"

namespace tco {

Section venues_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"venue", "", Shown::human},
                        {"", "order", Shown::csv},
                        {"", "venue", Shown::csv},
                        {"price", "price"},
                        {"work served (GPU-h)", "work_gpu_hours"},
                        {"billed (GPU-h)", "billed_gpu_hours"},
                        {"cost (nominal)", "cost_nominal_usd"},
                        {"", "instance_hours", Shown::csv},
                        {"", "launched_instances", Shown::csv},
                        {"", "plan_waited_gpu_hours", Shown::csv},
                        {"", "plan_unserved_gpu_hours", Shown::csv}},
                       "venues.csv");
  for (const auto& plan : report.at("plans")) {
    if (!plan.contains("venues")) continue;
    const Json& venues = plan.at("venues");
    const Cell name = text_cell(plan.at("name"));
    const Cell waited = gpu_hours_cell(venues.at("waited_gpu_hours"));
    const Cell unserved = gpu_hours_cell(venues.at("unserved_gpu_hours"));
    int order = 1;
    for (const auto& v : venues.at("list")) {
      Cell cost = usd_cell(v.at("cost_nominal_usd"));
      if (v.at("work_gpu_hours").get<double>() <= 0.0 && v.at("billed_gpu_hours").get<double>() <= 0.0)
        cost = shown_as(cost, "nothing served");
      t.rows.push_back(
          {{name, text_cell(fmt::format("{}. {}", order, v.at("name").get<std::string>())), count_cell(order),
            text_cell(v.at("name")), text_cell(v.at("price")), gpu_hours_cell(v.at("work_gpu_hours")),
            gpu_hours_cell(v.at("billed_gpu_hours")), cost, count_cell(v.at("instance_hours")),
            count_cell(v.at("launched_instances")), waited, unserved}});
      ++order;
    }
    const Cell none = text_cell(Json(nullptr));
    t.rows.push_back(
        {{name, text_cell("no venue: waited"), none, none, none, waited, none, none, none, none, none, none}, true});
    t.rows.push_back({{name, text_cell("no venue: unserved at the end"), none, none, none, unserved, none, none, none,
                       none, none, none},
                      true});
  }
  return make_section(
      "venues", "Cloud venues",
      "in each plan's order after owned and reserved capacity; work in reference GPU-hours; waited: GPU-hours of "
      "work that found no venue, summed over the hours it waited (costed at waiting_usd_per_gpu_hour); unserved: "
      "still waiting at the horizon's end",
      {t});
}

}  // namespace tco
