// Money over time (models/finance.hpp, engine/ledger/ledger.hpp): discounting conventions (SPEC §6),
// loans (§12.2), residual value (§12.5), depreciation, NPV and IRR, against values computed
// by hand with the arithmetic beside each.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/ledger.hpp"
#include "models/finance.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

using tco::test::kEps;
// The loan's effective annual rate, 1.005^12 - 1: discounting at it makes an annuity at
// 0.5 % a month worth exactly its principal.
const double kLoanEffectiveRate = std::pow(1.005, 12) - 1.0;  // 0.0616778118644983

}  // namespace

TEST_CASE("finance: start and end of month discount factors") {
  // Start of month 0 is t = 0: no discount.
  CHECK(discount_start_of_month(0.10, 0) == 1.0);
  // Start of month 12 is t = 1 year: 1 / 1.1 = 0.909090...
  CHECK(discount_start_of_month(0.10, 12) == doctest::Approx(1.0 / 1.1).epsilon(kEps));
  // End of month 11 is the same instant, t = 12/12 = 1 year.
  CHECK(discount_end_of_month(0.10, 11) == doctest::Approx(1.0 / 1.1).epsilon(kEps));
  // End of month 0 is t = 1/12 year: 1.1^(-1/12) = 0.99208894...
  CHECK(discount_end_of_month(0.10, 0) == doctest::Approx(0.9920889434).epsilon(1e-9));
  // End of month 23 is t = 2 years: 1 / 1.21 = 0.82644628...
  CHECK(discount_end_of_month(0.10, 23) == doctest::Approx(1.0 / 1.21).epsilon(kEps));
  // A zero rate discounts nothing.
  CHECK(discount_end_of_month(0.0, 35) == 1.0);
}

TEST_CASE("finance: the ledger discounts start-of-month entries, end-of-month entries and the residual at H/12") {
  const double rate = 0.10;
  Ledger ledger(24);
  ledger.add(0, Category::capex, 1000.0, Timing::start_of_month);        // t = 0
  ledger.add(12, Category::lease, 1000.0, Timing::start_of_month);       // t = 1
  ledger.add(0, Category::energy, 1000.0, Timing::end_of_month);         // t = 1/12
  // The residual of a 24-month horizon is booked at the end of month 23: t = H/12 = 2.
  ledger.add(23, Category::residual, -1000.0, Timing::end_of_month);

  CHECK(ledger.category_npv_usd(Category::capex, rate) == doctest::Approx(1000.0).epsilon(kEps));
  // 1000 / 1.1 = 909.0909...
  CHECK(ledger.category_npv_usd(Category::lease, rate) == doctest::Approx(909.0909090909).epsilon(1e-10));
  // 1000 x 1.1^(-1/12) = 992.0889434...
  CHECK(ledger.category_npv_usd(Category::energy, rate) == doctest::Approx(992.0889434).epsilon(1e-9));
  // -1000 / 1.21 = -826.446281
  CHECK(ledger.category_npv_usd(Category::residual, rate) == doctest::Approx(-826.4462810).epsilon(1e-9));
  // Total: 1000 + 909.0909091 + 992.0889434 - 826.4462810 = 2074.7335715
  CHECK(ledger.npv_usd(rate) == doctest::Approx(2074.7335715).epsilon(1e-9));
  // Nominal: 1000 + 1000 + 1000 - 1000 = 2000; month 0 holds the capex and the energy.
  CHECK(ledger.total_usd() == 2000.0);
  CHECK(ledger.month_total_usd(0) == 2000.0);
  CHECK(ledger.month_category_usd(23, Category::residual) == -1000.0);

  // Cumulative discounted cost: month 0 = 1000 + 992.0889434; month 12 adds 909.0909091.
  const std::vector<double> cumulative = ledger.cumulative_discounted_usd(rate);
  REQUIRE(cumulative.size() == 24);
  CHECK(cumulative[0] == doctest::Approx(1992.0889434).epsilon(1e-9));
  CHECK(cumulative[11] == doctest::Approx(1992.0889434).epsilon(1e-9));
  CHECK(cumulative[12] == doctest::Approx(2901.1798525).epsilon(1e-9));
  CHECK(cumulative[23] == doctest::Approx(2074.7335715).epsilon(1e-9));

  // As timed flows: (0, 1000), (1/12, 1000), (1, 1000), (2, -1000).
  const std::vector<TimedFlow> flows = ledger.flows();
  REQUIRE(flows.size() == 4);
  CHECK(flows[0].time_years == 0.0);
  CHECK(flows[1].time_years == doctest::Approx(1.0 / 12.0).epsilon(kEps));
  CHECK(flows[2].time_years == 1.0);
  CHECK(flows[3].time_years == 2.0);
  CHECK(flows[3].amount_usd == -1000.0);
}

TEST_CASE("finance: the ledger's discount factors follow the rate and the horizon from one NPV to the next") {
  // The ledger keeps the last rate's factors (engine/ledger/ledger.cpp): a new rate, or a longer
  // horizon at the same rate, must not read stale ones.
  Ledger year(13);
  year.add(11, Category::energy, 1000.0, Timing::end_of_month);  // t = 1
  year.add(12, Category::capex, 500.0, Timing::start_of_month);  // t = 1
  // At 10%: 1500 / 1.1 = 1363.6363636...
  CHECK(year.npv_usd(0.10) == doctest::Approx(1363.6363636364).epsilon(1e-10));
  // At 21%: 1500 / 1.21 = 1239.6694215...
  CHECK(year.npv_usd(0.21) == doctest::Approx(1239.6694214876).epsilon(1e-10));
  CHECK(year.npv_usd(0.0) == 1500.0);
  Ledger two_years(25);
  two_years.add(23, Category::energy, 1000.0, Timing::end_of_month);  // t = 2: 1000 / 1.21 at 10%
  two_years.add(24, Category::capex, 1000.0, Timing::start_of_month);
  CHECK(year.npv_usd(0.10) == doctest::Approx(1363.6363636364).epsilon(1e-10));
  // 2000 / 1.21 = 1652.8925619...: months 13 to 24 at the rate the 13-month ledger used last.
  CHECK(two_years.npv_usd(0.10) == doctest::Approx(1652.8925619835).epsilon(1e-10));
  // The very pow values: bit for bit what discount_end_of_month and discount_start_of_month give.
  CHECK(two_years.category_npv_usd(Category::energy, 0.10) == 1000.0 * discount_end_of_month(0.10, 23));
  CHECK(two_years.cumulative_discounted_usd(0.07)[24] ==
        1000.0 * discount_end_of_month(0.07, 23) + 1000.0 * discount_start_of_month(0.07, 24));
}

TEST_CASE("finance: loan payment of $100,000 at 6% APR over 12 months is $8,606.64") {
  // i = 0.06 / 12 = 0.005; 1.005^-12 = 0.94190534; payment = 100,000 x 0.005 / (1 - 0.94190534)
  // = 500 / 0.05809466 = 8,606.6429
  const double payment = loan_payment_usd(100000.0, 0.06, 12);
  CHECK(std::abs(payment - 8606.64) < 0.005);
  // The annuity identity: the 12 payments discounted at 0.5 % a month are worth the principal.
  double present_value = 0.0;
  for (int k = 1; k <= 12; ++k) present_value += payment / std::pow(1.005, k);
  CHECK(present_value == doctest::Approx(100000.0).epsilon(kEps));
  // Without interest the principal is split evenly: 12,000 / 12 = 1,000.
  CHECK(loan_payment_usd(12000.0, 0.0, 12) == doctest::Approx(1000.0).epsilon(kEps));
}

TEST_CASE("finance: a loan schedule's principal sums to the loan and interest is payments minus principal") {
  const double payment = loan_payment_usd(100000.0, 0.06, 12);  // 8,606.6429
  const std::vector<LoanMonth> schedule = loan_schedule(100000.0, 0.06, 12, 12);
  REQUIRE(schedule.size() == 12);
  // Month 0: interest 100,000 x 0.005 = 500; principal 8,606.6429 - 500 = 8,106.6429.
  CHECK(schedule[0].interest_usd == doctest::Approx(500.0).epsilon(kEps));
  CHECK(schedule[0].principal_usd == doctest::Approx(payment - 500.0).epsilon(kEps));
  CHECK(schedule[0].balance_after_usd == doctest::Approx(100000.0 - (payment - 500.0)).epsilon(kEps));
  double principal = 0.0, interest = 0.0;
  for (const auto& m : schedule) {
    principal += m.principal_usd;
    interest += m.interest_usd;
    // Every month pays the same annuity (the last one clears the rounding, to within a cent).
    CHECK(m.principal_usd + m.interest_usd == doctest::Approx(payment).epsilon(1e-9));
  }
  CHECK(principal == doctest::Approx(100000.0).epsilon(kEps));
  // Interest = 12 x 8,606.6429 - 100,000 = 3,279.7156
  CHECK(interest == doctest::Approx(12.0 * payment - 100000.0).epsilon(1e-9));
  CHECK(interest == doctest::Approx(3279.7156485).epsilon(1e-9));
  CHECK(std::abs(schedule.back().balance_after_usd) < 1e-9);

  // Cut short at 5 months: the balance left is the value of the 7 payments still due,
  // 8,606.6429 x (1 - 1.005^-7) / 0.005 = 59,059.42...
  const std::vector<LoanMonth> first5 = loan_schedule(100000.0, 0.06, 12, 5);
  REQUIRE(first5.size() == 5);
  CHECK(first5.back().balance_after_usd ==
        doctest::Approx(payment * (1.0 - std::pow(1.005, -7)) / 0.005).epsilon(1e-10));
  // Asking for more months than the term gives the term.
  CHECK(loan_schedule(100000.0, 0.06, 12, 20).size() == 12);
}

TEST_CASE("finance: residual value declines geometrically with fractional age") {
  // 100,000 x 0.7^2 = 49,000
  CHECK(residual_value_usd(100000.0, 0.3, 2.0) == doctest::Approx(49000.0).epsilon(kEps));
  // 100,000 x 0.7^1.5 = 100,000 x 0.585662019 = 58,566.2019
  CHECK(residual_value_usd(100000.0, 0.3, 1.5) == doctest::Approx(58566.2019).epsilon(1e-9));
  CHECK(residual_value_usd(100000.0, 0.3, 0.0) == 100000.0);
  CHECK(residual_value_usd(100000.0, 0.0, 7.0) == 100000.0);
}

TEST_CASE("finance: straight-line depreciation") {
  // (120,000 - 12,000) / (12 x 3) = 108,000 / 36 = 3,000 a month
  CHECK(straight_line_depreciation_usd_per_month(120000.0, 12000.0, 3.0) == doctest::Approx(3000.0).epsilon(kEps));
  // (470,000 - 47,000) / (12 x 5) = 423,000 / 60 = 7,050
  CHECK(straight_line_depreciation_usd_per_month(470000.0, 47000.0, 5.0) == doctest::Approx(7050.0).epsilon(kEps));
}

TEST_CASE("finance: straight-line depreciation over a life that ends inside a month") {
  // 1,200,000 - 10 % salvage = 1,080,000 over 3.3 years = 39.6 months: 1,080,000 / 39.6 =
  // 27,272.73 for months 0..38, 0.6 x 27,272.73 = 16,363.64 in month 39, nothing from 40 on.
  const double rate_usd = 1080000.0 / 39.6;
  CHECK(straight_line_depreciation_usd(1200000.0, 120000.0, 3.3, 0) == doctest::Approx(rate_usd).epsilon(kEps));
  CHECK(straight_line_depreciation_usd(1200000.0, 120000.0, 3.3, 38) == doctest::Approx(rate_usd).epsilon(kEps));
  CHECK(straight_line_depreciation_usd(1200000.0, 120000.0, 3.3, 39) == doctest::Approx(0.6 * rate_usd).epsilon(1e-9));
  CHECK(straight_line_depreciation_usd(1200000.0, 120000.0, 3.3, 40) == 0.0);
  // 39 x 27,272.73 + 16,363.64 = 1,080,000: the life books cost - salvage, no more.
  double total_usd = 0.0;
  for (int k = 0; k < 48; ++k) total_usd += straight_line_depreciation_usd(1200000.0, 120000.0, 3.3, k);
  CHECK(total_usd == doctest::Approx(1080000.0).epsilon(1e-12));
  // A whole number of years: 36 equal months, the per-month figure bit for bit.
  CHECK(straight_line_depreciation_usd(120000.0, 12000.0, 3.0, 35) ==
        straight_line_depreciation_usd_per_month(120000.0, 12000.0, 3.0));
  CHECK(straight_line_depreciation_usd(120000.0, 12000.0, 3.0, 36) == 0.0);
}

TEST_CASE("finance: npv of timed flows") {
  // 100 + 110 / 1.1 + 121 / 1.21 = 300
  CHECK(npv_usd({{0.0, 100.0}, {1.0, 110.0}, {2.0, 121.0}}, 0.10) == doctest::Approx(300.0).epsilon(kEps));
  // Half a year at 21 %: 110 / sqrt(1.21) = 110 / 1.1 = 100
  CHECK(npv_usd({{0.5, 110.0}}, 0.21) == doctest::Approx(100.0).epsilon(kEps));
  // Twelve end-of-month payments of a 6 % loan at its effective rate are worth the principal.
  const double payment = loan_payment_usd(100000.0, 0.06, 12);
  std::vector<TimedFlow> payments;
  for (int m = 0; m < 12; ++m) payments.push_back({(m + 1) / 12.0, payment});
  CHECK(npv_usd(payments, kLoanEffectiveRate) == doctest::Approx(100000.0).epsilon(1e-12));
}

TEST_CASE("finance: irr of flows with a known rate") {
  // -100 now, +110 in a year: 110 / 100 - 1 = 10 %.
  const auto ten = irr_per_year({{0.0, -100.0}, {1.0, 110.0}});
  REQUIRE(ten.has_value());
  CHECK(*ten == doctest::Approx(0.10).epsilon(1e-12));
  // -100 now, +121 in two years: sqrt(1.21) - 1 = 10 %.
  const auto two_years = irr_per_year({{0.0, -100.0}, {2.0, 121.0}});
  REQUIRE(two_years.has_value());
  CHECK(*two_years == doctest::Approx(0.10).epsilon(1e-12));
  // -1000, +600, +600: with x = 1 + r, 1000 x^2 - 600 x - 600 = 0,
  // x = (600 + sqrt(600^2 + 4 x 1000 x 600)) / 2000 = (600 + 1661.32477) / 2000 = 1.13066239
  const auto quadratic = irr_per_year({{0.0, -1000.0}, {1.0, 600.0}, {2.0, 600.0}});
  REQUIRE(quadratic.has_value());
  CHECK(*quadratic == doctest::Approx((600.0 + std::sqrt(360000.0 + 2400000.0)) / 2000.0 - 1.0).epsilon(1e-12));
  // A loss: -100, +90 in a year is -10 %.
  const auto loss = irr_per_year({{0.0, -100.0}, {1.0, 90.0}});
  REQUIRE(loss.has_value());
  CHECK(*loss == doctest::Approx(-0.10).epsilon(1e-12));
  // Borrowing: +100,000 now, then 12 payments of a 6 % APR loan: 1.005^12 - 1 = 6.1678 %.
  const double payment = loan_payment_usd(100000.0, 0.06, 12);
  std::vector<TimedFlow> loan = {{0.0, 100000.0}};
  for (int m = 0; m < 12; ++m) loan.push_back({(m + 1) / 12.0, -payment});
  const auto loan_rate = irr_per_year(loan);
  REQUIRE(loan_rate.has_value());
  CHECK(*loan_rate == doctest::Approx(kLoanEffectiveRate).epsilon(1e-10));
  // Flows of one sign have no IRR.
  CHECK_FALSE(irr_per_year({{0.0, 100.0}, {1.0, 110.0}}).has_value());
  CHECK_FALSE(irr_per_year({{0.0, -100.0}, {1.0, -110.0}}).has_value());
  CHECK_FALSE(irr_per_year({}).has_value());
}
