// A resale value tied to the rental price path (`onprem.residual.follows_cloud_price`,
// models/finance/resale_price_path.hpp, docs/model.md "Economic depreciation"): the residual and
// the economic view against hand numbers, the fluid Monte Carlo's price process moving the
// residual with a mean equal to the deterministic figure, and a bad-input test per refusal.
#include <cmath>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "models/finance/economic_depreciation.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

// The base scenario's buy-2 (two $200,000 ref-gpu nodes, 12 months, discount 0) renting the same
// GPU's test/gpu8 offer, its resale value (30% a year) following that offer's price, which falls
// 20% a year; `follows` switches the tie.
Json tied_scenario(bool follows) {
  Json doc = base_scenario_json();
  doc["cloud"]["price_change_per_year"] = -0.2;
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  if (follows) doc["onprem"]["residual"]["follows_cloud_price"] = true;
  return doc;
}

}  // namespace

TEST_CASE("resale path: the residual follows the rental price from delivery to sale") {
  const ScenarioOutcome plain = run_scenario_json(tied_scenario(false));
  const ScenarioOutcome tied = run_scenario_json(tied_scenario(true));
  // Sold at the end of month 11, priced at the start of month 11 (hour 8,030), as the resale step:
  // untied 2 x 200,000 x 0.7 = 280,000; tied x (1 - 0.2)^(8,030 / 8,760) = x 0.8^0.916667 = x 0.81502:
  // 280,000 x 0.81502 = 228,204.
  const double ratio = std::pow(0.8, 8030.0 / 8760.0);
  CHECK(ratio == doctest::Approx(0.815015).epsilon(1e-5));
  CHECK(plain.plan("buy-2").ledger.category_total_usd(Category::residual) == doctest::Approx(-280000.0).epsilon(1e-12));
  CHECK(tied.plan("buy-2").ledger.category_total_usd(Category::residual) ==
        doctest::Approx(-280000.0 * ratio).epsilon(1e-12));
  // Nothing else moves: the plan pays 280,000 x (1 - ratio) more.
  CHECK(tied.plan("buy-2").total_usd - plain.plan("buy-2").total_usd ==
        doctest::Approx(280000.0 * (1.0 - ratio)).epsilon(1e-9));
  CHECK(tied.plan("cloud").npv_usd == plain.plan("cloud").npv_usd);
  CHECK(tied.report().at("inputs").at("plans").at(1).at("onprem").at("residual").at("follows_cloud_price") == true);
  CHECK_FALSE(plain.report().at("inputs").at("plans").at(1).at("onprem").at("residual").contains("follows_cloud_price"));
}

TEST_CASE("resale path: the economic view's values follow the price path year by year") {
  // Paid $1,000,000, resale base $900,000, decline 30%, delivery month 0, price falling 20% a
  // year: V(1) = 900,000 x 0.7 x 0.8^(11 x 730 / 8760) = 630,000 x 0.815015 = 513,459 (valued at
  // the start of the year's last month, as the resale step); V(2) = 441,000 x 0.8^(23 x 730 / 8760).
  const ResalePricePath path{std::nullopt, -0.2};
  const std::vector<EconomicYear> years = economic_depreciation(1'000'000.0, 900'000.0, 0.3, {}, 0, 2, &path);
  const double v1 = 630'000.0 * std::pow(0.8, 11.0 * 730.0 / 8760.0);
  const double v2 = 441'000.0 * std::pow(0.8, 23.0 * 730.0 / 8760.0);
  CHECK(years[0].value_after_usd == doctest::Approx(v1).epsilon(1e-12));
  CHECK(years[0].depreciation_usd == doctest::Approx(1'000'000.0 - v1).epsilon(1e-12));
  CHECK(years[1].value_after_usd == doctest::Approx(v2).epsilon(1e-12));
  CHECK(years[1].depreciation_usd == doctest::Approx(v1 - v2).epsilon(1e-12));
  // No path: the plain curve, 630,000 then 441,000.
  CHECK(economic_depreciation(1'000'000.0, 900'000.0, 0.3, {}, 0, 2)[1].value_after_usd ==
        doctest::Approx(441'000.0).epsilon(1e-12));
}

TEST_CASE("resale path: a price process moves each path's residual, the mean is the deterministic figure") {
  Json doc = tied_scenario(true);
  doc["cloud"]["price_process"] = {
      {"on_demand", {{"type", "lognormal_jumps"}, {"volatility_per_year", 0.4}}}};
  doc["plans"] = {{{"name", "buy-2"}, {"kind", "onprem"}, {"onprem_nodes", 2}},
                  {{"name", "buy-2-tied"}, {"kind", "hybrid"}, {"onprem_nodes", 2}}};
  doc["plans"][0]["onprem"] = {{"residual", {{"follows_cloud_price", false}}}};
  doc["baseline"] = "buy-2";
  const Scenario s = load_scenario_json(doc, "tied.json", ".");
  const ScenarioRun det = run_deterministic(s);
  const long paths = 400;
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, paths, 21, 2);
  // The untied onprem plan rents nothing: every path is its deterministic figure. The tied plan
  // serves all 16 GPUs on its nodes too, so only its residual moves with M_11 / M_0 (M_0 = 1).
  double sum = 0.0, sum_sq = 0.0;
  bool moved = false;
  for (long k = 0; k < paths; ++k) {
    CHECK(mc.npv_by_path[0][k] == doctest::Approx(det.plans[0].npv_usd).epsilon(1e-11));
    const double x = mc.npv_by_path[1][k];
    moved = moved || std::abs(x - det.plans[1].npv_usd) > 1.0;
    sum += x;
    sum_sq += x * x;
  }
  CHECK(moved);
  const double mean = sum / paths;
  const double stderr_usd = std::sqrt((sum_sq / paths - mean * mean) / (paths - 1));
  CHECK(std::abs(mean - det.plans[1].npv_usd) < 4.0 * stderr_usd);
}

TEST_CASE("bad input: each resale-path refusal exits 2, naming its JSON pointer") {
  Json onprem_plan = tied_scenario(true);
  onprem_plan["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}, {{"name", "own"}, {"kind", "onprem"}, {"onprem_nodes", 2}}};
  check_run_and_validate_refuse("resale-path-no-cloud", onprem_plan, "/onprem/residual/follows_cloud_price",
                                "rents nothing");
  Json patched = tied_scenario(false);
  patched["plans"][1]["onprem"] = {{"residual", {{"follows_cloud_price", true}}}};
  patched["plans"][1]["kind"] = "onprem";
  check_run_and_validate_refuse("resale-path-no-cloud-in-plan", patched, "/plans/1/onprem/residual/follows_cloud_price",
                                "rents nothing");
  Json typo = tied_scenario(true);
  typo["onprem"]["residual"]["follows_cloud_price"] = "yes";
  check_run_and_validate_refuse("resale-path-type", typo, "/onprem/residual/follows_cloud_price", "true or false");
  Json drawn = tied_scenario(true);
  drawn["cloud"]["price_process"] = {{"on_demand", {{"type", "lognormal_jumps"}, {"volatility_per_year", 0.4}}}};
  drawn["next_generation"] = {{"predecessor_gpu", "ref-gpu"},
                              {"arrival_month", {{"type", "triangular"}, {"low_months", 2}, {"mode_months", 4}, {"high_months", 9}}},
                              {"resale_step_factor", 0.5}};
  check_run_and_validate_refuse("resale-path-drawn-arrival", drawn, "/plans/1", "a drawn arrival month");
}

}  // namespace tco::test
