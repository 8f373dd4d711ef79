// What a next-generation event (models/next_generation/) does to each plan: the hourly fluid
// model's deterministic run with the event minus the same run without it, per plan:
//   effect = NPV(with the predecessor's price and resale steps) - NPV(without)
// positive = the event costs the plan money (an owner's resale loss), negative = it saves (a
// renter's cheaper prices). Example (docs/model.md "Next generation"): 12 months, arrival month 6,
// rent x0.7, resale x0.55: the renter's effect is -$42,048, the owner's of two $200k nodes +$126,000.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/scenario.hpp"

namespace tco {

struct NextGenerationPlanEffect {
  std::string plan;
  double npv_usd = 0.0;                  // with the event
  double npv_without_event_usd = 0.0;
  double npv_effect_usd = 0.0;           // npv_usd - npv_without_event_usd
  double residual_effect_usd = 0.0;      // of which the resale step (NPV of the residual)
};

// One entry per plan, in the scenario's order; nullopt without an event or without an hourly
// workload (a scenario of jobs alone: the replay's paths carry the event, the figure does not).
std::optional<std::vector<NextGenerationPlanEffect>> next_generation_effects(const Scenario& scenario);

// The scenario with every step of its event removed (the counterfactual above).
Scenario without_next_generation(const Scenario& scenario);

}  // namespace tco
