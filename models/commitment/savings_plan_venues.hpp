#pragma once

#include <string>
#include <vector>

#include "models/commitment/commitment.hpp"
#include "models/venues/cloud_venue.hpp"

namespace tco {

// Capacity blocks and take-or-pay contracts come before a plan's venues. A savings plan covers one
// provider's on-demand usage: beside venues it names the on-demand venue it covers (`venue`), and
// its rate is below that venue's on-demand price; without venues it covers the plan's own offer.
// A savings plan's venue(s) in a plan with venues: each an on-demand venue of the plan, at a rate
// at or below its price. The venues are then put in the order the commitment reaches them
// (highest discount first, ties as written; models/commitment/savings_plan.hpp), and `venue` and
// usd_per_instance_hour name the first.
// `commitments_pointer` is the plan's /commitments pointer, for messages.
void check_savings_plan_venue(std::vector<Commitment>& commitments, const std::vector<CloudVenue>& venues,
                              const std::string& file, const std::string& commitments_pointer);

}  // namespace tco
