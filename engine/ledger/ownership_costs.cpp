#include "engine/ledger/ownership_costs.hpp"

#include <algorithm>
#include <cmath>

namespace tco {

static void book_purchase(const Financing& f, double amount_usd, int purchase_month, int horizon_months,
                          Ledger& ledger) {
  if (f.kind == Financing::Kind::cash) {
    ledger.add(purchase_month, Category::capex, amount_usd, Timing::start_of_month);
    return;
  }
  const double down_usd = amount_usd * f.down_payment_fraction;
  if (down_usd > 0.0) ledger.add(purchase_month, Category::capex, down_usd, Timing::start_of_month);
  const double principal_usd = amount_usd - down_usd;
  const int months_left = horizon_months - purchase_month;
  const auto schedule = loan_schedule(principal_usd, f.apr, f.term_months, months_left);
  for (std::size_t k = 0; k < schedule.size(); ++k) {
    const int m = purchase_month + static_cast<int>(k);
    ledger.add(m, Category::financing_interest, schedule[k].interest_usd, Timing::end_of_month);
    ledger.add(m, Category::capex, schedule[k].principal_usd, Timing::end_of_month);
  }
  const double owed_usd = schedule.empty() ? principal_usd : schedule.back().balance_after_usd;
  if (owed_usd > 1e-9) ledger.add(horizon_months - 1, Category::capex, owed_usd, Timing::end_of_month);
}

double book_embodied_carbon(const OnPremSpec& o, double nodes, int p, int horizon_months, Ledger& ledger) {
  const double fleet_kg = nodes * o.carbon.embodied_kg_co2_per_server;
  if (fleet_kg <= 0.0) return 0.0;
  const double life_months = 12.0 * o.life_years;
  double booked_kg = 0.0;
  for (int m = p; m < horizon_months && m - p < life_months; ++m) {
    const double kg = fleet_kg / life_months * std::min(1.0, life_months - (m - p));
    booked_kg += kg;
    if (o.carbon.usd_per_tonne > 0.0)
      ledger.add(m, Category::carbon, kg / 1000.0 * o.carbon.usd_per_tonne, Timing::end_of_month);
  }
  return booked_kg;
}

namespace {

// The fleet's costs from its delivery to horizon_months, when it is sold (the horizon's end, or
// OwnershipTerms::sold_month).
OwnershipSummary book_ownership_until(const OnPremSpec& o, const OwnershipTerms& t, int horizon_months,
                                      Ledger& ledger) {
  OwnershipSummary summary;
  summary.depreciation_usd_by_month.assign(horizon_months, 0.0);
  const int p = t.delivery_month.value_or(o.planned_delivery_month());
  summary.delivery_month = p;
  if (t.nodes <= 0) return summary;
  const double n = t.nodes;
  const double node_capex_usd = n * o.capex_per_node_usd();
  const double room_capex_usd = o.room_capex_usd * t.fleet_cost_share;
  const bool leased = o.financing.kind == Financing::Kind::lease;
  if (o.procurement && o.procurement->deposit_share > 0.0) {
    summary.deposit_usd = (node_capex_usd + room_capex_usd) * o.procurement->deposit_share;
    ledger.add(o.procurement->order_month, Category::capex, summary.deposit_usd, Timing::start_of_month);
  }
  if (p >= horizon_months) {
    if (o.residual_enabled && summary.deposit_usd > 0.0)
      ledger.add(horizon_months - 1, Category::residual, -summary.deposit_usd, Timing::end_of_month);
    summary.capex_paid_usd = summary.deposit_usd;
    return summary;
  }

  if (leased) {
    for (int m = p; m < horizon_months; ++m)
      ledger.add(m, Category::lease, n * o.financing.lease_usd_per_node_month, Timing::start_of_month);
    if (room_capex_usd > 0.0) ledger.add(p, Category::capex, room_capex_usd, Timing::start_of_month);
  } else {
    book_purchase(o.financing, node_capex_usd + room_capex_usd - summary.deposit_usd, p, horizon_months, ledger);
  }
  summary.capex_paid_usd = node_capex_usd + room_capex_usd;

  const bool maintenance_due = !(leased && o.financing.maintenance_included);
  const double staff_fte = o.staff.fixed_fte * t.fleet_cost_share + o.staff.fte_per_node * n;
  double facility_usd_per_month = 0.0;
  if (o.colocation) {
    facility_usd_per_month = o.colocation->usd_per_kw_month * n * o.server.peak_kw +
                             o.colocation->usd_per_rack_month * t.racks;
  }
  for (int m = p; m < horizon_months; ++m) {
    if (maintenance_due)
      ledger.add(m, Category::maintenance, node_capex_usd * o.maintenance_per_year / 12.0, Timing::end_of_month);
    if (facility_usd_per_month > 0.0)
      ledger.add(m, Category::facility, facility_usd_per_month, Timing::end_of_month);
    if (staff_fte > 0.0) {
      ledger.add(m, Category::staff,
                 staff_fte * o.staff.usd_per_fte_year / 12.0 * monthly_growth_factor(o.staff.escalation_per_year, m),
                 Timing::end_of_month);
    }
  }

  summary.embodied_co2_kg = book_embodied_carbon(o, n, p, horizon_months, ledger);
  if (leased) return summary;
  DepreciableFleet fleet;
  fleet.cost_usd = node_capex_usd + room_capex_usd;
  fleet.section_179_share = t.fleet_cost_share;
  if (o.residual_enabled) {
    const double age_years = (horizon_months - p) / 12.0;
    const double value_usd = n * o.resale_base_per_node_usd();
    // The tax cost of what is sold: the nodes with their capitalised installation (Pub 551: the
    // installation is part of the equipment's basis), though the installation resells for nothing.
    fleet.sold_cost_usd = node_capex_usd;
    // Sold in the last month: a next generation that arrived by then has stepped the resale curve
    // (sold early, at the start of the sale month: one arriving that month has).
    const int step_month = t.sold_month ? horizon_months : horizon_months - 1;
    const long sale_h = static_cast<long>(step_month) * kHoursPerMonth;
    fleet.sale_price_usd = residual_value_usd(value_usd, o.resale_decline_per_year, age_years) * o.resale_step.at(sale_h);
    if (o.resale_price_path) fleet.sale_price_usd *= o.resale_price_path->ratio(static_cast<long>(p) * kHoursPerMonth, sale_h);
    summary.sale_usd = fleet.sale_price_usd;
    ledger.add(horizon_months - 1, Category::residual, -fleet.sale_price_usd, Timing::end_of_month);
  }
  summary.depreciation = book_depreciation(o, fleet, p, horizon_months, ledger);
  summary.depreciation_usd_by_month = summary.depreciation.book_usd_by_month;
  summary.depreciation_total_usd = summary.depreciation.book_total_usd;
  return summary;
}

}  // namespace

OwnershipSummary book_ownership_costs(const OnPremSpec& o, const OwnershipTerms& t, int ledger_months,
                                      Ledger& ledger) {
  OwnershipSummary summary = book_ownership_until(o, t, t.sold_month.value_or(ledger_months), ledger);
  summary.depreciation_usd_by_month.resize(ledger_months, 0.0);
  summary.depreciation.book_usd_by_month.resize(ledger_months, 0.0);
  return summary;
}

std::optional<DepreciationViews> opted_in_views(const OnPremSpec& o, const OwnershipSummary& summary) {
  const bool opted_in = o.book_method != BookMethod::straight_line || o.tax_depreciation.has_value();
  if (!opted_in || summary.depreciation.book_usd_by_year.empty()) return std::nullopt;
  return summary.depreciation;
}

}  // namespace tco
