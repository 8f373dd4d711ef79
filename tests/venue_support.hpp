// Venue entries for tests of a plan's `venues` on the fixture catalog (tests/scenario_builder.hpp):
// the "neocloud" is test/gpu8/region-a at $10/h on-demand, the "hyperscaler" the record itself
// ($16/h on-demand, $8/h spot); both start instances at once. `extra` adds or replaces fields.
// venue() reads a plan result's figures for one venue.
#pragma once

#include <string>

#include <doctest/doctest.h>

#include "scenario_builder.hpp"

namespace tco::test {

inline Json neocloud(const Json& extra = Json::object()) {
  Json v = {{"name", "neocloud"},
            {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", 10.0}}},
            {"provisioning_delay_h", 0}};
  v.update(extra);
  return v;
}

inline Json hyperscaler(const Json& extra = Json::object()) {
  Json v = {{"name", "hyperscaler"}, {"offer", "test/gpu8/region-a"}, {"provisioning_delay_h", 0}};
  v.update(extra);
  return v;
}

// Plan r's figures for its venue `name` (fails the test when it has none).
inline const VenueTotals& venue(const PlanResult& r, const std::string& name) {
  for (const auto& v : r.venues)
    if (v.name == name) return v.totals;
  FAIL("no venue " << name << " in plan " << r.name);
  return r.venues.front().totals;
}

}  // namespace tco::test
