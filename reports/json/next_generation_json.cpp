#include "reports/json/next_generation_json.hpp"

#include "engine/decisions/next_generation_effect.hpp"

namespace tco {

Json next_generation_json(const Scenario& s) {
  const auto effects = next_generation_effects(s);
  if (!effects) return Json();
  Json plans = Json::array();
  for (const NextGenerationPlanEffect& e : *effects)
    plans.push_back({{"plan", e.plan},
                     {"npv_usd", e.npv_usd},
                     {"npv_without_event_usd", e.npv_without_event_usd},
                     {"npv_effect_usd", e.npv_effect_usd},
                     {"residual_npv_effect_usd", e.residual_effect_usd}});
  Json out = s.next_generation->as_written;
  out["plans"] = plans;
  return out;
}

}  // namespace tco
