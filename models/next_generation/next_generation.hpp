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

// True when the event steps one of the plan's prices (its cloud offer's or its resale value).
bool stepped_by_next_generation(const Plan& plan);

// Moves the plan's steps to arrival_month (a path's drawn month; the factors stay).
void move_next_generation(Plan& plan, int arrival_month);
Scenario with_arrival_month(const Scenario& scenario, int arrival_month);

}  // namespace tco
