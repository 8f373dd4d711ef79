// The forward reserved price implied by each cloud offer's 1-year / 3-year pair, as the JSON
// report writes it beside the price schedules (`pricing.implied_forwards`, docs/report.md;
// the formula in models/price_path/implied_forward.hpp). One entry per offer of the scenario's
// plans that has both prices, in plan order; an empty array when none has.
// Example: P1 = $12/h, P3 = $10/h, r = 0: F = (3 x 10 - 12) / 2 = $9/h, 25% below P1.
#pragma once

#include "core/io/json_reader.hpp"
#include "models/scenario.hpp"

namespace tco {

Json implied_forwards_json(const Scenario& s);

}  // namespace tco
