#include "reports/json/venues_json.hpp"

namespace tco {

Json venues_json(const PlanResult& r) {
  Json list = Json::array();
  for (const VenueFigures& v : r.venues) {
    list.push_back({{"name", v.name},
                    {"price", v.price},
                    {"work_gpu_hours", v.totals.work_gpu_hours},
                    {"billed_gpu_hours", v.totals.billed_gpu_hours},
                    {"cost_nominal_usd", v.totals.cost_usd},
                    {"instance_hours", v.totals.instance_hours},
                    {"launched_instances", v.totals.launched_instances}});
    // The hourly model's months (the FOCUS export's rows per venue); a replay keeps the horizon's only.
    if (!v.cost_usd_by_month.empty()) {
      list.back()["billed_gpu_hours_by_month"] = v.billed_gpu_hours_by_month;
      list.back()["cost_usd_by_month"] = v.cost_usd_by_month;
    }
  }
  return {{"list", list},
          {"waited_gpu_hours", r.gpu_hours.waited},
          {"unserved_gpu_hours", r.gpu_hours.unserved}};
}

}  // namespace tco
