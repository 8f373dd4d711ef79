#include "models/finance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <boost/math/tools/roots.hpp>

namespace tco {

double discount_start_of_month(double rate_per_year, int month) {
  return std::pow(1.0 + rate_per_year, -static_cast<double>(month) / 12.0);
}

double discount_end_of_month(double rate_per_year, int month) {
  return std::pow(1.0 + rate_per_year, -static_cast<double>(month + 1) / 12.0);
}

double loan_payment_usd(double principal_usd, double apr, int term_months) {
  if (term_months <= 0) return principal_usd;
  const double i = apr / 12.0;
  if (i == 0.0) return principal_usd / term_months;
  return principal_usd * i / (1.0 - std::pow(1.0 + i, -term_months));
}

std::vector<LoanMonth> loan_schedule(double principal_usd, double apr, int term_months, int months) {
  const double payment = loan_payment_usd(principal_usd, apr, term_months);
  const double i = apr / 12.0;
  std::vector<LoanMonth> out;
  double balance = principal_usd;
  for (int m = 0; m < months && m < term_months; ++m) {
    LoanMonth lm;
    lm.interest_usd = balance * i;
    // The last payment clears what rounding left of the balance.
    lm.principal_usd = (m == term_months - 1) ? balance : payment - lm.interest_usd;
    balance -= lm.principal_usd;
    lm.balance_after_usd = balance;
    out.push_back(lm);
  }
  return out;
}

double residual_value_usd(double value_usd, double resale_decline_per_year, double age_years) {
  return value_usd * std::pow(1.0 - resale_decline_per_year, age_years);
}

double straight_line_depreciation_usd_per_month(double cost_usd, double salvage_usd, double life_years) {
  return (cost_usd - salvage_usd) / (12.0 * life_years);
}

double straight_line_depreciation_usd(double cost_usd, double salvage_usd, double life_years, int month_since_purchase) {
  const double share = std::clamp(12.0 * life_years - month_since_purchase, 0.0, 1.0);
  return straight_line_depreciation_usd_per_month(cost_usd, salvage_usd, life_years) * share;
}

double npv_usd(const std::vector<TimedFlow>& flows, double rate_per_year) {
  double total = 0.0;
  for (const auto& f : flows) total += f.amount_usd * std::pow(1.0 + rate_per_year, -f.time_years);
  return total;
}

std::optional<double> irr_per_year(const std::vector<TimedFlow>& flows) {
  bool has_in = false, has_out = false;
  for (const auto& f : flows) {
    has_in |= f.amount_usd > 0.0;
    has_out |= f.amount_usd < 0.0;
  }
  if (!has_in || !has_out) return std::nullopt;
  auto f = [&](double r) { return npv_usd(flows, r); };
  // Scan a grid that is dense near 0, where business rates live, for the first sign change.
  double lo = -0.99, f_lo = f(lo);
  for (double hi : {-0.9, -0.75, -0.5, -0.3, -0.2, -0.1, -0.05, 0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3,
                    0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
    const double f_hi = f(hi);
    if (f_lo == 0.0) return lo;
    if ((f_lo < 0.0) != (f_hi < 0.0)) {
      std::uintmax_t iterations = 200;
      auto [a, b] = boost::math::tools::toms748_solve(
          f, lo, hi, f_lo, f_hi, boost::math::tools::eps_tolerance<double>(50), iterations);
      return 0.5 * (a + b);
    }
    lo = hi;
    f_lo = f_hi;
  }
  return std::nullopt;
}

}  // namespace tco
