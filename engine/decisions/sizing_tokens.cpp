#include "engine/decisions/sizing_tokens.hpp"

#include "engine/ledger/plan_evaluator.hpp"
#include "engine/ledger/plan_tokens.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

std::optional<SizingTokens> sizing_point_tokens(const Scenario& s, int k) {
  if (!s.workload.tokens) return std::nullopt;
  const Plan& plan = s.plans[static_cast<std::size_t>(k)];
  const TokenDemand& serving = plan.serving ? *plan.serving : *s.workload.tokens;
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  // The tokens are the workload's; the plan serves them with its own profile (as run_deterministic).
  const TokenHours hours = token_hours(*s.workload.tokens, s.horizon_hours(), s.calendar);
  const PlanTokens t = plan_tokens(evaluate_plan(s, plan, demand), serving, hours, demand);
  SizingTokens out;
  out.gpus_per_replica = t.gpus_per_replica;
  const long gpus = plan.onprem ? static_cast<long>(plan.onprem_nodes) * plan.onprem->server.gpus : 0;
  out.owned_replicas = gpus / t.gpus_per_replica;
  out.tokens_served = t.figures.tokens_served;
  out.tokens_unserved = t.figures.tokens_unserved;
  if (t.figures.reservation) out.reservation_usd_per_million_tokens = t.figures.reservation->blended;
  if (t.figures.usage) out.usage_usd_per_million_tokens = t.figures.usage->blended;
  return out;
}

void add_path_usd_per_million_tokens(SizingTokens& t, const std::vector<double>& total_by_path_usd,
                                     const std::vector<double>& tokens_by_path) {
  if (total_by_path_usd.empty() || tokens_by_path.size() != total_by_path_usd.size()) return;
  std::vector<double> usd(total_by_path_usd.size());
  for (std::size_t p = 0; p < usd.size(); ++p) {
    if (!(tokens_by_path[p] > 0.0)) return;  // a path that served nothing has no $/M
    usd[p] = total_by_path_usd[p] * 1e6 / tokens_by_path[p];
  }
  t.reservation_usd_per_million_tokens_paths = summarize(usd);
}

}  // namespace tco
