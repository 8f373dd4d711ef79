#include "engine/ledger/plan_tokens.hpp"

#include <algorithm>

#include "core/calendar.hpp"
#include "core/time/seconds_per_hour.hpp"

namespace tco {

double served_tokens(const std::vector<double>& tokens, const std::vector<double>& demand_gpus,
                     double unserved_gpu_hours) {
  double served = 0.0;
  double left = unserved_gpu_hours;  // waiting at the end: the latest demand, walking back
  for (std::size_t h = tokens.size(); h-- > 0;) {
    double share_served = 1.0;
    if (left > 0.0 && demand_gpus[h] > 0.0) {
      const double waiting = std::min(left, demand_gpus[h]);
      left -= waiting;
      share_served = 1.0 - waiting / demand_gpus[h];
    }
    served += tokens[h] * share_served;
  }
  return served;
}

double busy_cost_usd(const PlanResult& r) {
  const Ledger& l = r.ledger;
  // The owned fleet's net cost: its resale (residual) and tax shield are credits of the same
  // nodes, so their idle share leaves with the rest. Without them an oversized fleet's idle share
  // of the capex alone exceeded the plan's whole cost, and its usage basis read -$0.70 per million.
  double owned_usd = 0.0;
  for (Category c : {Category::capex, Category::financing_interest, Category::lease, Category::maintenance,
                     Category::facility, Category::energy, Category::staff, Category::carbon, Category::repair,
                     Category::residual, Category::tax_shield})
    owned_usd += l.category_total_usd(c);
  const double utilization = r.onprem_utilization.value_or(0.0);
  double commitments_usd = 0.0, commitments_unused_usd = 0.0;
  for (const CommitmentFigures& k : r.commitments) {
    commitments_usd += k.committed_usd;
    commitments_unused_usd += k.unused_usd;
  }
  const GpuHours& g = r.gpu_hours;
  const double reserved_usd = l.category_total_usd(Category::cloud_reserved) - commitments_usd;
  const double reserved_idle_share = g.reserved_paid > 0.0 ? (g.reserved_paid - g.reserved_used) / g.reserved_paid : 0.0;
  const double idle_usd = owned_usd * (1.0 - utilization) + reserved_usd * reserved_idle_share + commitments_unused_usd +
                          l.category_total_usd(Category::waiting);
  return r.total_usd - idle_usd;
}

PlanTokens plan_tokens(const PlanResult& r, const TokenDemand& demand, const TokenHours& hours,
                       const std::vector<double>& demand_gpus, bool buys_every_token) {
  PlanTokens out;
  TokenCounts counts;
  for (double t : hours.tokens) counts.demanded += t;
  double input_demanded = 0.0;
  for (double t : hours.input_tokens) input_demanded += t;
  // Nothing left waiting: every token served, exactly (the walk's sum in another order would
  // differ from the demand's in the last bits, and "unserved" would read -0.03).
  const bool all_served = r.gpu_hours.unserved <= 0.0;
  counts.served = all_served ? counts.demanded : served_tokens(hours.tokens, demand_gpus, r.gpu_hours.unserved);
  counts.input_served =
      all_served ? input_demanded : served_tokens(hours.input_tokens, demand_gpus, r.gpu_hours.unserved);
  if (r.api && r.api->unserved_tokens > 0.0 && counts.demanded > 0.0) {
    // Tokens above the API's rate limit are not served either (in the demand's input share).
    counts.served -= r.api->unserved_tokens;
    counts.input_served -= r.api->unserved_tokens * input_demanded / counts.demanded;
  }
  out.figures = plan_token_figures(r.total_usd, busy_cost_usd(r), counts, demand.output_token_cost_weight);
  if (buys_every_token) {  // an api plan runs no replica and owns no facility
    out.gpus_per_replica = 0;
    return out;
  }
  out.serving_profile = demand.serving_profile_id;
  out.gpus_per_replica = demand.capacity.gpus_per_replica;
  const double peak_tokens = hours.tokens.empty() ? 0.0 : *std::max_element(hours.tokens.begin(), hours.tokens.end());
  out.replicas_at_peak = gpus_for_hour_tokens(peak_tokens, demand.capacity) / demand.capacity.gpus_per_replica;
  const GpuHours& g = r.gpu_hours;
  const double onprem_work = g.useful - g.cloud_work - g.api_work;  // what the API took is not the fleet's
  if (g.onprem_capacity > 0.0 && g.useful > 0.0 && r.facility_energy_kwh > 0.0) {
    const double onprem_tokens = counts.served * onprem_work / g.useful;
    out.tokens_per_facility_mwh = onprem_tokens / (r.facility_energy_kwh / 1000.0);
    const double horizon_s = static_cast<double>(hours.tokens.size()) * kSecondsPerHour;
    out.tokens_per_s_per_peak_facility_mw = onprem_tokens / horizon_s / (r.peak_facility_kw / 1000.0);
  }
  return out;
}

}  // namespace tco
