// The self-host-vs-API breakeven (issue 46 item 5; docs/tokens.md §7). A self-hosting plan P's NPV
// splits into what does not move with the volume served (F: capex, financing, lease, maintenance,
// facility, staff, reserved, residual, tax shield; ledger.hpp kVolumeFixedCategories) and the rest
// (V: energy, usage bills, egress, waiting, carbon), taken as linear in the volume. The API plan's
// NPV A is linear in it (tokens x price). At k times the scenario's token volume:
//   P(k) = F + k V        API(k) = k A
//   k*   = F / (A - V)    (when A > V and F > 0; else no volume breaks even)
//   breakeven tokens a day       = k* x the scenario's tokens / its days
//   breakeven API price ($/M)    = (F + V) / A x the API's blended list price (P at the scenario's
//                                  volume against the API's whole price path scaled)
// Each at the API's price change a year of 0, the scenario's, and twice the scenario's.
// Example: F = $1,000,000, V = $200,000, A = $700,000 at 1.2e9 tokens a day: k* = 1e6 / 5e5 = 2,
// 2.4e9 tokens a day; price (1.2e6 / 7e5) x $0.75 = $1.2857 per million tokens.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/ledger/plan_evaluator.hpp"
#include "models/scenario.hpp"

namespace tco {

struct ApiBreakevenAt {
  double price_change_per_year = 0.0;  // the API's
  double api_npv_usd = 0.0;            // A at this price change
  std::optional<double> daily_tokens;  // k* x the scenario's tokens a day; nullopt: none
  std::optional<double> usd_per_million_tokens;  // the API's blended price at which P = API
};

struct ApiBreakeven {
  std::string plan;      // the self-hosting plan (owns nodes or rents)
  std::string api_plan;  // the plan of kind api
  double plan_npv_usd = 0.0;
  double plan_fixed_npv_usd = 0.0;     // F
  double plan_variable_npv_usd = 0.0;  // V
  double scenario_daily_tokens = 0.0;  // the workload's tokens / the horizon's days
  double api_list_usd_per_million_tokens = 0.0;  // blended, at hour 0
  std::vector<ApiBreakevenAt> by_price_change;   // 0, the scenario's, 2x (distinct values)
};

// The closed form at one price change (the file's opening comment).
ApiBreakevenAt api_breakeven_at(double fixed_npv_usd, double variable_npv_usd, double api_npv_usd,
                                double scenario_daily_tokens, double api_list_usd_per_million_tokens);

// Every self-hosting plan (no API, owns nodes or rents) against every plan of kind api; none without
// one. `results` are the plans' deterministic results, in order; `demand_gpus` the run's demand.
std::vector<ApiBreakeven> api_breakevens(const Scenario& scenario, const std::vector<PlanResult>& results,
                                         const std::vector<double>& demand_gpus);

}  // namespace tco
