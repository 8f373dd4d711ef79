// The `uncertain` section drawn in sizing (engine/decisions/sizing_draws.hpp, issue #44), in the
// fluid model and in the replay: with an input that moves the cost, every N's P90 lies above its
// mean and its CVaR95 above its P90; with an input that moves nothing the sized plan or the
// baseline pays, the curve is path for path the one without the section (the model's own spread).
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "engine/decisions/sizing.hpp"

using namespace tco;
using namespace tco::test;

namespace {

SizingResult size(const Json& doc, long to) {
  SizingOptions o;
  o.nodes = {0, to, 1};
  o.search = "all";
  o.threads = 2;
  return optimize_sizing(doc, "test-scenario.json", source_path("tests"), "", o);
}

Json uniform_input(const std::string& pointer, double low, double high) {
  return {{"name", pointer}, {"pointer", pointer}, {"distribution", {{"type", "uniform"}, {"low", low}, {"high", high}}}};
}

// A third plan, neither sized nor the baseline: an input on its node count moves neither NPV.
Json with_bystander(Json doc) {
  doc["plans"].push_back({{"name", "bystander"}, {"kind", "onprem"}, {"onprem_nodes", 1}});
  return doc;
}

void check_drawn_spread(const SizingResult& r) {
  REQUIRE(r.randomness.size() == 2);
  CHECK(r.randomness[1].find("uncertain section (1 input)") != std::string::npos);
  for (const auto& p : r.points) {
    INFO("N = " << p.nodes);
    CHECK(p.npv_usd.p90 > p.npv_usd.mean);
    CHECK(p.npv_usd.cvar95 > p.npv_usd.p90);
  }
}

void check_same_paths(const SizingResult& drawn, const SizingResult& plain) {
  REQUIRE(drawn.points.size() == plain.points.size());
  CHECK(drawn.randomness.size() == 2);
  CHECK(plain.randomness.size() == 1);
  for (std::size_t i = 0; i < plain.points.size(); ++i) {
    INFO("N = " << plain.points[i].nodes);
    for (std::size_t p = 0; p < plain.points[i].npv_by_path_usd.size(); ++p)
      CHECK(drawn.points[i].npv_by_path_usd[p] ==
            doctest::Approx(plain.points[i].npv_by_path_usd[p]).epsilon(1e-12));
    CHECK(drawn.points[i].npv_usd.p90 == doctest::Approx(plain.points[i].npv_usd.p90).epsilon(1e-12));
    CHECK(drawn.points[i].npv_usd.cvar95 == doctest::Approx(plain.points[i].npv_usd.cvar95).epsilon(1e-12));
  }
}

}  // namespace

TEST_CASE("sizing uncertain, fluid model: a drawn discount rate spreads every N, a bystander's input moves nothing") {
  // The fixture's steady 16 GPUs with demand growth drawn per path (the model's own spread), a
  // 12-month horizon at a discount rate uniform in [0, 40%]: the costs are all positive, so a
  // higher rate lowers every NPV, by up to about 18% (1.4^-(1/2) at mid-horizon).
  Json doc = with_bystander(base_scenario_json());
  doc["monte_carlo"] = {{"paths", 24}, {"seed", 4}, {"demand_growth_sigma_per_year", 0.2}};
  Json drawn = doc;
  drawn["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4)}}};
  check_drawn_spread(size(drawn, 3));
  Json bystander = doc;
  bystander["uncertain"] = {{"inputs", {uniform_input("/plans/2/onprem_nodes", 1, 4)}}};
  check_same_paths(size(bystander, 3), size(doc, 3));
}

TEST_CASE("sizing uncertain, replay: a drawn discount rate spreads every N, a bystander's input moves nothing") {
  Json doc = with_bystander(des_scenario_json(
      {{"poisson", {{"jobs_per_hour", 1.0}, {"duration_median_h", 3}, {"gpus", {{"4", 0.5}, {"8", 0.5}}}}}}));
  doc["onprem"]["failures"] = {{"afr_per_year", 2.0}, {"repair_h", 48}};
  doc["monte_carlo"] = {{"paths", 12}, {"seed", 6}, {"demand_growth_sigma_per_year", 0.2}};
  // A scenario loads an uncertain section only beside an hourly workload (models/scenario.cpp);
  // the sizing replays the jobs all the same.
  doc["workload"] = base_scenario_json().at("workload");
  Json drawn = doc;
  drawn["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4)}}};
  check_drawn_spread(size(drawn, 3));
  Json bystander = doc;
  bystander["uncertain"] = {{"inputs", {uniform_input("/plans/2/onprem_nodes", 1, 4)}}};
  check_same_paths(size(bystander, 3), size(doc, 3));
}
