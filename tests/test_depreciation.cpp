// Depreciation views (models/finance/depreciation.hpp): book straight line and double-declining
// balance, MACRS with bonus and section 179 in the IRS order, and the tax on a sale, against
// values computed by hand with the arithmetic beside each.
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "models/finance/depreciation.hpp"
#include "models/finance/economic_depreciation.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

constexpr double kCent = 0.005;

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

double sum_tax(const std::vector<TaxDepreciationYear>& years) {
  double total = 0.0;
  for (const auto& y : years) total += y.total_usd;
  return total;
}

}  // namespace

TEST_CASE("depreciation: MACRS 5-year half-year on $1,000,000 is 20, 32, 19.2, 11.52, 11.52, 5.76% to the cent") {
  const auto years = tax_depreciation_by_year(1'000'000.0, TaxDepreciationSpec{5, 0.0, 0.0});
  const std::vector<double> expected_usd = {200'000.00, 320'000.00, 192'000.00, 115'200.00, 115'200.00, 57'600.00};
  REQUIRE(years.size() == expected_usd.size());
  for (std::size_t k = 0; k < years.size(); ++k) {
    INFO("recovery year " << k + 1);
    CHECK(std::abs(years[k].macrs_usd - expected_usd[k]) < kCent);
    CHECK(std::abs(years[k].total_usd - expected_usd[k]) < kCent);
  }
  // Basis after year 3: 1,000,000 - 200,000 - 320,000 - 192,000 = 288,000; after year 6, nothing.
  CHECK(std::abs(years[2].basis_after_usd - 288'000.0) < kCent);
  CHECK(std::abs(years[5].basis_after_usd) < kCent);
}

TEST_CASE("depreciation: the MACRS tables match ../shared/data/published-prices/macrs_half_year.csv") {
  TCO_REQUIRE_SHARED_DATA();
  std::ifstream in(test::shared_data_path("published-prices/macrs_half_year.csv"));
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);  // recovery_year,class_3_year_pct,class_5_year_pct,class_7_year_pct
  const int classes[3] = {3, 5, 7};
  int rows = 0;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string cell;
    std::getline(row, cell, ',');
    const int year = std::stoi(cell);
    for (int c : classes) {
      std::getline(row, cell, ',');
      const auto percent = macrs_half_year_percent(c);
      INFO("class " << c << " year " << year << " csv '" << cell << "'");
      if (cell.empty()) {
        CHECK(static_cast<int>(percent.size()) < year);
      } else {
        REQUIRE(static_cast<int>(percent.size()) >= year);
        CHECK(percent[year - 1] == doctest::Approx(std::stod(cell)).epsilon(1e-12));
      }
    }
    ++rows;
  }
  CHECK(rows == 8);  // the 7-year class runs 8 recovery years
}

TEST_CASE("depreciation: each MACRS class sums to 100% of the basis") {
  for (int c : {3, 5, 7}) {
    INFO("class " << c);
    const auto years = tax_depreciation_by_year(1'000'000.0, TaxDepreciationSpec{c, 0.0, 0.0});
    CHECK(static_cast<int>(years.size()) == c + 1);  // the half-year convention adds a year
    CHECK(std::abs(sum_tax(years) - 1'000'000.0) < kCent);
  }
}

TEST_CASE("depreciation: MACRS 5-year mid-quarter on $1,000,000 reproduces Pub 946 Tables A-2 (Q1) and A-5 (Q4)") {
  // 200% declining balance, rate 2/5 = 40%, with the switch to straight line over the recovery left.
  // Q1 (Table A-2), placed in service mid-Q1, so year 1 holds 10.5 of 12 months:
  //   y1 40% x 10.5/12 = 35%; y2 40% x 65 = 26%; y3 40% x 39 = 15.6%;
  //   y4 40% x 23.4 = 9.36% < SL 23.4 / 2.125 years left = 11.01%; y5 11.01%; y6 23.4 - 22.02 = 1.38%.
  // Q4 (Table A-5), 1.5 of 12 months in year 1:
  //   y1 40% x 1.5/12 = 5%; y2 40% x 95 = 38%; y3 40% x 57 = 22.8%; y4 40% x 34.2 = 13.68% (> SL
  //   34.2 / 2.875 = 11.90%); y5 40% x 20.52 = 8.21% < SL 20.52 / 1.875 = 10.94%; y6 20.52 - 10.94 = 9.58%.
  struct Case {
    int quarter;
    std::vector<double> expected_usd;
  };
  const Case cases[] = {
      {1, {350'000.00, 260'000.00, 156'000.00, 110'100.00, 110'100.00, 13'800.00}},
      {4, {50'000.00, 380'000.00, 228'000.00, 136'800.00, 109'400.00, 95'800.00}},
  };
  for (const Case& c : cases) {
    TaxDepreciationSpec spec{5, 0.0, 0.0};
    spec.convention = MacrsConvention::mid_quarter;
    spec.placed_in_service_quarter = c.quarter;
    const auto years = tax_depreciation_by_year(1'000'000.0, spec);
    REQUIRE(years.size() == c.expected_usd.size());
    for (std::size_t k = 0; k < years.size(); ++k) {
      INFO("quarter " << c.quarter << ", recovery year " << k + 1);
      CHECK(std::abs(years[k].macrs_usd - c.expected_usd[k]) < kCent);
    }
    CHECK(std::abs(years.back().basis_after_usd) < kCent);
  }
}

TEST_CASE("depreciation: every mid-quarter table sums to 100% and differs from the half-year table") {
  for (int c : {3, 5, 7}) {
    for (int q = 1; q <= 4; ++q) {
      INFO("class " << c << " quarter " << q);
      const auto percent = macrs_mid_quarter_percent(c, q);
      REQUIRE(static_cast<int>(percent.size()) == c + 1);
      CHECK(std::abs(std::accumulate(percent.begin(), percent.end(), 0.0) - 100.0) < 1e-9);
      CHECK(percent[0] != macrs_half_year_percent(c)[0]);
    }
  }
  // Year 1 falls with the quarter: 3-year 58.33, 41.67, 25, 8.33 (66.67% x 10.5, 7.5, 4.5, 1.5 / 12).
  CHECK(macrs_mid_quarter_percent(3, 1)[0] == 58.33);
  CHECK(macrs_mid_quarter_percent(3, 4)[0] == 8.33);
  CHECK(macrs_mid_quarter_percent(7, 2)[0] == 17.85);  // Table A-3 as printed
  CHECK(macrs_mid_quarter_percent(5, 0).empty());
  CHECK(macrs_mid_quarter_percent(5, 5).empty());
  CHECK(macrs_mid_quarter_percent(4, 1).empty());
}

TEST_CASE("depreciation: the tax quarter is the calendar quarter of the delivery's calendar date") {
  // Delivery at the start of model month m = hour 730 m = day floor(730 m / 24) after the start.
  CHECK(tax_quarter_of_month(Date{2026, 1, 1}, 0) == 1);   // 2026-01-01
  CHECK(tax_quarter_of_month(Date{2026, 1, 1}, 3) == 2);   // day 91: 2026-04-02
  CHECK(tax_quarter_of_month(Date{2026, 1, 1}, 11) == 4);  // day 334: 2026-12-01
  CHECK(tax_quarter_of_month(Date{2026, 1, 1}, 12) == 1);  // day 365: 2027-01-01
  CHECK(tax_quarter_of_month(Date{2026, 11, 1}, 3) == 1);  // day 91: 2027-01-31
  CHECK(tax_quarter_of_month(Date{2026, 10, 1}, 2) == 4);  // day 60: 2026-11-30
  // Issue 42: start 2026-11-01, month 2 = hour 1,460 = day 60 (60.83) = 2026-12-31, quarter 4;
  // November + 2 calendar months would be January, quarter 1.
  CHECK(tax_quarter_of_month(Date{2026, 11, 1}, 2) == 4);
  // Month 27 of a 2026-12-01 start: day floor(19,710 / 24) = 821 = 2029-03-01 (2028 is a leap
  // year: 2026-12-01 + 365 = 2027-12-01, + 456 = 2029-03-01).
  CHECK(tax_quarter_of_month(Date{2026, 12, 1}, 27) == 1);
}

TEST_CASE("calendar: add_days and date_at_hour walk the real calendar") {
  CHECK(format_date(add_days(Date{2026, 11, 1}, 60)) == "2026-12-31");
  CHECK(format_date(add_days(Date{2028, 2, 28}, 1)) == "2028-02-29");
  CHECK(format_date(add_days(Date{2027, 2, 28}, 1)) == "2027-03-01");
  CHECK(format_date(add_days(Date{2026, 1, 5}, -5)) == "2025-12-31");
  CHECK(format_date(add_days(Date{2026, 12, 1}, 821)) == "2029-03-01");
  CHECK(days_between(Date{2026, 12, 1}, add_days(Date{2026, 12, 1}, 821)) == 821);
  CHECK(format_date(date_at_hour(Date{2026, 11, 1}, 1460)) == "2026-12-31");  // 60.83 days
  CHECK(format_date(date_at_hour(Date{2026, 11, 1}, 1439)) == "2026-12-30");  // 59.96 days
}

TEST_CASE("depreciation: 100% bonus puts the whole deduction in year one") {
  const auto years = tax_depreciation_by_year(1'000'000.0, TaxDepreciationSpec{5, 1.0, 0.0});
  CHECK(years[0].bonus_usd == 1'000'000.0);
  CHECK(years[0].total_usd == 1'000'000.0);
  for (std::size_t k = 1; k < years.size(); ++k) CHECK(years[k].total_usd == 0.0);
  CHECK(years[0].basis_after_usd == 0.0);
}

TEST_CASE("depreciation: section 179 first, then bonus on the remainder, then MACRS on the rest") {
  // 1,000,000 cost, 200,000 of section 179, 50% bonus: bonus = 0.5 x 800,000 = 400,000; MACRS base
  // 1,000,000 - 200,000 - 400,000 = 400,000; year 1 = 200,000 + 400,000 + 20% x 400,000 = 680,000;
  // year 2 = 32% x 400,000 = 128,000.
  const auto years = tax_depreciation_by_year(1'000'000.0, TaxDepreciationSpec{5, 0.5, 200'000.0});
  CHECK(years[0].section_179_usd == 200'000.0);
  CHECK(years[0].bonus_usd == 400'000.0);
  CHECK(std::abs(years[0].macrs_usd - 80'000.0) < kCent);
  CHECK(std::abs(years[0].total_usd - 680'000.0) < kCent);
  CHECK(std::abs(years[1].total_usd - 128'000.0) < kCent);
  CHECK(years[1].section_179_usd == 0.0);
  CHECK(years[1].bonus_usd == 0.0);
  CHECK(std::abs(sum_tax(years) - 1'000'000.0) < kCent);
  // A section 179 amount above the cost expenses the cost and no more.
  const auto capped = tax_depreciation_by_year(300'000.0, TaxDepreciationSpec{5, 0.5, 1'000'000.0});
  CHECK(capped[0].section_179_usd == 300'000.0);
  CHECK(capped[0].total_usd == 300'000.0);
}

TEST_CASE("depreciation: double-declining balance switches to straight line in the right year") {
  // $100,000, no salvage, 5 years: rate 2/5 = 40%.
  //   year 1: 40% x 100,000 = 40,000   vs SL 100,000 / 5 = 20,000   -> 40,000, book 60,000
  //   year 2: 40% x  60,000 = 24,000   vs SL  60,000 / 4 = 15,000   -> 24,000, book 36,000
  //   year 3: 40% x  36,000 = 14,400   vs SL  36,000 / 3 = 12,000   -> 14,400, book 21,600
  //   year 4: 40% x  21,600 =  8,640   vs SL  21,600 / 2 = 10,800   -> switch: 10,800, book 10,800
  //   year 5: the 10,800 left.
  const auto years = double_declining_balance_by_year_usd(100'000.0, 0.0, 5.0);
  const std::vector<double> expected_usd = {40'000.0, 24'000.0, 14'400.0, 10'800.0, 10'800.0};
  REQUIRE(years.size() == expected_usd.size());
  for (std::size_t k = 0; k < years.size(); ++k) {
    INFO("year " << k + 1);
    CHECK(years[k] == doctest::Approx(expected_usd[k]).epsilon(1e-12));
  }
  // With salvage 10,000 the straight line never catches up: 40,000, 24,000, 14,400, 8,640, then
  // the 2,960 left above the salvage (100,000 - 10,000 - 87,040).
  const auto salvaged = double_declining_balance_by_year_usd(100'000.0, 10'000.0, 5.0);
  const std::vector<double> salvaged_usd = {40'000.0, 24'000.0, 14'400.0, 8'640.0, 2'960.0};
  for (std::size_t k = 0; k < salvaged.size(); ++k) CHECK(salvaged[k] == doctest::Approx(salvaged_usd[k]).epsilon(1e-12));
}

TEST_CASE("depreciation: straight line by year, with a part year at the end") {
  // $1,080,000 over 3.3 years: 1,080,000 / 3.3 = 327,272.73 a year, 0.3 x that = 98,181.82 in year 4.
  const auto years = straight_line_by_year_usd(1'080'000.0, 0.0, 3.3);
  REQUIRE(years.size() == 4);
  CHECK(years[0] == doctest::Approx(327'272.727272727).epsilon(1e-12));
  CHECK(years[2] == doctest::Approx(327'272.727272727).epsilon(1e-12));
  CHECK(years[3] == doctest::Approx(98'181.8181818182).epsilon(1e-9));
}

TEST_CASE("depreciation: book totals equal cost minus salvage, for both methods and any life") {
  for (BookMethod method : {BookMethod::straight_line, BookMethod::double_declining_balance}) {
    for (double life_years : {1.0, 2.5, 3.0, 3.3, 4.0, 5.0, 6.0, 7.25, 10.0, 30.0}) {
      for (double salvage_usd : {0.0, 50'000.0, 250'000.0}) {
        INFO("method " << static_cast<int>(method) << " life " << life_years << " salvage " << salvage_usd);
        const auto years = book_depreciation_by_year_usd(method, 1'000'000.0, salvage_usd, life_years);
        CHECK(sum(years) == doctest::Approx(1'000'000.0 - salvage_usd).epsilon(1e-12));
        for (double d : years) CHECK(d >= 0.0);
      }
    }
  }
}

TEST_CASE("depreciation: recapture on a sale in year 3") {
  // MACRS 5-year on $1,000,000; deductions for years 1-3 = 200,000 + 320,000 + 192,000 = 712,000,
  // so the tax basis at the sale is 288,000.
  const double basis_usd = tax_depreciation_by_year(1'000'000.0, TaxDepreciationSpec{5, 0.0, 0.0})[2].basis_after_usd;
  // Sold for 400,000: min(400,000, 1,000,000) - 288,000 = 112,000 ordinary income; at 21%, $23,520 of tax.
  const SaleTaxBase sold = sale_tax_base(1'000'000.0, basis_usd, 400'000.0);
  CHECK(std::abs(sold.ordinary_recapture_usd - 112'000.0) < kCent);
  CHECK(sold.capital_gain_usd == 0.0);
  CHECK(sold.loss_usd == 0.0);
  CHECK(std::abs(0.21 * sold.taxable_usd() - 23'520.0) < kCent);
  // Sold above cost for 1,100,000: recapture is capped at the 712,000 taken, 100,000 is capital gain.
  const SaleTaxBase above = sale_tax_base(1'000'000.0, basis_usd, 1'100'000.0);
  CHECK(std::abs(above.ordinary_recapture_usd - 712'000.0) < kCent);
  CHECK(std::abs(above.capital_gain_usd - 100'000.0) < kCent);
  // Sold for 250,000, below the basis: a 38,000 loss, which lowers the tax (taxable -38,000).
  const SaleTaxBase below = sale_tax_base(1'000'000.0, basis_usd, 250'000.0);
  CHECK(below.ordinary_recapture_usd == 0.0);
  CHECK(std::abs(below.loss_usd - 38'000.0) < kCent);
  CHECK(std::abs(below.taxable_usd() + 38'000.0) < kCent);
}

TEST_CASE("depreciation: the economic view follows the resale curve and the next generation's step") {
  // Paid 1,000,000; resale base 900,000 at 30% a year; a step of x0.75 from month 18; delivered
  // at month 0. Year 1 ends in month 11 (no step): V(1) = 900,000 x 0.7 = 630,000, losing 370,000.
  // Year 2 ends in month 23 (stepped): V(2) = 900,000 x 0.49 x 0.75 = 330,750, losing 299,250.
  // Year 3: V(3) = 900,000 x 0.343 x 0.75 = 231,525, losing 99,225. In all 1,000,000 - 231,525.
  const GenerationStep step{18 * 730, 0.75};
  const std::vector<EconomicYear> years = economic_depreciation(1'000'000.0, 900'000.0, 0.3, step, 0, 3);
  REQUIRE(years.size() == 3);
  CHECK(std::abs(years[0].depreciation_usd - 370'000.0) < kCent);
  CHECK(std::abs(years[0].value_after_usd - 630'000.0) < kCent);
  CHECK(std::abs(years[1].depreciation_usd - 299'250.0) < kCent);
  CHECK(std::abs(years[1].value_after_usd - 330'750.0) < kCent);
  CHECK(std::abs(years[2].depreciation_usd - 99'225.0) < kCent);
  CHECK(std::abs(years[0].depreciation_usd + years[1].depreciation_usd + years[2].depreciation_usd - 768'475.0) < kCent);
  // Delivered at month 7, year 1 ends in month 18: the step is in it already.
  CHECK(std::abs(economic_depreciation(1'000'000.0, 900'000.0, 0.3, step, 7, 1)[0].value_after_usd - 472'500.0) < kCent);
}
