// An ordered list of cloud venues a plan bursts to after its owned nodes and reserved
// capacity (issue #24): a neocloud first, then a hyperscaler, then spot. Each venue rents one
// offer at one price kind and may say no:
//   availability a  in (0, 1]: the probability a request finds capacity (drawn per request in
//                    a Monte Carlo, its expectation in the deterministic run);
//   quota_gpus Q    the GPUs the venue lets the plan hold at once (whole instances:
//                    floor(Q / GPUs per instance) of them); absent = no cap;
//   provisioning_delay_h  billed for every instance newly launched (default: the offer's startup_h).
// The formulas are in engine/ledger/hourly/venue_hour.hpp (docs/model.md §3b). Example: "lambda H100,
// on_demand, a 0.9, Q 64" rents at most 8 instances of 8 GPUs at $23.92 an instance-hour.
#pragma once

#include <optional>
#include <string>

#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"

namespace tco {

struct CloudVenue {
  enum class PriceKind { on_demand, spot };
  std::string name;
  CloudOffer offer;
  GpuModel gpu;
  PriceKind price = PriceKind::on_demand;
  double availability = 1.0;
  std::optional<double> quota_gpus;
  double provisioning_delay_h = 0.0;

  double usd_per_instance_hour() const {
    return price == PriceKind::spot ? offer.spot_usd_per_hour.value_or(0.0) : offer.on_demand_usd_per_hour;
  }
  // Whole instances the quota allows; absent = no cap.
  std::optional<double> quota_instances() const;
};

const char* to_string(CloudVenue::PriceKind kind);

// The venue's own fields (name, price, availability, quota_gpus, provisioning_delay_h) from
// `r`, whose offer and GPU the caller has resolved into `venue`; checks that the offer has the
// price kind's price. Leaves "offer" and "gpu" to the caller.
void parse_venue_terms(JsonObjectReader& r, CloudVenue& venue);

// The resolved venue for the report's inputs, the offer given as `offer_json`.
Json venue_json(const CloudVenue& venue, Json offer_json);

}  // namespace tco
