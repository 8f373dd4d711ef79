#include "models/price_path/price_schedules_reader.hpp"

#include "core/error.hpp"

namespace tco {

CloudPriceSchedules parse_price_schedules(JsonObjectReader& r, const CloudOffer& offer, const Date& start) {
  CloudPriceSchedules out;
  const double gpus = offer.gpus_per_instance;
  if (r.has("on_demand")) {
    JsonObjectReader kr = r.object("on_demand");
    out.on_demand = parse_price_schedule(kr, start, offer.on_demand_usd_per_hour / gpus);
  }
  if (r.has("spot")) {
    JsonObjectReader kr = r.object("spot");
    if (!offer.spot_usd_per_hour)
      throw InputError(r.file(), r.pointer_of("spot"), "expected no spot schedule: the offer \"" + offer.provenance.id +
                                                           "\" has no spot price");
    out.spot = parse_price_schedule(kr, start, *offer.spot_usd_per_hour / gpus);
  }
  if (r.has("reserved")) {
    JsonObjectReader kr = r.object("reserved");
    out.reserved = parse_price_schedule(kr, start, std::nullopt);
  }
  r.finish();
  return out;
}

}  // namespace tco
