// Money over time (SPEC §6, §12.2-12.5, §12.14). Annual discount rate r, month m:
//   a payment at the start of month m is worth (1+r)^(-m/12) today,
//   one at its end (operating costs) (1+r)^(-(m+1)/12); the residual at the horizon's end
//   H months, (1+r)^(-H/12).
//   Loan: monthly payment P i / (1 - (1+i)^-n), i = apr / 12, paid at the end of each month
//   from the purchase month; a balance still owed at the horizon's end is paid off there.
//   Residual: value x (1 - resale_decline_per_year)^age_years.
//   Straight-line depreciation: (cost - salvage) / (12 life_years) per month, for life_years.
// Example: $100,000 at 6% APR over 12 months: i = 0.005, payment = 500 / (1 - 1.005^-12)
// = $8,606.64.
#pragma once

#include <optional>
#include <vector>

namespace tco {

double discount_start_of_month(double rate_per_year, int month);
double discount_end_of_month(double rate_per_year, int month);

double loan_payment_usd(double principal_usd, double apr, int term_months);

// One month of an annuity loan.
struct LoanMonth {
  double interest_usd = 0.0;
  double principal_usd = 0.0;
  double balance_after_usd = 0.0;
};
// The first `months` months of the schedule (fewer when the loan ends first).
std::vector<LoanMonth> loan_schedule(double principal_usd, double apr, int term_months, int months);

double residual_value_usd(double value_usd, double resale_decline_per_year, double age_years);

double straight_line_depreciation_usd_per_month(double cost_usd, double salvage_usd, double life_years);

// Straight-line depreciation booked in month k after purchase (k = 0 is the purchase month):
// the monthly rate for each whole month of the life 12 L, the rate times the fraction left in
// the month where the life ends, 0 after; the months add up to cost - salvage.
// Example: $1.08M over 3.3 years = 39.6 months: $27,272.73 for k = 0..38, x 0.6 for k = 39.
double straight_line_depreciation_usd(double cost_usd, double salvage_usd, double life_years, int month_since_purchase);

// A cash flow at a time in years from t = 0 (positive = money in).
struct TimedFlow {
  double time_years = 0.0;
  double amount_usd = 0.0;
};
double npv_usd(const std::vector<TimedFlow>& flows, double rate_per_year);
// The annual rate at which the flows' NPV is zero: the smallest root in (-0.99, 100] found
// by scanning for a sign change and refining with toms748; nullopt when there is none.
std::optional<double> irr_per_year(const std::vector<TimedFlow>& flows);

}  // namespace tco
