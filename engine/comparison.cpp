#include "engine/comparison.hpp"

namespace tco {

std::optional<int> payback_month(const Ledger& plan, const Ledger& baseline, double rate_per_year) {
  const auto plan_cum = plan.cumulative_discounted_usd(rate_per_year);
  const auto base_cum = baseline.cumulative_discounted_usd(rate_per_year);
  std::optional<int> month;
  // Walk back from the end: the payback month starts the final run of months at or below.
  for (int m = static_cast<int>(plan_cum.size()) - 1; m >= 0; --m) {
    if (plan_cum[m] <= base_cum[m] + kPaybackToleranceUsd) month = m;
    else break;
  }
  return month;
}

Comparison compare(const std::string& plan_name, const Ledger& plan, const std::string& baseline_name,
                   const Ledger& baseline, double rate_per_year) {
  Comparison c;
  c.plan = plan_name;
  c.baseline = baseline_name;
  c.npv_saving_usd = baseline.npv_usd(rate_per_year) - plan.npv_usd(rate_per_year);
  c.nominal_saving_usd = baseline.total_usd() - plan.total_usd();
  c.payback_month = payback_month(plan, baseline, rate_per_year);
  // Incremental flows: what the plan saves each month against the baseline (costs of the
  // baseline are money kept; the plan's are money spent).
  std::vector<TimedFlow> flows = baseline.flows();
  for (const auto& f : plan.flows()) flows.push_back({f.time_years, -f.amount_usd});
  c.irr_per_year = irr_per_year(flows);
  return c;
}

}  // namespace tco
