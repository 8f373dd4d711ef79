// Depreciation of an owned fleet bought at month p, and its tax shield (docs/model.md §6).
//   Book view: straight line by month (models/finance.hpp), or double-declining balance with each
//     year's amount (models/finance/depreciation.hpp) spread evenly over that year's 12 months.
//   Tax shield without a tax view: -tax_rate x the book depreciation of each month, at its end.
//   With a tax view: tax year k (months p + 12k .. p + 12k + 11) deducts its MACRS / bonus /
//     section 179 total evenly, 1/12 a month, at each month's end; the shield is -tax_rate x that.
//     The mid-quarter convention takes its table from the calendar quarter of month p.
//     When the fleet is sold at the horizon's end (the residual), the tax on the sale is
//     tax_rate x (recapture + capital gain - loss) of the sold part: the nodes with their
//     installation (IRS Pub 551: installation is part of the equipment's basis), their pro-rata
//     share of the tax basis left (a room's capex is not sold); booked in the same category at
//     the end of month H-1.
// Example: $1,000,000 of 5-year MACRS with 100% bonus at a 21% rate bought at month 0: the
// shield is -21% x 1,000,000 / 12 = -$17,500 at the end of each of months 0..11, nothing after.
#pragma once

#include <vector>

#include "engine/ledger/ledger.hpp"
#include "models/scenario.hpp"

namespace tco {

struct DepreciationViews {
  double cost_usd = 0.0;                       // the depreciable cost
  std::vector<double> book_usd_by_month;       // the horizon's months
  double book_total_usd = 0.0;                 // inside the horizon
  std::vector<double> book_usd_by_year;        // the whole life, year 0 = the purchase year
  std::vector<TaxDepreciationYear> tax_by_year;  // the whole recovery; empty without a tax view
  int placed_in_service_quarter = 0;           // 1..4 with the mid-quarter convention, else 0
  SaleTaxBase sale;                            // of the fleet sold at the horizon's end (tax view)
  double sale_tax_usd = 0.0;                   // tax_rate x sale.taxable_usd(); negative = a saving
};

struct DepreciableFleet {
  double cost_usd = 0.0;           // what is depreciated: nodes' capex + room capex
  double sold_cost_usd = 0.0;      // the tax cost of what the residual sells: the nodes' capex, installation included
  double sale_price_usd = 0.0;     // the residual value; 0 when no sale is booked
  double section_179_share = 1.0;  // share of the scenario's section 179 amount this fleet takes
};

DepreciationViews book_depreciation(const OnPremSpec& onprem, const DepreciableFleet& fleet, int purchase_month,
                                    int horizon_months, Ledger& ledger);

}  // namespace tco
