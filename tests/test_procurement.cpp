// Procurement (docs/model.md "Procurement"): an order month with a deposit, the balance at
// delivery, a delivery slip fixed or drawn per path; the site's power cap and energization
// month. Hand-computed ledgers on the fixture catalog (tests/scenario_builder.hpp lists its
// figures: test-node-8 at $200,000, 8 GPUs, 10 kW peak; test/gpu1 at $2/h on-demand).
#include <algorithm>
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/random/random.hpp"
#include "des_support.hpp"
#include "engine/ledger/ledger.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "models/finance/procurement.hpp"
#include "load_error.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"
#include "ledger_test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

using tco::test::kEps;


// purchase_month3.json (2 nodes, capex 2 x (200,000 + 10,000 + 5,000 + 20,000) = $470,000)
// ordered in month 1 with a 30% deposit, promised for month 3 and delivered 2 months late.
Json ordered_late() {
  Json doc = fixture_json("purchase_month3.json");
  doc["discount_rate_per_year"] = 0.1;
  doc["onprem"]["procurement"] = {{"order_month", 1}, {"deposit_share", 0.3}, {"delivery_slip_months", 2}};
  return doc;
}

Json shifted_purchase() {
  Json doc = fixture_json("purchase_month3.json");
  doc["discount_rate_per_year"] = 0.1;
  doc["onprem"]["purchase_month"] = 5;
  return doc;
}

// A jobs scenario (two 8-GPU jobs back to back all the time = 16 GPUs) over 24 months whose
// hybrid plan owns 2 test-node-8 promised for month 3.
Json des_ordered(const Json& slip) {
  Json doc = des_scenario_json({{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}});
  doc["horizon_months"] = 24;
  doc["discount_rate_per_year"] = 0.1;
  doc["onprem"]["purchase_month"] = 3;
  doc["onprem"]["procurement"] = {{"order_month", 1}, {"deposit_share", 0.3}, {"delivery_slip_months", slip}};
  return doc;
}

MonteCarloRun run_mc(const Json& doc, long paths) {
  MonteCarloOptions o;
  o.paths = paths;
  o.threads = 2;
  o.seed = 7;
  return run_monte_carlo(load_des_scenario(doc), o);
}

}  // namespace

TEST_CASE("procurement: a fixed slip of 2 months is purchase_month + 2 with the deposit booked at the order") {
  const ScenarioOutcome late = run_scenario_json(ordered_late());
  const ScenarioOutcome shifted = run_scenario_json(shifted_purchase());
  const PlanResult& a = late.plan("buy-2-at-3");
  const PlanResult& b = shifted.plan("buy-2-at-3");
  // Deposit 0.3 x 470,000 = $141,000 at the start of month 1; the balance $329,000 at the start of
  // month 5 (3 + 2), when the shifted plan pays all $470,000.
  CHECK(in_month(a, 1, Category::capex) == doctest::Approx(141000.0).epsilon(kEps));
  CHECK(in_month(a, 5, Category::capex) == doctest::Approx(329000.0).epsilon(kEps));
  CHECK(in_month(b, 5, Category::capex) == doctest::Approx(470000.0).epsilon(kEps));
  // Every other figure, month by month, is the shifted purchase's: until month 5 the 16 GPUs rent
  // 16 one-GPU instances, 16 x $2 x 730 h = $23,360 a month; then the nodes serve.
  for (int m = 0; m < 24; ++m) {
    CAPTURE(m);
    for (int c = 0; c < kCategoryCount; ++c) {
      if (category_at(c) == Category::capex) continue;
      CHECK(in_month(a, m, category_at(c)) == doctest::Approx(in_month(b, m, category_at(c))).epsilon(kEps));
    }
  }
  CHECK(in_month(a, 4, Category::cloud_on_demand) == doctest::Approx(23360.0).epsilon(kEps));
  CHECK(in_month(a, 5, Category::cloud_on_demand) == 0.0);
  CHECK(a.total_usd == doctest::Approx(b.total_usd).epsilon(kEps));
  // The NPVs differ by the deposit's earlier payment: 141,000 x (1.1^(-1/12) - 1.1^(-5/12))
  // = 141,000 x (0.99208894 - 0.96106563) = $4,374.29.
  CHECK(a.npv_usd - b.npv_usd == doctest::Approx(4374.2866565678).epsilon(1e-9));
  REQUIRE(a.procurement.has_value());
  CHECK(a.procurement->order_month == 1);
  CHECK(a.procurement->planned_delivery_month == 5);
  CHECK(a.procurement->deposit_usd == doctest::Approx(141000.0).epsilon(kEps));
  CHECK_FALSE(b.procurement.has_value());
  // The report gains the figures for the plan that opts in, and only for it.
  const Json report = late.report();
  const Json& p = report_plan(report, "buy-2-at-3").at("procurement");
  CHECK(p.at("order_month") == 1);
  CHECK(p.at("planned_delivery_month") == 5);
  CHECK(p.at("delivery_slip") == "fixed");
  CHECK_FALSE(report_plan(report, "cloud").contains("procurement"));
}

TEST_CASE("procurement: a loan finances the balance at delivery, the deposit is cash at the order") {
  Json doc = ordered_late();
  doc["onprem"]["financing"] = {{"type", "loan"}, {"apr", 0.0}, {"term_months", 10}, {"down_payment_fraction", 0.0}};
  const PlanResult a = run_scenario_json(doc).plan("buy-2-at-3");  // a copy: the outcome is a temporary
  // $141,000 at the start of month 1; the $329,000 balance in 10 interest-free payments of
  // $32,900 at the end of months 5..14.
  CHECK(in_month(a, 1, Category::capex) == doctest::Approx(141000.0).epsilon(kEps));
  CHECK(in_month(a, 4, Category::capex) == 0.0);
  CHECK(in_month(a, 5, Category::capex) == doctest::Approx(32900.0).epsilon(kEps));
  CHECK(in_month(a, 14, Category::capex) == doctest::Approx(32900.0).epsilon(kEps));
  CHECK(in_month(a, 15, Category::capex) == 0.0);
  CHECK(a.ledger.category_total_usd(Category::capex) == doctest::Approx(470000.0).epsilon(kEps));
}

TEST_CASE("procurement: a delivery past the horizon books only the deposit, credited back as residual") {
  Json doc = ordered_late();
  doc["onprem"]["procurement"]["delivery_slip_months"] = 30;  // month 33 of 24
  const PlanResult a = run_scenario_json(doc).plan("buy-2-at-3");  // a copy: the outcome is a temporary
  CHECK(a.ledger.category_total_usd(Category::capex) == doctest::Approx(141000.0).epsilon(kEps));
  CHECK(in_month(a, 23, Category::residual) == doctest::Approx(-141000.0).epsilon(kEps));
  for (Category c : {Category::maintenance, Category::facility, Category::energy, Category::staff})
    CHECK(a.ledger.category_total_usd(c) == 0.0);
  // All 24 months rent: 24 x $23,360 = $560,640.
  CHECK(a.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(560640.0).epsilon(kEps));
}

TEST_CASE("procurement: drawn slips over 4,000 paths match their distribution within 4 standard errors") {
  // Triangular(0, 3, 12) months on a promise of month 6: median 12 - sqrt(0.5 x 12 x 9) = 4.65,
  // planned delivery 6 + 5 = 11. P(slip > 5) = (12 - 5)^2 / (12 x 9) = 49/108 = 0.4537;
  // P(slip > 9) = (12 - 9)^2 / 108 = 0.0833.
  ProcurementSpec tri;
  tri.slip_drawn = true;
  tri.slip.type = UncertainDistribution::Type::triangular;
  tri.slip.low = 0.0;
  tri.slip.mode = 3.0;
  tri.slip.high = 12.0;
  CHECK(planned_delivery_month(6, tri) == 11);
  // Lognormal(median 6, sigma 0.5): P(slip > 9) = 1 - Phi(ln(9/6) / 0.5) = 1 - Phi(0.81093) = 0.20870.
  ProcurementSpec logn;
  logn.slip_drawn = true;
  logn.slip.type = UncertainDistribution::Type::lognormal;
  logn.slip.median = 6.0;
  logn.slip.sigma = 0.5;
  constexpr long kPaths = 4000;
  auto share = [](const ProcurementSpec& p, int after_month) {
    long n = 0;
    for (long k = 0; k < kPaths; ++k) n += delivered_month(6, p, 7, static_cast<std::uint32_t>(k)) > after_month;
    return static_cast<double>(n) / kPaths;
  };
  auto within_4_se = [](double observed, double p) {
    const double se = std::sqrt(p * (1.0 - p) / kPaths);
    CAPTURE(observed);
    CAPTURE(p);
    CHECK(std::fabs(observed - p) < 4.0 * se);
  };
  within_4_se(share(tri, 11), 49.0 / 108.0);
  within_4_se(share(tri, 15), 9.0 / 108.0);
  within_4_se(share(logn, 15), 0.20870287338447135);
  // A fixed slip is the same on every path, and never drawn.
  ProcurementSpec fixed;
  fixed.slip_fixed_months = 2.5;  // whole months: ceil(2.5) = 3
  CHECK(delivered_month(6, fixed, 7, 0) == 9);
  CHECK(delivered_month(6, fixed, 7, 123) == 9);
  CHECK(whole_slip_months(3.0) == 3);
  CHECK(whole_slip_months(1e9) == 1200);  // a far tail lands past every horizon, not in an overflow
}

TEST_CASE("procurement: in the discrete-event Monte Carlo a fixed slip equals the shifted purchase path by path") {
  Json shifted = des_ordered(0);
  shifted["onprem"].erase("procurement");
  shifted["onprem"]["purchase_month"] = 5;
  const MonteCarloRun a = run_mc(des_ordered(2), 4);
  const MonteCarloRun b = run_mc(shifted, 4);
  // Capex 2 x $200,000 = $400,000; the deposit 0.3 x 400,000 = $120,000 moves from the start of
  // month 5 to the start of month 1: 120,000 x (1.1^(-1/12) - 1.1^(-5/12)) = $3,722.80 more NPV.
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    CHECK(a.npv_by_path[0][k] == doctest::Approx(b.npv_by_path[0][k]).epsilon(kEps));
    CHECK(a.npv_by_path[1][k] - b.npv_by_path[1][k] == doctest::Approx(3722.7971545258).epsilon(1e-9));
  }
}

TEST_CASE("procurement: a slip drawn per path moves each path's delivery, the report gives its spread") {
  const Json slip = {{"type", "triangular"}, {"low_months", 0}, {"mode_months", 3}, {"high_months", 12}};
  constexpr long kPaths = 64;
  const MonteCarloRun mc = run_mc(des_ordered(slip), kPaths);
  const Scenario s = load_des_scenario(des_ordered(slip));
  const OnPremSpec& o = *s.plans[1].onprem;
  std::vector<double> months;
  for (long k = 0; k < kPaths; ++k)
    months.push_back(delivered_month(o.purchase_month, *o.procurement, 7, static_cast<std::uint32_t>(k)));
  const double later = static_cast<double>(std::count_if(months.begin(), months.end(), [](double m) { return m > 8; }));
  const PlanResult& buy = mc.run.plans[1];
  REQUIRE(buy.procurement.has_value());
  CHECK(buy.procurement->planned_delivery_month == 8);  // 3 + ceil(4.65)
  CHECK(buy.procurement->paths == kPaths);
  CHECK(buy.procurement->share_later_than_planned == doctest::Approx(later / kPaths).epsilon(kEps));
  CHECK(buy.procurement->delivery_month_p5 <= buy.procurement->delivery_month_p95);
  // The mean ledger is the mean of the paths' ledgers: its NPV is the paths' mean NPV.
  CHECK(buy.npv_usd == doctest::Approx(mc.plans[1].npv_usd.mean).epsilon(1e-9));
  // Paths delivered later rent longer: their NPVs are not all alike.
  const auto [lo, hi] = std::minmax_element(mc.npv_by_path[1].begin(), mc.npv_by_path[1].end());
  CHECK(*hi - *lo > 1000.0);
  // Any thread count gives the same numbers.
  MonteCarloOptions one;
  one.paths = kPaths;
  one.threads = 1;
  one.seed = 7;
  CHECK(run_monte_carlo(s, one).npv_by_path == mc.npv_by_path);
}

TEST_CASE("procurement: bad input names the file and the pointer") {
  auto with = [](const char* key, const Json& value) {
    Json doc = des_ordered(2);
    doc["onprem"]["procurement"][key] = value;
    return load_error(doc);
  };
  CHECK(with("deposit_share", 1.5).find("/onprem/procurement/deposit_share") == 0);
  CHECK(with("order_month", 4).find("/onprem/procurement/order_month") == 0);  // after the promise (3)
  CHECK(with("delivery_slip_months", -1).find("/onprem/procurement/delivery_slip_months") == 0);
  CHECK(with("delivery_slip_months", Json{{"type", "triangular"}, {"low_months", 4}, {"mode_months", 3}, {"high_months", 12}})
            .find("/onprem/procurement/delivery_slip_months/mode_months") == 0);
  CHECK(with("delivery_slip_months", Json{{"type", "uniform"}}).find("/onprem/procurement/delivery_slip_months/type") == 0);
  CHECK(with("deposit", 0.3).find("/onprem/procurement") == 0);  // an unknown key
  Json lease = des_ordered(2);
  lease["onprem"]["financing"] = {{"type", "lease"}, {"usd_per_node_month", 5000}};
  CHECK(load_error(lease).find("/onprem/procurement: expected no procurement for a leased fleet") == 0);
  // A slip drawn per path needs the discrete-event replay's paths.
  Json hourly = shifted_purchase();
  hourly["onprem"]["procurement"] = {{"delivery_slip_months", {{"type", "lognormal"}, {"median_months", 6}, {"sigma", 0.5}}}};
  CHECK(load_error(hourly).find("/onprem/procurement/delivery_slip_months: plan \"buy-2-at-3\" draws") == 0);
}

TEST_CASE("procurement: the hourly sweep takes a fixed slip and refuses a drawn one (exit 2)") {
  Json fixed = des_ordered(2);
  fixed["workload"] = {{"profiles", Json::array({{{"type", "steady"}, {"gpus", 16}}})}};
  CHECK_NOTHROW(prepare_sweep_point(load_des_scenario(fixed), 1));
  Json drawn = fixed;
  drawn["onprem"]["procurement"]["delivery_slip_months"] = {{"type", "lognormal"}, {"median_months", 6}, {"sigma", 0.5}};
  const Scenario s = load_des_scenario(drawn);
  CHECK_THROWS_AS(prepare_sweep_point(s, 1), InputError);
}

TEST_CASE("site: a plan beyond the site's power cap, or delivered before energization, is an error naming it") {
  // 2 nodes x 10 kW = 20 kW of IT load.
  Json doc = des_ordered(2);
  doc["onprem"]["site"] = {{"power_cap_mw", 0.02}};
  CHECK(load_error(doc) == "(accepted)");  // exactly 20 kW fits
  doc["onprem"]["site"]["power_cap_mw"] = 0.019;
  const std::string cap = load_error(doc);
  CHECK(cap.find("/plans/1/onprem/site/power_cap_mw") == std::string::npos);  // the cap is the scenario's
  CHECK(cap.find("/onprem/site/power_cap_mw: plan \"buy-2\" installs 2 nodes x 10 kW = 20.0 kW") == 0);
  // Energized in month 6; the fleet arrives in month 3 + 2 = 5.
  Json early = des_ordered(2);
  early["onprem"]["site"] = {{"energized_month", 6}};
  CHECK(load_error(early).find("/onprem/purchase_month: plan \"buy-2\" has its hardware delivered as early as month 5") == 0);
  early["onprem"]["site"]["energized_month"] = 5;
  CHECK(load_error(early) == "(accepted)");
  // A plan's own patch is named in the plan.
  Json patched = des_ordered(2);
  patched["plans"][1]["onprem"] = {{"site", {{"power_cap_mw", 0.01}}}};
  CHECK(load_error(patched).find("/plans/1/onprem/site/power_cap_mw") == 0);
}
