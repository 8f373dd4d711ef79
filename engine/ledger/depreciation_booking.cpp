#include "engine/ledger/depreciation_booking.hpp"

#include <cmath>

#include "models/finance.hpp"

namespace tco {

namespace {

// Year k's amount spread evenly over its 12 months: month j after the purchase books 1/12 of year j / 12.
std::vector<double> monthly_from_yearly(const std::vector<double>& yearly_usd, int months) {
  std::vector<double> out(months, 0.0);
  for (int j = 0; j < months && j / 12 < static_cast<int>(yearly_usd.size()); ++j) out[j] = yearly_usd[j / 12] / 12.0;
  return out;
}

std::vector<double> book_usd_since_purchase(const OnPremSpec& o, double cost_usd, int months) {
  const double salvage_usd = cost_usd * o.salvage_fraction;
  if (o.book_method == BookMethod::double_declining_balance)
    return monthly_from_yearly(double_declining_balance_by_year_usd(cost_usd, salvage_usd, o.life_years), months);
  std::vector<double> out(months, 0.0);
  const int life_months = static_cast<int>(std::ceil(o.life_years * 12.0 - 1e-9));  // a part month counts
  for (int j = 0; j < months && j < life_months; ++j)
    out[j] = straight_line_depreciation_usd(cost_usd, salvage_usd, o.life_years, j);
  return out;
}

}  // namespace

DepreciationViews book_depreciation(const OnPremSpec& o, const DepreciableFleet& fleet, int p, int horizon_months,
                                    Ledger& ledger) {
  DepreciationViews v;
  v.cost_usd = fleet.cost_usd;
  v.book_usd_by_month.assign(horizon_months, 0.0);
  v.book_usd_by_year =
      book_depreciation_by_year_usd(o.book_method, fleet.cost_usd, fleet.cost_usd * o.salvage_fraction, o.life_years);
  const int months = horizon_months - p;
  const std::vector<double> book_usd = book_usd_since_purchase(o, fleet.cost_usd, months);
  for (int j = 0; j < months; ++j) {
    v.book_usd_by_month[p + j] = book_usd[j];
    v.book_total_usd += book_usd[j];
  }
  const bool shield = o.tax_shield_enabled && o.tax_rate > 0.0;
  if (!o.tax_depreciation) {
    for (int j = 0; j < months; ++j)
      if (shield && book_usd[j] != 0.0) ledger.add(p + j, Category::tax_shield, -o.tax_rate * book_usd[j], Timing::end_of_month);
    return v;
  }

  TaxDepreciationSpec spec = *o.tax_depreciation;
  spec.section_179_usd *= fleet.section_179_share;
  spec.placed_in_service_quarter = tax_quarter_of_month(spec.start, p);
  v.tax_by_year = tax_depreciation_by_year(fleet.cost_usd, spec);
  if (spec.convention == MacrsConvention::mid_quarter) v.placed_in_service_quarter = spec.placed_in_service_quarter;
  std::vector<double> tax_yearly_usd;
  for (const auto& y : v.tax_by_year) tax_yearly_usd.push_back(y.total_usd);
  const std::vector<double> deduction_usd = monthly_from_yearly(tax_yearly_usd, months);
  double deducted_usd = 0.0;
  for (int j = 0; j < months; ++j) {
    deducted_usd += deduction_usd[j];
    if (shield && deduction_usd[j] != 0.0)
      ledger.add(p + j, Category::tax_shield, -o.tax_rate * deduction_usd[j], Timing::end_of_month);
  }
  if (fleet.sale_price_usd > 0.0 && fleet.cost_usd > 0.0) {
    const double sold_share = fleet.sold_cost_usd / fleet.cost_usd;
    v.sale = sale_tax_base(fleet.sold_cost_usd, (fleet.cost_usd - deducted_usd) * sold_share, fleet.sale_price_usd);
    if (shield) {
      v.sale_tax_usd = o.tax_rate * v.sale.taxable_usd();
      ledger.add(horizon_months - 1, Category::tax_shield, v.sale_tax_usd, Timing::end_of_month);
    }
  }
  return v;
}

}  // namespace tco
