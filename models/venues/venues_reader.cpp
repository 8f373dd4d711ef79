#include "models/venues/venues_reader.hpp"

#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/cloud/cloud_reader.hpp"
#include "models/venues/venue_limit.hpp"

namespace tco {

std::vector<CloudVenue> parse_venues(JsonObjectReader& r, RecordResolver& resolver) {
  const Json& list = r.value("venues");
  if (!list.is_array() || list.empty() || list.size() > static_cast<std::size_t>(kMaxVenuesPerPlan))
    r.fail("venues", fmt::format("a non-empty array of at most {} cloud venues", kMaxVenuesPerPlan), &list);
  std::vector<CloudVenue> venues;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string pointer = r.pointer_of("venues") + "/" + std::to_string(i);
    if (!list[i].is_object()) throw InputError(r.file(), pointer, "expected a venue object, found " + list[i].dump());
    JsonObjectReader vr(list[i], r.file(), pointer);
    CloudVenue v;
    v.offer = resolver.resolve<CloudOffer>("cloud_offer", vr.value("offer"), vr.pointer_of("offer"), parse_cloud_offer);
    refuse_zero_reserved_prices(vr.value("offer"), r.file(), vr.pointer_of("offer"));
    v.gpu = resolve_gpu(resolver, vr, v.offer.gpu_model, vr.pointer_of("offer"));
    parse_venue_terms(vr, v);
    vr.finish();
    if (!names.insert(v.name).second)
      throw InputError(r.file(), pointer + "/name", "expected a unique venue name, found \"" + v.name + "\" twice");
    venues.push_back(std::move(v));
  }
  return venues;
}

}  // namespace tco
