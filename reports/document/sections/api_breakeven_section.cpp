// Self-host vs API (docs/tokens.md §8, `breakevens.self_host_vs_api`): for each plan that owns or
// rents, against each plan of kind api, the daily token volume and the API price at which the two
// cost the same, at the API's price change a year of 0, the scenario's and twice it.
#include "reports/document/report_section.hpp"

namespace tco {

Section api_breakeven_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"API plan", "api_plan"},
                        {"API price change/yr", "api_price_change_per_year"},
                        {"plan NPV", "plan_npv_usd"},
                        {"API NPV", "api_npv_usd"},
                        {"tokens/day now", "scenario_daily_tokens"},
                        {"breakeven tokens/day", "breakeven_daily_tokens"},
                        {"API list $/M", "api_list_usd_per_million_tokens"},
                        {"breakeven API $/M", "breakeven_usd_per_million_tokens"}},
                       "self_host_vs_api.csv");
  const Json& breakevens = report.at("breakevens");
  if (!breakevens.contains("self_host_vs_api")) return make_section("self_host_vs_api", "Self-host vs API", "", {});
  for (const Json& b : breakevens.at("self_host_vs_api"))
    for (const Json& at : b.at("by_api_price_change")) {
      Cell daily = count_cell(at.at("daily_tokens"));
      if (!daily.has_number()) daily = shown_as(daily, "none");
      Cell price = usd_price_cell(at.at("usd_per_million_tokens"), 4);
      if (!price.has_number()) price = shown_as(price, "none");
      t.rows.push_back({{text_cell(b.at("plan")), text_cell(b.at("api_plan")),
                         signed_percent_cell(at.at("api_price_change_per_year")), usd_cell(b.at("plan_npv_usd")),
                         usd_cell(at.at("api_npv_usd")), count_cell(b.at("scenario_daily_tokens")), daily,
                         usd_price_cell(b.at("api_list_usd_per_million_tokens"), 4), price}});
    }
  return make_section(
      "self_host_vs_api", "Self-host vs API",
      "the daily token volume at which a plan that owns or rents costs the same NPV as buying every token "
      "from the API (its volume-fixed costs F over the API's NPV less its own volume-driven costs V, both "
      "linear in the volume: F / (A - V) x today's tokens a day; above it self-hosting is cheaper), and the "
      "API's blended price per million tokens at which the two are equal at today's volume; at the API's price "
      "change a year of 0, the scenario's and twice it; docs/tokens.md §8",
      {t});
}

}  // namespace tco
