#include "reports/json/api/api_json.hpp"

#include "core/stats/summary_json.hpp"

namespace tco {

Json api_figures_json(const ApiFigures& f) {
  Json out = {{"api", f.api},
          {"tokens_demanded", f.tokens_demanded},
          {"tokens_sent", f.tokens_sent},
          {"input_tokens", f.input_tokens},
          {"cached_input_tokens", f.cached_input_tokens},
          {"output_tokens", f.output_tokens},
          {"unserved_tokens", f.unserved_tokens},
          {"bill_usd", f.bill_usd},
          {"list_usd_per_million_tokens", f.list_usd_per_million_tokens},
          {"usd_per_million_tokens", optional_json(f.usd_per_million_tokens)}};
  // Only a plan whose rate-limited tokens burst to venues, so every other report keeps its bytes.
  if (f.bursts_to_venues) {
    out["next_venue"] = f.next_venue;
    out["tokens_over_rate_limit"] = f.tokens_over_rate_limit;
    out["venue_tokens"] = f.venue_tokens;
    out["venue_usd"] = f.venue_usd;
  }
  return out;
}

Json api_breakevens_json(const std::vector<ApiBreakeven>& breakevens) {
  Json out = Json::array();
  for (const ApiBreakeven& b : breakevens) {
    Json by_change = Json::array();
    for (const ApiBreakevenAt& at : b.by_price_change)
      by_change.push_back({{"api_price_change_per_year", at.price_change_per_year},
                           {"api_npv_usd", at.api_npv_usd},
                           {"daily_tokens", optional_json(at.daily_tokens)},
                           {"usd_per_million_tokens", optional_json(at.usd_per_million_tokens)}});
    out.push_back({{"plan", b.plan},
                   {"api_plan", b.api_plan},
                   {"plan_npv_usd", b.plan_npv_usd},
                   {"plan_fixed_npv_usd", b.plan_fixed_npv_usd},
                   {"plan_variable_npv_usd", b.plan_variable_npv_usd},
                   {"scenario_daily_tokens", b.scenario_daily_tokens},
                   {"api_list_usd_per_million_tokens", b.api_list_usd_per_million_tokens},
                   {"by_api_price_change", by_change}});
  }
  return out;
}

}  // namespace tco
