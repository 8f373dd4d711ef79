#include "reports/json/implied_forward_json.hpp"

#include <set>
#include <string>

#include "models/price_path/implied_forward.hpp"

namespace tco {

Json implied_forwards_json(const Scenario& s) {
  Json out = Json::array();
  std::set<std::string> seen;
  for (const Plan& plan : s.plans) {
    if (!plan.cloud) continue;
    const CloudOffer& offer = plan.cloud->offer;
    if (!has_implied_forward(offer.reserved_1y_usd_per_hour, offer.reserved_3y_usd_per_hour)) continue;
    if (!seen.insert(offer.provenance.id).second) continue;
    const double p1 = *offer.reserved_1y_usd_per_hour, p3 = *offer.reserved_3y_usd_per_hour;
    const double forward = implied_forward_usd_per_hour(p1, p3, s.discount_rate_per_year);
    out.push_back({{"offer", offer.provenance.id},
                   {"reserved_1y_usd_per_instance_hour", p1},
                   {"reserved_3y_usd_per_instance_hour", p3},
                   {"discount_rate_per_year", s.discount_rate_per_year},
                   {"implied_forward_usd_per_instance_hour", forward},
                   {"implied_forward_usd_per_gpu_hour", forward / offer.gpus_per_instance},
                   {"forward_change_vs_1y", forward / p1 - 1.0}});
  }
  return out;
}

}  // namespace tco
