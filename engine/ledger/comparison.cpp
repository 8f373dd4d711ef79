#include "engine/ledger/comparison.hpp"

#include <cmath>
#include <map>

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
  // baseline are money kept; the plan's are money spent), netted at each instant. Netting
  // first matters: where the two plans cost the same, the unnetted sum is rounding noise
  // whose sign changes would pass for an IRR; a net within the payback tolerance is no flow,
  // and plans that never differ have no IRR.
  std::map<double, double> net_usd_by_time;
  for (const auto& f : baseline.flows()) net_usd_by_time[f.time_years] += f.amount_usd;
  for (const auto& f : plan.flows()) net_usd_by_time[f.time_years] -= f.amount_usd;
  std::vector<TimedFlow> flows;
  for (const auto& [time_years, usd] : net_usd_by_time)
    if (std::abs(usd) > kPaybackToleranceUsd) flows.push_back({time_years, usd});
  c.irr_per_year = irr_per_year(flows);
  c.starts_with_investment = !flows.empty() && flows.front().amount_usd < 0.0;
  return c;
}

}  // namespace tco
