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

// IRS Publication 946, Tables A-2 to A-5 (mid-quarter convention), by the quarter of the tax year
// the property is placed in service: year 1 takes the 200% declining rate for 10.5, 7.5, 4.5 or
// 1.5 of its 12 months (5-year, Q1: 40% x 10.5 / 12 = 35%).
constexpr std::array<std::array<double, 4>, 4> kMacrs3YearMidQuarter = {{{58.33, 27.78, 12.35, 1.54},
                                                                         {41.67, 38.89, 14.14, 5.30},
                                                                         {25.00, 50.00, 16.67, 8.33},
                                                                         {8.33, 61.11, 20.37, 10.19}}};
constexpr std::array<std::array<double, 6>, 4> kMacrs5YearMidQuarter = {{{35.00, 26.00, 15.60, 11.01, 11.01, 1.38},
                                                                         {25.00, 30.00, 18.00, 11.37, 11.37, 4.26},
                                                                         {15.00, 34.00, 20.40, 12.24, 11.30, 7.06},
                                                                         {5.00, 38.00, 22.80, 13.68, 10.94, 9.58}}};
constexpr std::array<std::array<double, 8>, 4> kMacrs7YearMidQuarter = {
    {{25.00, 21.43, 15.31, 10.93, 8.75, 8.74, 8.75, 1.09},
     {17.85, 23.47, 16.76, 11.97, 8.87, 8.87, 8.87, 3.34},
     {10.71, 25.51, 18.22, 13.02, 9.30, 8.85, 8.86, 5.53},
     {3.57, 27.55, 19.68, 14.06, 10.04, 8.73, 8.73, 7.64}}};

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

std::span<const double> macrs_mid_quarter_percent(int class_years, int quarter) {
  if (quarter < 1 || quarter > 4) return {};
  switch (class_years) {
    case 3: return kMacrs3YearMidQuarter[quarter - 1];
    case 5: return kMacrs5YearMidQuarter[quarter - 1];
    case 7: return kMacrs7YearMidQuarter[quarter - 1];
    default: return {};
  }
}

const char* macrs_convention_name(MacrsConvention convention) {
  return convention == MacrsConvention::mid_quarter ? "mid_quarter" : "half_year";
}

int tax_quarter_of_month(const Date& start, int model_month) {
  const Date delivery = date_at_hour(start, static_cast<long>(model_month) * kHoursPerMonth);
  return (delivery.month - 1) / 3 + 1;
}

std::vector<TaxDepreciationYear> tax_depreciation_by_year(double cost_usd, const TaxDepreciationSpec& spec) {
  const std::span<const double> percent =
      spec.convention == MacrsConvention::mid_quarter
          ? macrs_mid_quarter_percent(spec.macrs_class_years, spec.placed_in_service_quarter)
          : macrs_half_year_percent(spec.macrs_class_years);
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
