// A plan's refresh at the next generation (models/next_generation/refresh.hpp, docs/model.md
// "Refresh"): the two fleets' bill on a steady load against its closed form, a refresh past the
// horizon equal to none bit for bit, every fluid Monte Carlo path equal to the hourly model at its
// (drawn) month, the report's block, and a bad-input test per new input.
#include <cmath>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "models/next_generation/next_generation.hpp"
#include "models/workload/workload.hpp"
#include "refresh_support.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

TEST_CASE("refresh: the two fleets' bill on a steady load against the closed form") {
  const ScenarioOutcome o = run_scenario_json(refresh_scenario(6, 2));
  const PlanResult& r = o.plan("refresh");
  const Ledger& l = r.ledger;
  // r = 6 + 2 = 8. Old fleet, months 0..7: capex 2 x 200,000 = 400,000 at month 0; maintenance
  // 400,000 x 0.06 / 12 = 2,000 a month; colocation 100 x 2 x 10 kW + 500 x 1 rack = 2,500 a month;
  // energy (2 x 2 + (10 - 2) x 16 / 8) = 20 kW x 1.5 x 0.10 x 730 h = 2,190 a month.
  // Successor, months 8..23: capex 300,000 at month 8; maintenance 300,000 x 0.06 / 12 = 1,500;
  // colocation 100 x 12 + 500 = 1,700; it does the 16 GPUs of work on 8 GPUs of perf 2:
  // (3 + (12 - 3) x 8 / 8) = 12 kW x 1.5 x 0.10 x 730 = 1,314 a month. No cloud in either.
  CHECK(l.month_category_usd(0, Category::capex) == doctest::Approx(400000.0).epsilon(1e-12));
  CHECK(l.month_category_usd(8, Category::capex) == doctest::Approx(300000.0).epsilon(1e-12));
  CHECK(l.category_total_usd(Category::capex) == doctest::Approx(700000.0).epsilon(1e-12));
  CHECK(l.month_category_usd(7, Category::maintenance) == doctest::Approx(2000.0).epsilon(1e-12));
  CHECK(l.month_category_usd(8, Category::maintenance) == doctest::Approx(1500.0).epsilon(1e-12));
  CHECK(l.category_total_usd(Category::maintenance) == doctest::Approx(8 * 2000.0 + 16 * 1500.0).epsilon(1e-12));
  CHECK(l.month_category_usd(7, Category::facility) == doctest::Approx(2500.0).epsilon(1e-12));
  CHECK(l.month_category_usd(8, Category::facility) == doctest::Approx(1700.0).epsilon(1e-12));
  CHECK(l.month_category_usd(7, Category::energy) == doctest::Approx(2190.0).epsilon(1e-12));
  CHECK(l.month_category_usd(8, Category::energy) == doctest::Approx(1314.0).epsilon(1e-12));
  CHECK(l.category_total_usd(Category::energy) == doctest::Approx(8 * 2190.0 + 16 * 1314.0).epsilon(1e-12));
  CHECK(l.category_total_usd(Category::cloud_on_demand) == 0.0);
  // The old fleet sold at the start of month 8 (booked at the end of month 7), 8 months old, after
  // the arrival: 400,000 x 0.7^(8/12) x 0.5 = 400,000 x 0.788374 x 0.5 = 157,674.7.
  const double old_sale_usd = 400000.0 * std::pow(0.7, 8.0 / 12.0) * 0.5;
  CHECK(old_sale_usd == doctest::Approx(157674.70).epsilon(1e-7));
  CHECK(l.month_category_usd(7, Category::residual) == doctest::Approx(-old_sale_usd).epsilon(1e-12));
  // The successor sold at the horizon's end, 16 months old, unstepped: 300,000 x 0.7^(16/12) = 186,459.8.
  const double new_sale_usd = 300000.0 * std::pow(0.7, 16.0 / 12.0);
  CHECK(l.month_category_usd(23, Category::residual) == doctest::Approx(-new_sale_usd).epsilon(1e-12));
  const double total_usd = 700000.0 + 8 * (2000.0 + 2500.0 + 2190.0) + 16 * (1500.0 + 1700.0 + 1314.0) -
                           old_sale_usd - new_sale_usd;
  CHECK(r.total_usd == doctest::Approx(total_usd).epsilon(1e-12));
  REQUIRE(r.refresh.has_value());
  CHECK(r.refresh->month == 8);
  CHECK(r.refresh->inside_horizon);
  CHECK(r.refresh->old_fleet_sale_usd == doctest::Approx(old_sale_usd).epsilon(1e-12));
  CHECK(r.refresh->successor_capex_usd == doctest::Approx(300000.0).epsilon(1e-12));
  CHECK(r.refresh->successor_sale_usd == doctest::Approx(new_sale_usd).epsilon(1e-12));
  // Busy 16 GPUs of 16 for 8 months, then 8 of 8: utilization 1 throughout.
  CHECK(*r.onprem_utilization == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("refresh: a refresh at or past the horizon's end is none, bit for bit") {
  Json doc = refresh_scenario(6, 18);  // r = 24 = H
  const ScenarioOutcome late = run_scenario_json(doc);
  CHECK_FALSE(late.plan("refresh").refresh->inside_horizon);
  CHECK(late.plan("refresh").npv_usd == late.plan("buy-2").npv_usd);
  CHECK(late.plan("refresh").total_usd == late.plan("buy-2").total_usd);
  for (int m = 0; m < 24; ++m)
    for (Category c : {Category::capex, Category::residual, Category::energy, Category::maintenance})
      CHECK(late.plan("refresh").ledger.month_category_usd(m, c) == late.plan("buy-2").ledger.month_category_usd(m, c));
}

TEST_CASE("refresh: a refresh in the arrival month sells at the stepped value") {
  // k = 0: r = 6, the month of the arrival: the sale (start of month 6) is after the step, at 6
  // months of age: 400,000 x 0.7^(6/12) x 0.5 = 400,000 x 0.836660 x 0.5 = 167,332.0.
  const ScenarioOutcome o = run_scenario_json(refresh_scenario(6, 0));
  CHECK(o.plan("refresh").ledger.month_category_usd(5, Category::residual) ==
        doctest::Approx(-167332.0).epsilon(1e-6));
}

TEST_CASE("refresh: every fluid Monte Carlo path equals the hourly model at its month") {
  SUBCASE("fixed arrival") {
    const Scenario s = load_scenario_json(refresh_scenario(6, 2), "refresh.json", ".");
    const ScenarioRun det = run_deterministic(s);
    const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, 6, 3, 2);
    for (std::size_t j = 0; j < s.plans.size(); ++j)
      for (double npv : mc.npv_by_path[j]) CHECK(npv == doctest::Approx(det.plans[j].npv_usd).epsilon(1e-11));
  }
  SUBCASE("drawn arrival: the refresh month moves with it") {
    const Json drawn = {{"type", "triangular"}, {"low_months", 2}, {"mode_months", 8}, {"high_months", 20}};
    const Scenario s = load_scenario_json(refresh_scenario(drawn, 1), "refresh.json", ".");
    const long paths = 30;
    const std::uint64_t seed = 17;
    const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, paths, seed, 2);
    const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
    std::set<int> refresh_months;
    for (long k = 0; k < paths; ++k) {
      const int month = arrival_month_on_path(s.next_generation->arrival_draw, seed, static_cast<std::uint32_t>(k));
      const Scenario at = with_arrival_month(s, month);
      refresh_months.insert(at.plans.back().refresh->month);
      CHECK(at.plans.back().refresh->month == month + 1);
      for (std::size_t j = 0; j < s.plans.size(); ++j) {
        INFO("path " << k << " month " << month << " plan " << s.plans[j].name);
        CHECK(mc.npv_by_path[j][k] == doctest::Approx(evaluate_plan(at, at.plans[j], demand).npv_usd).epsilon(1e-11));
      }
    }
    // The paths refreshed in several different months, all inside the 24-month horizon.
    CHECK(refresh_months.size() >= 4);
    CHECK(*refresh_months.rbegin() < 24);
  }
}

TEST_CASE("refresh: the report's block in the JSON and the Markdown") {
  const ScenarioOutcome o = run_scenario_json(refresh_scenario(6, 2));
  const Json report = o.report();
  const Json& plans = report.at("plans");
  CHECK_FALSE(plans.at(1).contains("refresh"));
  const Json& f = plans.at(2).at("refresh");
  CHECK(f.at("successor_server") == "test-node-2x");
  CHECK(f.at("month") == 8);
  CHECK(f.at("months_after_arrival") == 2);
  CHECK(f.at("nodes") == 1);
  CHECK(f.at("successor_capex_usd").get<double>() == doctest::Approx(300000.0));
  CHECK(report.at("inputs").at("next_generation").at("successor_server") == "test-node-2x");
  const std::string md = markdown_summary(report);
  CHECK(md.find("**Refresh**") != std::string::npos);
  CHECK(md.find("test-node-2x") != std::string::npos);
}

TEST_CASE("refresh: optimize chooses the refresh month, and never picks one that loses money on the same paths") {
  // A drawn arrival so that each k is priced over several arrival months; "never" is a point.
  const Json drawn = {{"type", "triangular"}, {"low_months", 2}, {"mode_months", 6}, {"high_months", 12}};
  for (const double resale_step : {0.5, 0.95}) {
    INFO("resale step " << resale_step);
    Json doc = refresh_scenario(drawn, 0);
    doc["next_generation"]["resale_step_factor"] = resale_step;
    SizingOptions o;
    o.plan = "refresh";
    o.nodes = {2, 2, 1};
    o.refresh_months = IntRange{0, 12, 4};
    o.paths = 24;
    o.seed = 5;
    o.threads = 2;
    const SizingResult r = optimize_sizing(doc, "refresh.json", ".", "", o);
    // k = 0, 4, 8, 12, then never (the horizon's 24 months).
    CHECK(r.refresh_values == std::vector<long>{0, 4, 8, 12, 24});
    REQUIRE(r.points.size() == 5);
    CHECK_FALSE(r.points.back().refresh_months_after_arrival.has_value());
    const SizingPoint& best = r.points[r.best_for("mean").point];
    CHECK(best.npv_usd.mean <= r.points.back().npv_usd.mean);
    // Each point is the scenario run at that k: the "never" point is the plan without a refresh.
    const FluidMonteCarloRun never = run_fluid_monte_carlo(load_scenario_json(doc, "refresh.json", "."), 24, 5, 2);
    for (std::size_t p = 0; p < 24; ++p)
      CHECK(r.points.back().npv_by_path_usd[p] == doctest::Approx(never.npv_by_path[1][p]).epsilon(1e-11));
  }
}

TEST_CASE("bad input: each refresh input is rejected with exit 2, naming its JSON pointer") {
  check_each_refused(
      "refresh-bad-", refresh_scenario(6, 2),
      {{"negative-k", [](Json& d) { d["plans"][2]["refresh"]["months_after_arrival"] = -1; },
        "/plans/2/refresh/months_after_arrival", "found number -1"},
       {"zero-nodes", [](Json& d) { d["plans"][2]["refresh"]["nodes"] = 0; }, "/plans/2/refresh/nodes", "found number 0"},
       {"stray-key", [](Json& d) { d["plans"][2]["refresh"]["month"] = 3; }, "/plans/2/refresh/month", "unknown key"},
       {"cloud-plan", [](Json& d) { d["plans"][0]["refresh"] = {{"months_after_arrival", 0}}; }, "/plans/0/refresh",
        "owned nodes"},
       {"no-successor", [](Json& d) { d["next_generation"].erase("successor_server"); }, "/next_generation",
        "successor_server"},
       {"no-event", [](Json& d) { d.erase("next_generation"); }, "/plans/2/refresh", "no next_generation"},
       {"successor-typo", [](Json& d) { d["next_generation"]["successor_server"] = "node-typo"; },
        "/next_generation/successor_server", "node-typo"},
       {"lease", [](Json& d) { d["onprem"]["financing"] = {{"type", "lease"}, {"usd_per_node_month", 5000}}; },
        "/plans/2/refresh", "leased"},
       {"failures", [](Json& d) { d["onprem"]["failures"] = {{"afr_per_year", 0.05}}; }, "/plans/2/refresh", "failures"},
       {"site-cap",
        [](Json& d) {
          d["onprem"]["site"] = {{"power_cap_mw", 0.025}};
          d["plans"][2]["refresh"]["nodes"] = 3;
        },
        "/plans/2/refresh/nodes", "at most 2 successor nodes"}});
}

}  // namespace tco::test
