// What a loaded scenario warns about (`validate`, the report's warnings): a spot price above
// on-demand, a reserved term past the horizon, an implied forward price of zero or less, a
// catalog record more than a year older than the start; and the provenance of figures no plan uses.
#pragma once

#include <string>

#include "models/scenario.hpp"

namespace tco {

void add_plan_warnings(Scenario& s, const Plan& plan, const std::string& pointer);

// One warning per offer whose 1-year / 3-year pair implies a forward of zero or less, at the
// first plan that uses it.
void add_implied_forward_warnings(Scenario& s);

void add_provenance_warnings(Scenario& s);

// A cloud offer's capacity-block rate is used only by a plan that books a block at it; the
// offer's other figures are used by every plan that names the offer (its prices by the plans,
// the breakevens and the implied forward).
void drop_unused_figures(Scenario& s);

}  // namespace tco
