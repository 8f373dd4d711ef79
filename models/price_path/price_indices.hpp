// A scenario's named GPU rental price indices (issue 48 item 3; docs/scenario.md "price_indices"),
// and the plan that rents at one of them ("price_index": "name"):
//   a series   {"interpolation"?, "points": [{"date", "usd_per_gpu_hour", "source"?}]}, as
//              `pricing import --format price-index` writes it: the plan's on-demand price per
//              GPU-hour is the series (its cloud.price_schedule.on_demand; docs/model.md §4)
//   a basis    {"follows": "a series", "basis_usd_per_gpu_hour": b}: index(t) = series(t) + b, every
//              point's price plus b (b may be negative; every sum must stay above $0)
// The basis is a number of the scenario, so `uncertain` may draw it like any other input
// ("pointer": "/price_indices/NAME/basis_usd_per_gpu_hour"). A basis of 0 gives the followed
// series' prices bit for bit; a fixed basis b moves a plan's on-demand bill by b x its billed
// on-demand GPU-hours.
// Example: series "a" at $2.00 from the start, "b" follows "a" with basis -0.25: a plan at "b"
// pays $1.75 per on-demand GPU-hour; 100,000 GPU-hours bill $25,000 less than at "a".
#pragma once

#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"

namespace tco {

struct PriceIndex {
  std::string name;
  std::string follows;                  // "" for a series
  double basis_usd_per_gpu_hour = 0.0;  // a basis index's b
  Json schedule;                        // {"interpolation", "points"} in USD per GPU-hour, b added
};

struct PriceIndices {
  std::vector<PriceIndex> indices;  // in the scenario's key order
  const PriceIndex* find(const std::string& name) const;
  std::string names() const;  // "\"a\", \"b\"" for messages
};

// Reads "/price_indices". Throws InputError naming the pointer: an entry that is neither a series
// nor a basis, points that are not usd_per_gpu_hour points (or fail the schedule's own rules), a
// basis that follows an unknown index or another basis, a basis that leaves a price at or below $0
// or above the USD-per-GPU-hour ceiling.
PriceIndices parse_price_indices(const Json& section, const std::string& file, const Date& start);

// The plan object `plan` (at `pointer`) with its "price_index" turned into its cloud patch's
// price_schedule.on_demand, the key itself removed. Throws InputError at pointer/price_index for an
// unknown name, a plan whose own cloud patch writes an on-demand schedule, or a plan with venues
// (their prices follow price_change_per_year). A plan without "price_index" is returned as it is.
Json plan_at_price_index(const Json& plan, const PriceIndices& indices, const std::string& file,
                         const std::string& pointer);

}  // namespace tco
