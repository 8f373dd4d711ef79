#include "engine/ledger/refresh_booking.hpp"

#include "engine/ledger/plan_evaluator.hpp"

namespace tco {

OnPremSpec successor_onprem(const OnPremSpec& old, const PlanRefresh& refresh) {
  OnPremSpec o = old;
  o.server = refresh.server;
  o.gpu = refresh.gpu;
  o.room_capex_usd = 0.0;  // the room is built
  o.purchase_month = refresh.month;
  o.procurement.reset();
  o.resale_step = {};  // the step is the predecessor's; the successor's own decline applies
  return o;
}

FleetParams refreshed_fleet_params(const FleetParams& before, const PlanRefresh& refresh) {
  FleetParams f = before;
  f.gpus_per_node = refresh.server.gpus;
  f.idle_kw = refresh.server.idle_kw;
  f.peak_kw = refresh.server.peak_kw;
  f.perf_onprem = refresh.gpu.perf_relative;
  return f;
}

OwnershipSummary book_refreshed_ownership(const Plan& plan, int old_racks, int horizon_months, Ledger& ledger,
                                          RefreshFigures& figures) {
  const OnPremSpec& o = *plan.onprem;
  const PlanRefresh& refresh = *plan.refresh;
  figures.month = refresh.month;
  figures.nodes = refresh.nodes;
  figures.server = refresh.server.provenance.id;
  figures.inside_horizon = refresh.month < horizon_months;
  OwnershipTerms old_terms{owned_nodes(plan), static_cast<double>(old_racks), 1.0, std::nullopt, std::nullopt};
  if (!figures.inside_horizon) return book_ownership_costs(o, old_terms, horizon_months, ledger);

  old_terms.sold_month = refresh.month;
  OwnershipSummary total = book_ownership_costs(o, old_terms, horizon_months, ledger);
  figures.old_fleet_sale_usd = total.sale_usd;

  const OnPremSpec next = successor_onprem(o, refresh);
  const FacilityFigures next_facility = facility_figures(next, refresh.nodes);
  figures.successor_racks = next_facility.racks;
  const OwnershipSummary added = book_ownership_costs(
      next, {refresh.nodes, static_cast<double>(next_facility.racks), 1.0, std::nullopt, std::nullopt}, horizon_months,
      ledger);
  figures.successor_capex_usd = added.capex_paid_usd;
  figures.successor_sale_usd = added.sale_usd;
  for (int m = 0; m < horizon_months; ++m) total.depreciation_usd_by_month[m] += added.depreciation_usd_by_month[m];
  total.depreciation_total_usd += added.depreciation_total_usd;
  total.capex_paid_usd += added.capex_paid_usd;
  total.embodied_co2_kg += added.embodied_co2_kg;
  total.sale_usd += added.sale_usd;
  return total;
}

double book_plan_embodied_carbon(const Plan& plan, int horizon_months, Ledger& ledger) {
  const OnPremSpec& o = *plan.onprem;
  const int p = o.planned_delivery_month();
  if (!plan.refresh || plan.refresh->month >= horizon_months)
    return book_embodied_carbon(o, owned_nodes(plan), p, horizon_months, ledger);
  const int r = plan.refresh->month;
  return book_embodied_carbon(o, owned_nodes(plan), p, r, ledger) +
         book_embodied_carbon(successor_onprem(o, *plan.refresh), plan.refresh->nodes, r, horizon_months, ledger);
}

}  // namespace tco
