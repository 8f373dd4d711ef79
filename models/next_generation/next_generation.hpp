// The next-generation event (`next_generation`, docs/scenario.md; docs/model.md "Next
// generation"): at the start of arrival_month a successor GPU ramps, and the predecessor's
// market moves for every plan that rents or owns it:
//   its on-demand, spot and reserved prices x rental_price_step_factor from that month on (a
//   reserved term keeps the price fixed when it started), and
//   its resale value x resale_step_factor for a sale from that month on (the residual at the
//   horizon's end, when the arrival is inside the horizon).
// Example: H100 rentals step by 0.7 and used H100 boards by 0.55 (over $40k to $22-25k) in month 18.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/next_generation/next_generation_spec.hpp"
#include "models/scenario.hpp"

namespace tco {

NextGenerationSpec parse_next_generation(JsonObjectReader& r);

// Puts the steps on the plans whose cloud offer or owned server carries the predecessor GPU;
// throws InputError at /next_generation/predecessor_gpu when no plan does (a typo would
// otherwise change nothing, silently).
void apply_next_generation(const NextGenerationSpec& spec, const std::string& file, std::vector<Plan>& plans);

}  // namespace tco
