#include "models/finance/depreciation.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tco {

namespace {

// IRS Publication 946, Table A-1 (half-year convention), percent of the basis per recovery year.
constexpr std::array<double, 4> kMacrs3Year = {33.33, 44.45, 14.81, 7.41};
constexpr std::array<double, 6> kMacrs5Year = {20.00, 32.00, 19.20, 11.52, 11.52, 5.76};
constexpr std::array<double, 8> kMacrs7Year = {14.29, 24.49, 17.49, 12.49, 8.93, 8.92, 8.93, 4.46};

int years_of_life(double life_years) { return static_cast<int>(std::ceil(life_years - 1e-9)); }

}  // namespace

std::vector<double> straight_line_by_year_usd(double cost_usd, double salvage_usd, double life_years) {
  std::vector<double> out(years_of_life(life_years));
  const double per_year_usd = (cost_usd - salvage_usd) / life_years;
  for (int k = 0; k < static_cast<int>(out.size()); ++k)
    out[k] = per_year_usd * std::clamp(life_years - k, 0.0, 1.0);
  return out;
}

std::vector<double> double_declining_balance_by_year_usd(double cost_usd, double salvage_usd, double life_years) {
  std::vector<double> out(years_of_life(life_years));
  double book_usd = cost_usd;
  for (int k = 0; k < static_cast<int>(out.size()); ++k) {
    const double left_usd = book_usd - salvage_usd;
    const double years_left = life_years - k;
    const double declining_usd = 2.0 / life_years * book_usd;
    const double straight_usd = years_left > 1.0 ? left_usd / years_left : left_usd;
    out[k] = std::min(std::max(declining_usd, straight_usd), left_usd);
    book_usd -= out[k];
  }
  return out;
}

std::vector<double> book_depreciation_by_year_usd(BookMethod method, double cost_usd, double salvage_usd,
                                                  double life_years) {
  return method == BookMethod::double_declining_balance
             ? double_declining_balance_by_year_usd(cost_usd, salvage_usd, life_years)
             : straight_line_by_year_usd(cost_usd, salvage_usd, life_years);
}

std::span<const double> macrs_half_year_percent(int class_years) {
  switch (class_years) {
    case 3: return kMacrs3Year;
    case 5: return kMacrs5Year;
    case 7: return kMacrs7Year;
    default: return {};
  }
}

std::vector<TaxDepreciationYear> tax_depreciation_by_year(double cost_usd, const TaxDepreciationSpec& spec) {
  const std::span<const double> percent = macrs_half_year_percent(spec.macrs_class_years);
  const double section_179_usd = std::clamp(spec.section_179_usd, 0.0, cost_usd);
  const double bonus_usd = spec.bonus_fraction * (cost_usd - section_179_usd);
  const double macrs_basis_usd = cost_usd - section_179_usd - bonus_usd;
  std::vector<TaxDepreciationYear> out(percent.size());
  double basis_usd = cost_usd;
  for (std::size_t k = 0; k < out.size(); ++k) {
    TaxDepreciationYear& y = out[k];
    if (k == 0) {
      y.section_179_usd = section_179_usd;
      y.bonus_usd = bonus_usd;
    }
    y.macrs_usd = macrs_basis_usd * percent[k] / 100.0;
    y.total_usd = y.section_179_usd + y.bonus_usd + y.macrs_usd;
    basis_usd -= y.total_usd;
    y.basis_after_usd = basis_usd;
  }
  return out;
}

SaleTaxBase sale_tax_base(double cost_usd, double tax_basis_usd, double sale_price_usd) {
  SaleTaxBase s;
  s.ordinary_recapture_usd = std::max(0.0, std::min(sale_price_usd, cost_usd) - tax_basis_usd);
  s.capital_gain_usd = std::max(0.0, sale_price_usd - cost_usd);
  s.loss_usd = std::max(0.0, tax_basis_usd - sale_price_usd);
  return s;
}

}  // namespace tco
