// Whole plans through the engine (tco::load_scenario + tco::run_deterministic): each fixture
// under tests/fixtures/scenarios is run as `tcosim run` would run it, and every category of
// its ledger is checked against a hand computation (SPEC §6, §12.2-12.6, §12.14, §12.15).
// The fixture catalog's round numbers are listed in tests/scenario_builder.hpp.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "engine/ledger/ledger.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"
#include "ledger_test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

using tco::test::kEps;
// Hourly sums: 8,760-17,520 additions of rounded terms carry up to ~1e-12 relative error;
// 1e-9 leaves room for that and still catches a single wrong hour (1/8,760 = 1.1e-4).
constexpr double kHourlySumEps = 1e-9;

double total(const PlanResult& r, Category c) { return r.ledger.category_total_usd(c); }

// Sum of (1 + rate)^(k / periods_per_year) for k = first .. last: a geometric series,
// (q^(last + 1) - q^first) / (q - 1) with q = (1 + rate)^(1 / periods_per_year).
double growth_sum(double rate, double periods_per_year, int first, int last) {
  const double q = std::pow(1.0 + rate, 1.0 / periods_per_year);
  return (std::pow(q, last + 1) - std::pow(q, first)) / (q - 1.0);
}

}  // namespace

TEST_CASE("ledger: simple.json, 2 bought nodes vs renting 16 GPUs for a year") {
  const ScenarioOutcome o = run_fixture("simple.json");
  const PlanResult& cloud = o.plan("cloud");
  // 16 GPUs = 2 instances x $16/h x 8,760 h = $280,320
  CHECK(total(cloud, Category::cloud_on_demand) == doctest::Approx(280320.0).epsilon(kEps));
  CHECK(cloud.total_usd == doctest::Approx(280320.0).epsilon(kEps));

  const PlanResult& buy = o.plan("buy-2");
  // Capex: 2 x $200,000 = $400,000, at the start of month 0.
  CHECK(total(buy, Category::capex) == doctest::Approx(400000.0).epsilon(kEps));
  CHECK(in_month(buy, 0, Category::capex) == doctest::Approx(400000.0).epsilon(kEps));
  // Maintenance: 400,000 x 0.06 = $24,000 a year, $2,000 a month.
  CHECK(total(buy, Category::maintenance) == doctest::Approx(24000.0).epsilon(kEps));
  CHECK(in_month(buy, 5, Category::maintenance) == doctest::Approx(2000.0).epsilon(kEps));
  // Colocation: 12 x (100 x 20 kW + 500 x 1 rack) = 12 x 2,500 = $30,000
  CHECK(total(buy, Category::facility) == doctest::Approx(30000.0).epsilon(kEps));
  // Energy: 20 kW x 1.5 x 8,760 h x $0.10 = $26,280
  CHECK(total(buy, Category::energy) == doctest::Approx(26280.0).epsilon(kHourlySumEps));
  // Nothing bursts: 16 GPUs fit in 2 x 8.
  CHECK(total(buy, Category::cloud_on_demand) == 0.0);
  CHECK(total(buy, Category::residual) == 0.0);  // switched off
  // 400,000 + 24,000 + 30,000 + 26,280 = $480,280
  CHECK(buy.total_usd == doctest::Approx(480280.0).epsilon(kHourlySumEps));
  // At a zero discount rate NPV = nominal; saving = 280,320 - 480,280 = -$199,960.
  CHECK(o.comparison("buy-2").npv_saving_usd == doctest::Approx(-199960.0).epsilon(kHourlySumEps));
}

TEST_CASE("ledger: a loan puts interest in financing_interest and principal in capex") {
  const ScenarioOutcome o = run_fixture("loan.json");
  const PlanResult& loan = o.plan("loan-12");
  // i = 0.005; payment = 200,000 x 0.005 / (1 - 1.005^-12) = 2 x 8,606.64297 = $17,213.28594
  const double payment = 200000.0 * 0.005 / (1.0 - std::pow(1.005, -12));
  CHECK(payment == doctest::Approx(17213.28594).epsilon(1e-9));
  // Principal: $200,000 in all; month 0 pays 17,213.28594 - 200,000 x 0.005 = 16,213.28594 of it.
  CHECK(total(loan, Category::capex) == doctest::Approx(200000.0).epsilon(kEps));
  CHECK(in_month(loan, 0, Category::capex) == doctest::Approx(payment - 1000.0).epsilon(kEps));
  CHECK(in_month(loan, 0, Category::financing_interest) == doctest::Approx(1000.0).epsilon(kEps));
  // Interest: 12 x 17,213.28594 - 200,000 = $6,559.4313
  CHECK(total(loan, Category::financing_interest) == doctest::Approx(12.0 * payment - 200000.0).epsilon(1e-10));
  // The last payment is mostly principal: 17,213.28594 / 1.005 = 17,127.64770; interest 85.63824.
  CHECK(in_month(loan, 11, Category::capex) == doctest::Approx(payment / 1.005).epsilon(1e-10));
  // Paid at the end of each month: discounted at the loan's own effective rate 1.005^12 - 1
  // (the scenario's rate) the payments are worth the principal, $200,000.
  const double rate = o.scenario.discount_rate_per_year;
  CHECK(loan.ledger.category_npv_usd(Category::capex, rate) + loan.ledger.category_npv_usd(Category::financing_interest, rate) ==
        doctest::Approx(200000.0).epsilon(1e-12));
  // ... so against paying cash its NPV saving is 0 and its IRR is the loan's rate, 6.1678 %.
  const Comparison& c = o.comparison("loan-12");
  CHECK(std::abs(c.npv_saving_usd) < 1e-6);
  REQUIRE(c.irr_per_year.has_value());
  CHECK(*c.irr_per_year == doctest::Approx(std::pow(1.005, 12) - 1.0).epsilon(1e-10));
  // Energy is the same as the cash plan's: 10 kW x 1.5 x 8,760 h x $0.10 = $13,140.
  CHECK(total(loan, Category::energy) == doctest::Approx(13140.0).epsilon(kHourlySumEps));
}

TEST_CASE("ledger: a loan longer than the horizon is paid off at the horizon's end") {
  const ScenarioOutcome o = run_fixture("loan.json");
  const PlanResult& loan = o.plan("loan-24-down");
  // 25 % down = $50,000 at the start of month 0; $150,000 borrowed over 24 months:
  // payment = 150,000 x 0.005 / (1 - 1.005^-24) = 750 / 0.11281433 = $6,648.0915
  const double payment = 150000.0 * 0.005 / (1.0 - std::pow(1.005, -24));
  CHECK(payment == doctest::Approx(6648.0915).epsilon(1e-8));
  // Month 0 capex: the down payment plus the first payment's principal, 6,648.0915 - 750.
  CHECK(in_month(loan, 0, Category::capex) == doctest::Approx(50000.0 + payment - 750.0).epsilon(kEps));
  // Month 11 pays its own principal and the balance left after it, which together are the
  // balance after 11 payments: the 13 payments still due, 6,648.0915 x (1 - 1.005^-13) / 0.005
  // = $83,474.44.
  const double balance_after_11 = payment * (1.0 - std::pow(1.005, -13)) / 0.005;
  CHECK(in_month(loan, 11, Category::capex) == doctest::Approx(balance_after_11).epsilon(1e-10));
  // All of the $200,000 is in capex by the horizon's end.
  CHECK(total(loan, Category::capex) == doctest::Approx(200000.0).epsilon(kEps));
  // Interest: 12 payments less the principal they repaid, 150,000 - balance after 12 =
  // 12 x 6,648.0915 - (150,000 - 6,648.0915 x (1 - 1.005^-12) / 0.005) = $7,020.8224
  const double balance_after_12 = payment * (1.0 - std::pow(1.005, -12)) / 0.005;
  CHECK(total(loan, Category::financing_interest) ==
        doctest::Approx(12.0 * payment - (150000.0 - balance_after_12)).epsilon(1e-10));
  CHECK(total(loan, Category::financing_interest) == doctest::Approx(7020.8224).epsilon(1e-8));
  // Paying the balance off at par leaves the loan's rate unchanged: NPV saving 0, IRR 6.1678 %.
  const Comparison& c = o.comparison("loan-24-down");
  CHECK(std::abs(c.npv_saving_usd) < 1e-6);
  REQUIRE(c.irr_per_year.has_value());
  CHECK(*c.irr_per_year == doctest::Approx(std::pow(1.005, 12) - 1.0).epsilon(1e-10));
}

TEST_CASE("ledger: a lease is paid at the start of each month, with no capex, residual or tax shield") {
  const ScenarioOutcome o = run_fixture("lease.json");
  const double rate = 0.10;
  const PlanResult& incl = o.plan("lease-incl");
  // 2 nodes x $5,000 = $10,000 a month for 12 months = $120,000
  CHECK(total(incl, Category::lease) == doctest::Approx(120000.0).epsilon(kEps));
  CHECK(in_month(incl, 0, Category::lease) == doctest::Approx(10000.0).epsilon(kEps));
  // Start of month m: 10,000 x sum_{m=0..11} 1.1^(-m/12)
  //   = 10,000 x (1 - 1.1^-1) / (1 - 1.1^(-1/12)) = 10,000 x 11.491397 = $114,913.97
  const double lease_npv = 10000.0 * (1.0 - 1.0 / 1.1) / (1.0 - std::pow(1.1, -1.0 / 12.0));
  CHECK(incl.ledger.category_npv_usd(Category::lease, rate) == doctest::Approx(lease_npv).epsilon(1e-12));
  // No purchase: no capex, no residual (though switched on), no depreciation, no tax shield
  // (though enabled); maintenance included in the lease.
  CHECK(total(incl, Category::capex) == 0.0);
  CHECK(total(incl, Category::residual) == 0.0);
  CHECK(total(incl, Category::tax_shield) == 0.0);
  CHECK(total(incl, Category::maintenance) == 0.0);
  CHECK(incl.depreciation_total_usd == 0.0);
  // Energy as usual: 20 kW x 1.5 x 8,760 h x $0.10 = $26,280.
  CHECK(total(incl, Category::energy) == doctest::Approx(26280.0).epsilon(kHourlySumEps));

  // Without maintenance_included: 400,000 x 0.06 / 12 = $2,000 a month, $24,000 a year.
  const PlanResult& maint = o.plan("lease-maint");
  CHECK(total(maint, Category::maintenance) == doctest::Approx(24000.0).epsilon(kEps));
  CHECK(total(maint, Category::lease) == doctest::Approx(120000.0).epsilon(kEps));

  // Starting in month 2: nothing in months 0-1, then 10 x $10,000 = $100,000; the 16 GPUs rent
  // 2 instances x $16/h x 730 h x 2 months = $46,720 before.
  const PlanResult& late = o.plan("lease-from-2");
  CHECK(in_month(late, 1, Category::lease) == 0.0);
  CHECK(in_month(late, 2, Category::lease) == doctest::Approx(10000.0).epsilon(kEps));
  CHECK(total(late, Category::lease) == doctest::Approx(100000.0).epsilon(kEps));
  CHECK(total(late, Category::cloud_on_demand) == doctest::Approx(46720.0).epsilon(kEps));
  CHECK(in_month(late, 2, Category::cloud_on_demand) == 0.0);
}

TEST_CASE("ledger: a purchase in month 3 costs nothing before it, and its residual excludes installation") {
  const ScenarioOutcome o = run_fixture("purchase_month3.json");
  const PlanResult& buy = o.plan("buy-2-at-3");
  for (int m = 0; m < 3; ++m) {
    CAPTURE(m);
    for (Category c : {Category::capex, Category::maintenance, Category::facility, Category::energy, Category::staff,
                       Category::residual, Category::tax_shield})
      CHECK(in_month(buy, m, c) == 0.0);
    // Before the purchase the 16 GPUs rent 16 one-GPU instances: 16 x $2 x 730 h = $23,360.
    CHECK(in_month(buy, m, Category::cloud_on_demand) == doctest::Approx(23360.0).epsilon(kEps));
    CHECK(buy.depreciation_usd_by_month[m] == 0.0);
  }
  // From month 3 on the two nodes serve everything.
  CHECK(in_month(buy, 3, Category::cloud_on_demand) == 0.0);
  CHECK(total(buy, Category::cloud_on_demand) == doctest::Approx(3.0 * 23360.0).epsilon(kEps));
  // Capex at the start of month 3: 2 x (200,000 + 10,000 + 5,000 + 20,000) = $470,000.
  CHECK(in_month(buy, 3, Category::capex) == doctest::Approx(470000.0).epsilon(kEps));
  CHECK(total(buy, Category::capex) == doctest::Approx(470000.0).epsilon(kEps));
  // Maintenance on all of it: 470,000 x 0.06 / 12 = $2,350 for 21 months = $49,350.
  CHECK(total(buy, Category::maintenance) == doctest::Approx(49350.0).epsilon(kEps));
  // Colocation: 100 x 20 kW + 500 x 1 rack = $2,500 for 21 months = $52,500.
  CHECK(total(buy, Category::facility) == doctest::Approx(52500.0).epsilon(kEps));
  // Energy: 20 kW x 1.5 x $0.10 = $3/h x 730 h = $2,190 for 21 months = $45,990.
  CHECK(total(buy, Category::energy) == doctest::Approx(45990.0).epsilon(kHourlySumEps));
  // Residual, in the last month (23): age (24 - 3) / 12 = 1.75 years; installation has no
  // resale value: -2 x (200,000 + 10,000 + 5,000) x 0.7^1.75 = -430,000 x 0.53569991 = -$230,350.96
  CHECK(in_month(buy, 23, Category::residual) == doctest::Approx(-430000.0 * std::pow(0.7, 1.75)).epsilon(kEps));
  CHECK(total(buy, Category::residual) == doctest::Approx(-230350.9595).epsilon(1e-9));
  // Depreciation (reported, not in the cash ledger): (470,000 - 10 % salvage) / 60 months
  // = 423,000 / 60 = $7,050 a month, for the 21 months inside the horizon = $148,050.
  CHECK(buy.depreciation_usd_by_month[3] == doctest::Approx(7050.0).epsilon(kEps));
  CHECK(buy.depreciation_total_usd == doctest::Approx(148050.0).epsilon(kEps));
  CHECK(total(buy, Category::tax_shield) == 0.0);  // not enabled in this plan
}

TEST_CASE("ledger: depreciation and its tax shield over a life of 2.7 years end at cost minus salvage") {
  Json doc = fixture_json("purchase_month3.json");
  doc["horizon_months"] = 48;
  doc["onprem"]["depreciation"] = {{"life_years", 2.7}, {"salvage_fraction", 0.1}};
  doc["onprem"]["tax"] = {{"rate", 0.25}, {"shield_enabled", true}};
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& buy = o.plan("buy-2-at-3");
  // 470,000 - 10 % = 423,000 over 2.7 x 12 = 32.4 months: 13,055.56 a month in months 3..34,
  // 0.4 x 13,055.56 = 5,222.22 in month 35 (32.4 months after the purchase), then nothing.
  const double rate_usd = 423000.0 / 32.4;
  CHECK(buy.depreciation_usd_by_month[34] == doctest::Approx(rate_usd).epsilon(kEps));
  CHECK(buy.depreciation_usd_by_month[35] == doctest::Approx(0.4 * rate_usd).epsilon(1e-9));
  CHECK(buy.depreciation_usd_by_month[36] == 0.0);
  CHECK(buy.depreciation_total_usd == doctest::Approx(423000.0).epsilon(1e-12));
  // The shield: -25 % of it, -105,750 in all.
  CHECK(total(buy, Category::tax_shield) == doctest::Approx(-0.25 * 423000.0).epsilon(1e-12));
}

TEST_CASE("ledger: staff, fixed plus per node, escalating by the month from the purchase") {
  const ScenarioOutcome o = run_fixture("purchase_month3.json");
  const PlanResult& buy = o.plan("buy-2-at-3");
  // FTEs: 1 fixed + 0.5 x 2 nodes = 2; 2 x $120,000 / 12 = $20,000 a month before escalation.
  CHECK(in_month(buy, 2, Category::staff) == 0.0);
  // Month 3: 20,000 x 1.05^(3/12) = 20,000 x 1.01227223 = $20,245.44
  CHECK(in_month(buy, 3, Category::staff) == doctest::Approx(20000.0 * std::pow(1.05, 0.25)).epsilon(kEps));
  // Month 12: 20,000 x 1.05 = $21,000; month 23: 20,000 x 1.05^(23/12).
  CHECK(in_month(buy, 12, Category::staff) == doctest::Approx(21000.0).epsilon(kEps));
  // All 21 months: 20,000 x sum_{m=3..23} 1.05^(m/12) = 20,000 x 22.14654 = $442,930.90
  CHECK(total(buy, Category::staff) == doctest::Approx(20000.0 * growth_sum(0.05, 12.0, 3, 23)).epsilon(1e-12));
  CHECK(total(buy, Category::staff) == doctest::Approx(442930.8993).epsilon(1e-9));
  // The cloud plan has no nodes and no staff.
  CHECK(total(o.plan("cloud"), Category::staff) == 0.0);
}

TEST_CASE("ledger: the tax shield is -tax_rate x depreciation, month by month") {
  const ScenarioOutcome o = run_fixture("purchase_month3.json");
  const PlanResult& taxed = o.plan("buy-2-at-3-taxed");
  // -0.25 x 7,050 = -$1,762.50 a month from month 3; x 21 months = -$37,012.50
  CHECK(in_month(taxed, 2, Category::tax_shield) == 0.0);
  CHECK(in_month(taxed, 3, Category::tax_shield) == doctest::Approx(-1762.5).epsilon(kEps));
  CHECK(total(taxed, Category::tax_shield) == doctest::Approx(-37012.5).epsilon(kEps));
  // Everything else equal, the shield is the whole difference in cost.
  CHECK(taxed.total_usd - o.plan("buy-2-at-3").total_usd == doctest::Approx(-37012.5).epsilon(1e-9));
}

TEST_CASE("ledger: time-of-use energy and the demand charge on the month's peak facility kW") {
  const ScenarioOutcome o = run_fixture("power_tariffs.json");
  const PlanResult& tou = o.plan("tou");
  // 4 of 8 GPUs busy: IT = 2 + 8 x 0.5 = 6 kW; facility = 6 x 1.5 = 9 kW every hour.
  CHECK(tou.peak_facility_kw_by_month[0] == doctest::Approx(9.0).epsilon(kEps));
  // Month 0 (730 h from Monday 2026-01-05 00:00): 30 whole days (22 weekdays, 8 weekend days)
  // and 10 hours of Wednesday 02-04 (8 off-peak, 2 peak). A weekday costs 12 x 0.20 + 12 x 0.10
  // = $3.60 per kW, a weekend day 24 x 0.05 = $1.20:
  //   9 kW x (22 x 3.60 + 8 x 1.20 + 8 x 0.10 + 2 x 0.20) = 9 x 90 = $810
  // plus the demand charge $15 x 9 kW = $135: $945.
  CHECK(in_month(tou, 0, Category::energy) == doctest::Approx(945.0).epsilon(kHourlySumEps));
  // The year: 365 days from a Monday = 52 weeks + 1 Monday: 261 weekdays, 104 weekend days.
  //   9 x (261 x 3.60 + 104 x 1.20) + 12 x 135 = 9 x 1,064.40 + 1,620 = $11,199.60
  CHECK(total(tou, Category::energy) == doctest::Approx(11199.6).epsilon(kHourlySumEps));
}

TEST_CASE("ledger: escalation compounds energy by the hour and the demand charge by the month") {
  const ScenarioOutcome o = run_fixture("power_tariffs.json");
  const PlanResult& flat = o.plan("flat-escalating");
  // Energy: 9 kW x $0.10 x sum_{h=0..8759} 1.1^(h/8760) = 0.9 x 0.1 / (1.1^(1/8760) - 1) = $8,271.89
  const double energy_usd = 0.9 * growth_sum(0.10, 8760.0, 0, 8759);
  // Demand charge: $135 x sum_{m=0..11} 1.1^(m/12) = 135 x 12.540537 = $1,692.97
  const double demand_usd = 135.0 * growth_sum(0.10, 12.0, 0, 11);
  CHECK(total(flat, Category::energy) == doctest::Approx(energy_usd + demand_usd).epsilon(kHourlySumEps));
  CHECK(total(flat, Category::energy) == doctest::Approx(9964.8665).epsilon(1e-8));
  // Month 11: 0.9 x sum_{h=8030..8759} 1.1^(h/8760) + 135 x 1.1^(11/12)
  CHECK(in_month(flat, 11, Category::energy) ==
        doctest::Approx(0.9 * growth_sum(0.10, 8760.0, 8030, 8759) + 135.0 * std::pow(1.1, 11.0 / 12.0))
            .epsilon(kHourlySumEps));
}

TEST_CASE("ledger: cloud instances are whole: a 12-GPU demand on 8-GPU instances bills 16") {
  const ScenarioOutcome o = run_fixture("cloud_venues.json");
  const PlanResult& od = o.plan("on-demand");
  // 24 months = 17,520 h; ceil(12 / 8) = 2 instances = 16 GPUs billed an hour.
  CHECK(od.gpu_hours.on_demand_billed == doctest::Approx(16.0 * 17520.0).epsilon(kEps));  // 280,320
  CHECK(od.gpu_hours.cloud_work == doctest::Approx(12.0 * 17520.0).epsilon(kEps));        // 210,240
  // 2 x $16 x 17,520 h = $560,640
  CHECK(total(od, Category::cloud_on_demand) == doctest::Approx(560640.0).epsilon(kEps));
  // Cost per useful GPU-hour: 560,640 / 210,240 = $2.6667 (16 GPUs paid for 12 of work).
  REQUIRE(od.usd_per_useful_gpu_hour.has_value());
  CHECK(*od.usd_per_useful_gpu_hour == doctest::Approx(560640.0 / 210240.0).epsilon(kEps));
}

TEST_CASE("ledger: reserved instances are paid whether used or not") {
  const ScenarioOutcome o = run_fixture("cloud_venues.json");
  const PlanResult& one = o.plan("reserved-1");
  // 1 reserved instance (8 GPUs) at $12/h for 17,520 h = $210,240; the other 4 GPUs round up
  // to 1 on-demand instance: $16 x 17,520 = $280,320.
  CHECK(total(one, Category::cloud_reserved) == doctest::Approx(210240.0).epsilon(kEps));
  CHECK(total(one, Category::cloud_on_demand) == doctest::Approx(280320.0).epsilon(kEps));
  CHECK(one.gpu_hours.reserved_used == doctest::Approx(8.0 * 17520.0).epsilon(kEps));

  const PlanResult& idle = o.plan("reserved-3-idle");
  // 3 instances (24 GPUs) for 12 GPUs of work: 3 x $12 x 17,520 = $630,720, half of it idle.
  CHECK(total(idle, Category::cloud_reserved) == doctest::Approx(630720.0).epsilon(kEps));
  CHECK(total(idle, Category::cloud_on_demand) == 0.0);
  CHECK(idle.gpu_hours.reserved_paid == doctest::Approx(24.0 * 17520.0).epsilon(kEps));  // 420,480
  CHECK(idle.gpu_hours.reserved_used == doctest::Approx(12.0 * 17520.0).epsilon(kEps));  // 210,240

  // A 3-year term at $10/h in a 2-year horizon: only the months inside are counted, 10 x 17,520
  // = $175,200, with a warning.
  CHECK(total(o.plan("reserved-3y"), Category::cloud_reserved) == doctest::Approx(175200.0).epsilon(kEps));
  CHECK(o.has_warning("reserved-term-beyond-horizon", "/plans/4/reserved_term_years"));
}

TEST_CASE("ledger: a 1-year reserved term is repriced each year by price_change_per_year") {
  const ScenarioOutcome o = run_fixture("cloud_venues.json");
  const PlanResult& falling = o.plan("reserved-1-falling");
  // Year 1 at $12/h: 12 x 730 = $8,760 a month; year 2 (from hour 8,760 = month 12) at
  // 12 x 0.8 = $9.60/h: 9.6 x 730 = $7,008 a month. Total 12 x 8,760 + 12 x 7,008 = $189,216.
  CHECK(in_month(falling, 11, Category::cloud_reserved) == doctest::Approx(8760.0).epsilon(kEps));
  CHECK(in_month(falling, 12, Category::cloud_reserved) == doctest::Approx(7008.0).epsilon(kEps));
  CHECK(total(falling, Category::cloud_reserved) == doctest::Approx(189216.0).epsilon(kEps));
  // The on-demand overflow (1 instance, $16/h) falls by the hour:
  //   16 x sum_{h=0..17519} 0.8^(h/8760) = 16 x (0.64 - 1) / (0.8^(1/8760) - 1) = $226,124.58
  CHECK(total(falling, Category::cloud_on_demand) ==
        doctest::Approx(16.0 * growth_sum(-0.2, 8760.0, 0, 17519)).epsilon(kHourlySumEps));
}

TEST_CASE("ledger: spot bills the overhead factor on whole instances") {
  // The work is rounded to instances, then the overhead lengthens their lives (docs/model.md §3).
  const ScenarioOutcome o = run_fixture("cloud_venues.json");
  const PlanResult& all = o.plan("spot-all");
  // 12 GPUs -> 2 instances (16 GPUs) x overhead 1.5 = 24 GPU-hours = 3 instance-hours x $8 =
  // $24/h x 17,520 = $420,480
  CHECK(all.gpu_hours.spot_billed == doctest::Approx(24.0 * 17520.0).epsilon(kEps));
  CHECK(total(all, Category::cloud_spot) == doctest::Approx(420480.0).epsilon(kEps));
  CHECK(total(all, Category::cloud_on_demand) == 0.0);
  const PlanResult& half = o.plan("spot-half");
  // Half on spot: 6 GPUs -> 1 instance x 1.5 = 1.5 instance-hours x $8 = $12/h x 17,520 =
  // $210,240 (rounding 6 x 1.5 = 9 GPUs up would bill 2 instances, $16/h); the other 6 -> 1
  // on-demand instance x $16 = $16/h x 17,520 = $280,320.
  CHECK(total(half, Category::cloud_spot) == doctest::Approx(210240.0).epsilon(kEps));
  CHECK(total(half, Category::cloud_on_demand) == doctest::Approx(280320.0).epsilon(kEps));
  CHECK(half.gpu_hours.spot_billed == doctest::Approx(12.0 * 17520.0).epsilon(kEps));
  CHECK(half.gpu_hours.on_demand_billed == doctest::Approx(8.0 * 17520.0).epsilon(kEps));
  // $28 an hour against the on-demand baseline's $32 (12 GPUs -> 2 instances x $16): it saves
  // $4 x 17,520 = $70,080 (discount rate 0), every month, so the flows never change sign: no IRR.
  const Comparison& c = o.comparison("spot-half");
  CHECK(c.npv_saving_usd == doctest::Approx(70080.0).epsilon(kEps));
  CHECK_FALSE(c.irr_per_year.has_value());
}

TEST_CASE("ledger: egress is charged per cloud GPU-hour of work") {
  const ScenarioOutcome o = run_fixture("cloud_venues.json");
  const PlanResult& egress = o.plan("egress");
  // 12 GPU-hours of work an hour x 2 GB x $0.05 = $1.20/h x 17,520 h = $21,024 (the 4 rounding
  // GPUs move no data).
  CHECK(total(egress, Category::egress) == doctest::Approx(21024.0).epsilon(kHourlySumEps));
  CHECK(total(egress, Category::cloud_on_demand) == doctest::Approx(560640.0).epsilon(kEps));
  CHECK(total(o.plan("on-demand"), Category::egress) == 0.0);
}

TEST_CASE("ledger: a plan that does not burst queues its overflow and pays for the waiting") {
  const ScenarioOutcome o = run_fixture("backlog.json");
  const PlanResult& queue = o.plan("queue");
  // Hours 0-23 demand 12 on 8 GPUs: the backlog after hour h is 4 (h + 1), up to 96.
  // Hours 24-47 demand 4 with 8 free: it falls by 4 an hour, 92, 88, ..., 0 at hour 47.
  //   waited = 4 x (1 + ... + 24) + 4 x (0 + ... + 23) = 4 x 300 + 4 x 276 = 2,304 GPU-hours
  CHECK(queue.gpu_hours.waited == doctest::Approx(2304.0).epsilon(kEps));
  // At $0.50 per GPU-hour waited: $1,152.
  CHECK(total(queue, Category::waiting) == doctest::Approx(1152.0).epsilon(kEps));
  CHECK(queue.gpu_hours.unserved == 0.0);
  // All work is done on-prem: 4 x 730 + 8 x 24 = 3,112 GPU-hours; 48 h at 8 busy + 682 h at 4.
  CHECK(queue.gpu_hours.useful == doctest::Approx(3112.0).epsilon(kEps));
  CHECK(queue.gpu_hours.onprem_busy == doctest::Approx(3112.0).epsilon(kEps));
  // IT: 48 h x 10 kW + 682 h x (2 + 8 x 4 / 8) kW = 480 + 4,092 = 4,572 kWh; x 1.5 x $0.10 = $685.80
  CHECK(queue.it_energy_kwh == doctest::Approx(4572.0).epsilon(kEps));
  CHECK(total(queue, Category::energy) == doctest::Approx(685.8).epsilon(kHourlySumEps));
  CHECK_FALSE(o.has_warning("demand-unserved", "/plans/0"));

  // Bursting instead: 4 GPUs for 24 h -> 1 instance x $16 x 24 = $384; nothing waits.
  const PlanResult& burst = o.plan("burst");
  CHECK(total(burst, Category::cloud_on_demand) == doctest::Approx(384.0).epsilon(kEps));
  CHECK(burst.gpu_hours.waited == 0.0);
  CHECK(total(burst, Category::waiting) == 0.0);
}

TEST_CASE("ledger: demand a plan can never serve is reported and warned about") {
  const ScenarioOutcome o = run_fixture("unserved.json");
  const PlanResult& queue = o.plan("queue");
  // 10 GPUs of demand on 8: the backlog after hour h is 2 (h + 1); after 730 h, 1,460 unserved.
  //   waited = 2 x (1 + ... + 730) = 730 x 731 = 533,630 GPU-hours; x $0.50 = $266,815
  CHECK(queue.gpu_hours.unserved == doctest::Approx(1460.0).epsilon(kEps));
  CHECK(queue.gpu_hours.waited == doctest::Approx(533630.0).epsilon(kEps));
  CHECK(total(queue, Category::waiting) == doctest::Approx(266815.0).epsilon(kEps));
  CHECK(queue.gpu_hours.useful == doctest::Approx(8.0 * 730.0).epsilon(kEps));
  CHECK(o.has_warning("demand-unserved", "/plans/0"));
}

TEST_CASE("comparison: payback month where cumulative costs cross, and never") {
  const ScenarioOutcome o = run_fixture("payback.json");
  // Cloud: $16 x 730 = $11,680 a month. Own: $200,000 at month 0, then 10 kW x 1.5 x $0.10 x 730
  // = $1,095 a month. Cumulative after month m: cloud 11,680 (m + 1), own 200,000 + 1,095 (m + 1).
  // At or below from m + 1 >= 200,000 / 10,585 = 18.89: month 17 is 219,710 > 210,240; month 18
  // is 220,805 <= 221,920.
  const Comparison& c = o.comparison("buy-1");
  REQUIRE(c.payback_month.has_value());
  CHECK(*c.payback_month == 18);
  // Saving over 24 months: 24 x 11,680 - (200,000 + 24 x 1,095) = 280,320 - 226,280 = $54,040
  CHECK(c.npv_saving_usd == doctest::Approx(54040.0).epsilon(kHourlySumEps));
  // A $10M node never pays back.
  CHECK_FALSE(o.comparison("buy-1-pricey").payback_month.has_value());
}

TEST_CASE("comparison: payback month with a 12 % discount rate") {
  Json doc = fixture_json("payback.json");
  doc["discount_rate_per_year"] = 0.12;
  const ScenarioOutcome o = run_scenario_json(doc);
  // With v = 1.12^(-1/12) and S(n) = v + ... + v^n, after month m = n - 1 the plan is at or below
  // when 200,000 + 1,095 S <= 11,680 S, i.e. S >= 200,000 / 10,585 = 18.8947.
  // S(20) = 18.1388 (month 19: own 219,861.96 > cloud 211,860.91); S(21) = 18.9589 (month 20:
  // own 220,759.97 <= cloud 221,439.72).
  const Comparison& c = o.comparison("buy-1");
  REQUIRE(c.payback_month.has_value());
  CHECK(*c.payback_month == 20);
}

TEST_CASE("comparison: IRR of the incremental flows of buying vs renting") {
  const ScenarioOutcome o = run_fixture("payback.json");
  const Comparison& c = o.comparison("buy-1");
  REQUIRE(c.irr_per_year.has_value());
  // Incremental flows: -200,000 at t = 0, then +11,680 - 1,095 = +10,585 at the end of each of
  // 24 months. At the IRR they are worth nothing: 200,000 = 10,585 x sum_{k=1..24} (1 + irr)^(-k/12).
  // (A monthly rate j with annuity factor 200,000 / 10,585 = 18.8947 over 24 months is about
  // 2.01 %, so irr = 1.0201^12 - 1 is about 27 %.)
  double annuity = 0.0;
  for (int k = 1; k <= 24; ++k) annuity += std::pow(1.0 + *c.irr_per_year, -k / 12.0);
  CHECK(10585.0 * annuity == doctest::Approx(200000.0).epsilon(1e-10));
  CHECK(*c.irr_per_year > 0.26);
  CHECK(*c.irr_per_year < 0.28);
}

TEST_CASE("comparison: NPV of a single end-of-month flow at a 10 % discount rate") {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 1;
  doc["discount_rate_per_year"] = 0.10;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 8}}}}};
  doc["cloud"] = {{"offer", "test/gpu1/region-a"}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& cloud = o.plan("cloud");
  // 8 one-GPU instances x $2 x 730 h = $11,680, paid at the end of month 0 (t = 1/12):
  //   11,680 x 1.1^(-1/12) = 11,680 x 0.99208894 = $11,587.60
  CHECK(cloud.total_usd == doctest::Approx(11680.0).epsilon(kEps));
  CHECK(cloud.npv_usd == doctest::Approx(11587.5988595).epsilon(1e-10));
}
