// Depreciation views per year of an asset's life (year k = the 12 months from its k-th
// anniversary of being placed in service; k = 0 is the purchase year).
//   Book, straight line:  (C - S) / L a year; the last year takes the fraction of L left.
//   Book, double-declining balance: d_k = max(2/L x B_k, (B_k - S) / (L - k)), capped at B_k - S,
//     B_k = C - d_0 - ... - d_{k-1}: it switches to straight line on what is left in the first
//     year where that is larger. Both books total C - S.
//   Tax, in the IRS order: s179 = min(section_179_usd, C); bonus = bonus_fraction x (C - s179);
//     MACRS on the rest, R = C - s179 - bonus: year k takes p_k x R, p_k from the half-year table
//     (IRS Publication 946, Table A-1) or, with the mid-quarter convention, from the table of the
//     quarter the property is placed in service (Tables A-2..A-5). Salvage is ignored for tax.
//   Sale at price P with tax basis B (C less the deductions taken): gain P - B when positive, of
//     which min(P, C) - B is ordinary income (the recapture) and P - C above cost a capital gain;
//     a loss B - P when the price is below the basis.
// Example: $1,000,000 of MACRS 5-year property, no bonus: 200,000, 320,000, 192,000, 115,200,
// 115,200, 57,600. With 40% bonus: 400,000 + 20% of 600,000 = $520,000 in year 0. Mid-quarter,
// placed in service in Q4: 50,000, 380,000, 228,000, 136,800, 109,400, 95,800.
#pragma once

#include <span>
#include <vector>

#include "core/calendar.hpp"

namespace tco {

enum class BookMethod { straight_line, double_declining_balance };

std::vector<double> straight_line_by_year_usd(double cost_usd, double salvage_usd, double life_years);
std::vector<double> double_declining_balance_by_year_usd(double cost_usd, double salvage_usd, double life_years);
std::vector<double> book_depreciation_by_year_usd(BookMethod method, double cost_usd, double salvage_usd,
                                                  double life_years);

// The half-year convention's percentages for a 3, 5 or 7-year MACRS class, in percent of the basis
// (IRS Publication 946, Table A-1); empty for another class.
std::span<const double> macrs_half_year_percent(int class_years);

// The mid-quarter convention's percentages for a 3, 5 or 7-year class placed in service in quarter
// 1..4 of the tax year (IRS Publication 946, Tables ); empty for another class or quarter.
std::span<const double> macrs_mid_quarter_percent(int class_years, int quarter);

// The quarter (1..4) of the calendar tax year that holds the delivery at the start of model month
// `model_month` (hour 730 x model_month) of a scenario that starts on `start`: the delivery's
// calendar date on the price schedules' calendar (core/calendar.hpp date_at_hour), not the
// calendar month `model_month` months on (730-hour months drift from the calendar's).
// Example: start 2026-11-01, month 2 = hour 1,460 = 2026-12-31: quarter 4 (November + 2 months
// would be January, quarter 1).
int tax_quarter_of_month(const Date& start, int model_month);

enum class MacrsConvention { half_year, mid_quarter };
const char* macrs_convention_name(MacrsConvention convention);  // "half_year" | "mid_quarter"

struct TaxDepreciationSpec {
  int macrs_class_years = 5;    // 3, 5 or 7
  double bonus_fraction = 0.0;  // of the cost left after section 179
  double section_179_usd = 0.0; // expensed first, up to the cost
  MacrsConvention convention = MacrsConvention::half_year;
  // The scenario's start (not an input): the mid-quarter convention takes its quarter from the
  // delivery's calendar date.
  Date start{2026, 1, 1};
  int placed_in_service_quarter = 1;  // 1..4; mid-quarter only, set from the delivery month
};

struct TaxDepreciationYear {
  double section_179_usd = 0.0;
  double bonus_usd = 0.0;
  double macrs_usd = 0.0;
  double total_usd = 0.0;
  double basis_after_usd = 0.0;  // the cost less every deduction up to and including this year
};
std::vector<TaxDepreciationYear> tax_depreciation_by_year(double cost_usd, const TaxDepreciationSpec& spec);

struct SaleTaxBase {
  double ordinary_recapture_usd = 0.0;  // min(P, C) - B when positive
  double capital_gain_usd = 0.0;        // P - C when positive
  double loss_usd = 0.0;                // B - P when positive
  double taxable_usd() const { return ordinary_recapture_usd + capital_gain_usd - loss_usd; }
};
SaleTaxBase sale_tax_base(double cost_usd, double tax_basis_usd, double sale_price_usd);

}  // namespace tco
