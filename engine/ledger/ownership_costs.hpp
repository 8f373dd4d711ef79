// The monthly costs of owning (or leasing) an on-prem fleet, apart from energy (SPEC §6,
// §12.2-12.5). For N nodes bought at month p, capex_node = server + network + storage + install:
//   cash:  capex N capex_node + room_capex at the start of month p
//   loan:  the down payment at the start of p; annuity payments at the end of months p, p+1, ...;
//          interest -> financing_interest, principal -> capex; the balance left at the
//          horizon's end is paid there (capex)
//   lease: usd_per_node_month x N at the start of each month from p (category lease);
//          no capex for the nodes, no residual, no depreciation
//   maintenance  = N capex_node x maintenance_per_year / 12 each month from p (unless a lease includes it)
//   facility     = colocation usd_per_kw_month x N peak_kw + usd_per_rack_month x racks, from p
//   staff        = (fixed_fte share + fte_per_node N) x usd_per_fte_year / 12 x (1+e)^(m/12), from p
//   residual     = -N (server + network + storage) (1 - decline)^((H - p)/12), end of month H-1,
//                  x the next generation's resale step when it arrives before month H
// With residual.follows_cloud_price the residual x R(sale) / R(730 p), the rental price path's
// ratio (models/finance/resale_price_path.hpp).
// A fleet sold early at month r (OwnershipTerms::sold_month) has H = r above, its resale step
// taken at month r itself (sold at the start of r: a successor arriving in month r has priced it).
//   depreciation = (N capex_node + room_capex) (1 - salvage_fraction) / (12 life_years) per month,
//                  for life_years from p; tax_shield = -tax_rate x depreciation (when enabled);
//                  the book method and the tax view are engine/ledger/depreciation_booking.hpp
// With procurement (models/finance/procurement.hpp) p is the delivery month: deposit_share x
// (N capex_node + room_capex) is capex at the start of order_month, the balance is paid at p as
// above (cash or loan), and everything else runs from p. A fleet delivered past the horizon has
// only its deposit booked, credited back as residual at the horizon's end (a claim on hardware
// to come) when the residual is on.
// embodied CO2 = N x embodied_kg_co2_per_server / (12 life_years) a month for the life from p
// (leased or bought), priced at usd_per_tonne into `carbon` (models/site/carbon.hpp).
// Example: 2 nodes at $300,000 capex each, 6% maintenance: 600,000 x 0.06 / 12 = $3,000/month.
#pragma once

#include <optional>
#include <vector>

#include "engine/ledger/depreciation_booking.hpp"
#include "engine/ledger/ledger.hpp"
#include "models/scenario.hpp"

namespace tco {

struct OwnershipTerms {
  int nodes = 0;
  double racks = 0.0;               // may be a share of the fleet's racks (the utilization breakeven)
  double fleet_cost_share = 1.0;    // share of the fleet's own costs (fixed FTEs, room capex) booked:
                                    // 1 / N for one node's share of an N-node fleet
  std::optional<int> delivery_month;  // a path's draw; absent: OnPremSpec::planned_delivery_month()
  // Sold at the start of this month (a refresh, models/next_generation/refresh.hpp) instead of at
  // the horizon's end: every cost runs to the month before, the residual is valued at the sale
  // month's resale step and the loan's balance is repaid with it. Must be past the delivery.
  std::optional<int> sold_month;
};

struct OwnershipSummary {
  std::vector<double> depreciation_usd_by_month;
  double depreciation_total_usd = 0.0;
  double capex_paid_usd = 0.0;  // what was bought, however it was paid
  DepreciationViews depreciation;  // the book and tax views (none for a lease)
  int delivery_month = 0;
  double deposit_usd = 0.0;        // paid at the order (procurement)
  double embodied_co2_kg = 0.0;    // amortised inside the horizon (models/site/carbon.hpp)
  double sale_usd = 0.0;           // the residual: what the fleet sells for (0 when not sold)
};

OwnershipSummary book_ownership_costs(const OnPremSpec& onprem, const OwnershipTerms& terms,
                                      int horizon_months, Ledger& ledger);

// Embodied CO2 amortised over the depreciation life from the delivery month p (models/site/carbon.hpp),
// leased or bought; priced into `carbon` when the scenario sets a carbon price. Returns the kg inside
// the horizon.
double book_embodied_carbon(const OnPremSpec& onprem, double nodes, int p, int horizon_months, Ledger& ledger);

// The summary's depreciation views when the scenario opts in to one (a book method other than the
// straight line, or a tax view) and the fleet is bought; nullopt otherwise.
std::optional<DepreciationViews> opted_in_views(const OnPremSpec& onprem, const OwnershipSummary& summary);

}  // namespace tco
