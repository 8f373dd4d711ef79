#include "models/venues/cloud_venue.hpp"

#include <cmath>

#include "core/error.hpp"
#include "models/input_limits.hpp"

namespace tco {

std::optional<double> CloudVenue::quota_instances() const {
  if (!quota_gpus) return std::nullopt;
  return std::floor(*quota_gpus / offer.gpus_per_instance);
}

const char* to_string(CloudVenue::PriceKind kind) { return kind == CloudVenue::PriceKind::spot ? "spot" : "on_demand"; }

void parse_venue_terms(JsonObjectReader& r, CloudVenue& v) {
  v.name = r.string("name");
  if (v.name.empty()) r.fail("name", "a non-empty venue name", &r.value("name"));
  v.price = r.choice_or("price", {"on_demand", "spot"}, "on_demand") == "spot" ? CloudVenue::PriceKind::spot
                                                                               : CloudVenue::PriceKind::on_demand;
  if (v.price == CloudVenue::PriceKind::spot && !v.offer.spot_usd_per_hour)
    r.fail("price", "\"on_demand\": the offer \"" + v.offer.provenance.id + "\" has no spot price", &r.value("price"));
  v.availability = r.number_or("availability", 1.0, Bounds{0.0, 1.0, true});
  v.quota_gpus = r.optional_number("quota_gpus", limits::kGpus);
  if (v.quota_gpus && *v.quota_gpus > 0.0 && *v.quota_gpus < v.offer.gpus_per_instance)
    r.fail("quota_gpus",
           "0 or at least one instance's GPUs (" + std::to_string(v.offer.gpus_per_instance) + ") of the offer \"" +
               v.offer.provenance.id + "\"",
           &r.value("quota_gpus"));
  v.provisioning_delay_h = r.number_or("provisioning_delay_h", v.offer.startup_h, limits::kHours);
}

Json venue_json(const CloudVenue& v, Json offer_json) {
  return {{"name", v.name},
          {"offer", std::move(offer_json)},
          {"price", to_string(v.price)},
          {"availability", v.availability},
          {"quota_gpus", v.quota_gpus ? Json(*v.quota_gpus) : Json(nullptr)},
          {"provisioning_delay_h", v.provisioning_delay_h}};
}

}  // namespace tco
