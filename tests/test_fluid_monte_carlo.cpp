// The fluid Monte Carlo of a scenario without jobs (engine/montecarlo/fluid_monte_carlo.hpp, docs/model.md
// §10): its statistics summarise the sweep engine's per-path NPVs, a plan compared with its
// twin differs by exactly 0, and `tcosim run` adds them to the deterministic report, the same
// bytes on any thread count.
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/stats/statistics.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

TEST_CASE("fluid Monte Carlo: per-plan statistics and paired differences of the sweep engine's paths") {
  const Scenario s = load_sweep_scenario(random_sweep_json());
  const long paths = 24;
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, paths, 7, 2);
  const OnePointRun one = run_one_point(s, 7, paths);
  REQUIRE(mc.plans.size() == 3);
  REQUIRE(mc.comparisons.size() == 2);  // buy-2 and own-4 against cloud
  for (int j = 0; j < 3; ++j) {
    std::vector<double> npvs;
    for (long k = 0; k < paths; ++k) npvs.push_back(one.npv(j, k));
    CHECK(mc.plans[j].name == s.plans[j].name);
    CHECK(mc.plans[j].npv_usd.n == paths);
    CHECK(mc.plans[j].npv_usd.mean == compensated_sum(npvs) / paths);  // the same sum, in path order
    CHECK(mc.plans[j].npv_usd.stderr_ > 0.0);         // the random inputs vary the NPV
  }
  const McComparisonStats& own = mc.comparisons[1];
  CHECK(own.plan == "own-4");
  CHECK(own.baseline == "cloud");
  long cheaper = 0;
  double sum = 0.0;
  for (long k = 0; k < paths; ++k) {
    const double d = one.npv(2, k) - one.npv(0, k);
    sum += d;
    cheaper += d < 0.0 ? 1 : 0;
  }
  CHECK(own.npv_difference_usd.mean == sum / paths);
  CHECK(own.p_cheaper == static_cast<double>(cheaper) / paths);
}

TEST_CASE("fluid Monte Carlo: a plan identical to the baseline differs by exactly 0, P(cheaper) = 0") {
  Json doc = random_sweep_json();
  Json twin = doc["plans"][0];
  twin["name"] = "cloud-twin";
  doc["plans"].push_back(twin);
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(load_sweep_scenario(doc), 16, 3, 1);
  const McComparisonStats& c = mc.comparisons.back();
  REQUIRE(c.plan == "cloud-twin");
  CHECK(c.npv_difference_usd.mean == 0.0);
  CHECK(c.npv_difference_usd.min == 0.0);
  CHECK(c.npv_difference_usd.max == 0.0);
  CHECK(c.nominal_difference_usd.cvar95 == 0.0);
  CHECK(c.p_cheaper == 0.0);
}

TEST_CASE("fluid run: more than one path adds the fluid statistics, the same bytes on 1 and 2 threads") {
  const auto dir = scratch_dir("fluid-run");
  const std::string scenario = write_json_file(dir / "random.json", random_sweep_json());
  const std::string one = (dir / "one.json").string(), two = (dir / "two.json").string();
  REQUIRE(run_cli({"run", scenario, "--paths", "12", "--threads", "1", "--out", one, "--quiet"}).exit_code == 0);
  REQUIRE(run_cli({"run", scenario, "--paths", "12", "--threads", "2", "--out", two, "--quiet"}).exit_code == 0);
  Json a = Json::parse(read_text_file(one)), b = Json::parse(read_text_file(two));
  const Json& mc = a.at("monte_carlo");
  CHECK(mc.at("mode") == "fluid");
  CHECK(mc.at("paths") == 12);
  CHECK(mc.at("seed") == 7);  // the scenario's
  CHECK(mc.at("plans").size() == 3);
  CHECK(mc.at("comparisons").size() == 2);
  CHECK(mc.at("plans").at(1).at("npv_usd").at("stderr").get<double>() > 0.0);
  a.erase("run");
  b.erase("run");
  CHECK(a.dump() == b.dump());
  // One path: the deterministic model alone, as before.
  const std::string single = (dir / "single.json").string();
  REQUIRE(run_cli({"run", scenario, "--paths", "1", "--out", single, "--quiet"}).exit_code == 0);
  CHECK(Json::parse(read_text_file(single)).at("monte_carlo").at("mode") == "deterministic");
}

}  // namespace tco::test
