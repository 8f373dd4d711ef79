// A plan that rents at a named price index, and the basis between two indices as an uncertain input
// (issue 48 item 3; models/price_path/price_indices.hpp): with a basis of 0 every path equals the
// one-index run to the bit; a fixed basis b moves the bill by b x the on-demand GPU-hours, by hand.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "bad_input_support.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"

namespace tco::test {

namespace {

// Index "a": $2.00 per GPU-hour from the start (2026-01-05), $1.50 from 2026-07-05 (181 days: hour
// 4,344). Index "b" follows "a" with a basis. The base scenario: 16 GPUs steady for 12 months.
const Json kIndexA = Json::parse(R"({"interpolation": "step", "points": [
    {"date": "2026-01-05", "usd_per_gpu_hour": 2.0, "source": "index a"},
    {"date": "2026-07-05", "usd_per_gpu_hour": 1.5, "source": "index a"}]})");

Json indexed_scenario(double basis_usd_per_gpu_hour) {
  Json doc = base_scenario_json();
  doc["price_indices"] = {{"a", kIndexA}, {"b", {{"follows", "a"}, {"basis_usd_per_gpu_hour", basis_usd_per_gpu_hour}}}};
  doc["plans"] = Json::array({{{"name", "at-a"}, {"kind", "cloud"}, {"price_index", "a"}},
                              {{"name", "at-b"}, {"kind", "cloud"}, {"price_index", "b"}},
                              {{"name", "buy-2"}, {"kind", "hybrid"}, {"onprem_nodes", 2}, {"price_index", "b"}}});
  doc["baseline"] = "at-a";
  return doc;
}

// The one-index run: the same plans with index a's points written as their on-demand schedule.
Json one_index_scenario() {
  Json doc = base_scenario_json();
  doc["cloud"]["price_schedule"] = {{"on_demand", kIndexA}};
  doc["plans"] = Json::array({{{"name", "at-a"}, {"kind", "cloud"}},
                              {{"name", "at-b"}, {"kind", "cloud"}},
                              {{"name", "buy-2"}, {"kind", "hybrid"}, {"onprem_nodes", 2}}});
  doc["baseline"] = "at-a";
  return doc;
}

// 200 paths of a drawn load (uniform, 8 to 24 GPUs), seed 2026.
Json with_drawn_load(Json doc) {
  doc["uncertain"] = {{"inputs", {{{"name", "load"}, {"pointer", "/workload/profiles/0/gpus"},
                                   {"distribution", {{"type", "uniform"}, {"low", 8}, {"high", 24}}}}}}};
  doc["monte_carlo"] = {{"paths", 200}, {"seed", 2026}};
  return doc;
}

UncertainPaths paths_of(const Json& doc, const std::string& name) {
  return run_uncertain_paths(make_uncertainty_inputs(doc, name, source_path("tests"), "", std::nullopt, std::nullopt), 1);
}

}  // namespace

TEST_CASE("price index: a plan at an index pays the index, by hand") {
  // 16 GPUs x (4,344 h x $2.00 + 4,416 h x $1.50) = 16 x (8,688 + 6,624) = 16 x 15,312 = $244,992.
  const ScenarioOutcome o = run_scenario_json(indexed_scenario(0.0));
  CHECK(o.plan("at-a").ledger.category_total_usd(Category::cloud_on_demand) ==
        doctest::Approx(244992.0).epsilon(1e-12));
  CHECK(o.plan("at-a").gpu_hours.on_demand_billed == doctest::Approx(16.0 * 8760.0).epsilon(1e-12));
  CHECK(o.scenario.plans[0].resolved.at("price_index") == "a");
  CHECK(o.scenario.plans[1].resolved.at("price_index") == "b");
}

TEST_CASE("price index: with zero basis every path equals the one-index run exactly") {
  // Deterministic run: the plan at b (a + 0) and at a both equal the schedule written out, to the bit.
  const ScenarioOutcome indexed = run_scenario_json(indexed_scenario(0.0));
  const ScenarioOutcome one = run_scenario_json(one_index_scenario());
  for (const char* plan : {"at-a", "at-b", "buy-2"}) {
    INFO("plan " << plan);
    CHECK(indexed.plan(plan).total_usd - one.plan(plan).total_usd == 0.0);
    CHECK(indexed.plan(plan).npv_usd - one.plan(plan).npv_usd == 0.0);
  }
  CHECK(indexed.plan("at-b").total_usd - indexed.plan("at-a").total_usd == 0.0);

  // 200 paths of a drawn load: every path's NPV of every plan is the one-index run's, difference 0.
  const UncertainPaths at_index = paths_of(with_drawn_load(indexed_scenario(0.0)), "indexed.json");
  const UncertainPaths at_one = paths_of(with_drawn_load(one_index_scenario()), "one-index.json");
  REQUIRE(at_index.outcomes.size() == 200);
  REQUIRE(at_one.outcomes.size() == 200);
  CHECK(at_index.values == at_one.values);
  int differing = 0;
  double largest_difference_usd = 0.0;
  for (std::size_t p = 0; p < at_index.outcomes.size(); ++p)
    for (std::size_t k = 0; k < 3; ++k) {
      const double d = at_index.outcomes[p].npv_usd[k] - at_one.outcomes[p].npv_usd[k];
      differing += d != 0.0;
      largest_difference_usd = std::max(largest_difference_usd, std::abs(d));
    }
  CHECK(differing == 0);
  CHECK(largest_difference_usd == 0.0);
  // The paths do vary (a test of equal constants would prove nothing).
  std::set<double> distinct_npv_usd;
  for (const ScenarioOutcomes& path : at_index.outcomes) distinct_npv_usd.insert(path.npv_usd[0]);
  CHECK(distinct_npv_usd.size() >= 2);  // whole 8-GPU instances: 1, 2 or 3 of them
}

TEST_CASE("price index: a fixed basis moves the bill by basis x on-demand GPU-hours, and may be drawn") {
  // b = a - $0.25: 140,160 on-demand GPU-hours x -$0.25 = -$35,040 ($244,992 - 35,040 = $209,952).
  const ScenarioOutcome o = run_scenario_json(indexed_scenario(-0.25));
  const double hours = o.plan("at-b").gpu_hours.on_demand_billed;
  CHECK(hours == doctest::Approx(140160.0).epsilon(1e-12));
  CHECK(o.plan("at-b").total_usd - o.plan("at-a").total_usd == doctest::Approx(-35040.0).epsilon(1e-9));
  CHECK(o.plan("at-b").ledger.category_total_usd(Category::cloud_on_demand) ==
        doctest::Approx(209952.0).epsilon(1e-12));

  // The basis drawn per path (uniform -$0.50 to +$0.50): at a 0 discount rate each path's NPV gap
  // is its basis x 140,160 GPU-hours.
  Json drawn = indexed_scenario(0.1);
  drawn["uncertain"] = {{"inputs", {{{"name", "basis a to b"}, {"pointer", "/price_indices/b/basis_usd_per_gpu_hour"},
                                     {"distribution", {{"type", "uniform"}, {"low", -0.5}, {"high", 0.5}}}}}}};
  drawn["monte_carlo"] = {{"paths", 50}, {"seed", 7}};
  const UncertainPaths paths = paths_of(drawn, "drawn-basis.json");
  REQUIRE(paths.outcomes.size() == 50);
  for (std::size_t p = 0; p < paths.outcomes.size(); ++p) {
    INFO("path " << p << ", basis " << paths.values[0][p]);
    CHECK(paths.outcomes[p].npv_usd[1] - paths.outcomes[p].npv_usd[0] ==
          doctest::Approx(paths.values[0][p] * 140160.0).epsilon(1e-9).scale(1.0));
  }
}

TEST_CASE("price index: bad input exits 2 naming the file and the pointer") {
  check_each_refused(
      "price-index-",
      indexed_scenario(0.0),
      {{"not-an-object", [](Json& d) { d["price_indices"] = Json::array(); }, "/price_indices",
        "an object of named price indices"},
       {"factor-points",
        [](Json& d) { d["price_indices"]["a"]["points"] = {{{"date", "2026-01-05"}, {"factor", 1.0}}}; },
        "/price_indices/a/points/0", "an index is a price per GPU-hour"},
       {"unknown-key", [](Json& d) { d["price_indices"]["a"]["currency"] = "usd"; }, "/price_indices/a/currency",
        "unknown key"},
       {"zero-price", [](Json& d) { d["price_indices"]["a"]["points"][1]["usd_per_gpu_hour"] = 0.0; },
        "/price_indices/a/points/1/usd_per_gpu_hour", ""},
       {"follows-unknown", [](Json& d) { d["price_indices"]["b"]["follows"] = "c"; }, "/price_indices/b/follows",
        "the name of a series"},
       {"follows-basis",
        [](Json& d) { d["price_indices"]["c"] = {{"follows", "b"}, {"basis_usd_per_gpu_hour", 0.1}}; },
        "/price_indices/c/follows", "the name of a series"},
       {"basis-below-zero", [](Json& d) { d["price_indices"]["b"]["basis_usd_per_gpu_hour"] = -1.5; },
        "/price_indices/b/basis_usd_per_gpu_hour", "2026-07-05 is 1.5 + -1.5 = 0"},
       {"basis-not-a-number", [](Json& d) { d["price_indices"]["b"]["basis_usd_per_gpu_hour"] = "0.1"; },
        "/price_indices/b/basis_usd_per_gpu_hour", ""},
       {"unknown-index", [](Json& d) { d["plans"][1]["price_index"] = "z"; }, "/plans/1/price_index",
        "one of the scenario's price_indices (\"a\", \"b\")"},
       {"not-a-name", [](Json& d) { d["plans"][1]["price_index"] = 3; }, "/plans/1/price_index", ""},
       {"onprem-plan",
        [](Json& d) { d["plans"].push_back({{"name", "own"}, {"kind", "onprem"}, {"onprem_nodes", 2}, {"price_index", "a"}}); },
        "/plans/3/price_index", "rents no GPUs"},
       {"own-schedule",
        [](Json& d) { d["plans"][1]["cloud"] = {{"price_schedule", {{"on_demand", kIndexA}}}}; },
        "/plans/1/price_index", "beside the plan's own cloud.price_schedule.on_demand"},
       {"no-index-section", [](Json& d) { d.erase("price_indices"); }, "/plans/0/price_index", "(none)"},
       // A fresh mutation sample's find: the plan's kind was read as a string before parse_plan
       // judged it (an internal error, exit 3).
       {"kind-null", [](Json& d) { d["plans"][1]["kind"] = nullptr; }, "/plans/1/kind", ""},
       {"kind-number", [](Json& d) { d["plans"][1]["kind"] = 1; }, "/plans/1/kind", ""}});
}

}  // namespace tco::test
