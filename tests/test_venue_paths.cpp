// A plan's venues on the hourly model's Monte Carlo paths and in sweeps (issue #24,
// engine/sweep/sweep_kernel.hpp's sweep_venue_hour, docs/model.md §3b): each venue's capacity is
// drawn per hour, so a path is the deterministic stepper with its availability drawn, and the
// deterministic run is the mean of the paths.
// Fixture catalog (tests/scenario_builder.hpp): test/gpu8/region-a, 8 GPUs at $16/h on-demand and
// $8/h spot; the "neocloud" is the same record at $10/h.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "engine/ledger/hourly/venue_hour.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "load_error.hpp"
#include "models/workload/workload.hpp"
#include "test_support.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

namespace {

Json venue(const std::string& name, double usd_per_hour, const Json& extra = Json::object()) {
  Json v = {{"name", name}, {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", usd_per_hour}}}};
  v.update(extra);
  return v;
}

// Three months of a diurnal 100 GPUs (so venues scale up and down every day), prices falling
// 30% a year, 8% discounting, $2 per GPU-hour waited; a cloud plan and a hybrid plan owning 4
// nodes, both bursting to `venues`.
// Three months, or one under the sanitizers: the venues' backlog states make every month of
// these scenarios seconds of ASan time (the file's tests took about 100 s of that pass at three).
Json short_horizon(const Json& venues) {
  Json doc = base_scenario_json();
  doc["horizon_months"] = kUnderSanitizers ? 1 : 3;
  doc["discount_rate_per_year"] = 0.08;
  doc["waiting_usd_per_gpu_hour"] = 2.0;
  doc["workload"] = {{"profiles", Json::array({{{"type", "steady"}, {"gpus", 100}, {"diurnal_amplitude", 0.4}}})}};
  doc["cloud"]["price_change_per_year"] = -0.3;
  doc["plans"] = Json::array({{{"name", "cloud"}, {"kind", "cloud"}, {"venues", venues}},
                              {{"name", "own-4"}, {"kind", "hybrid"}, {"onprem_nodes", 4}, {"venues", venues}}});
  doc["baseline"] = "cloud";
  return doc;
}

// A neocloud capped at 64 GPUs with availability 0.6 and a half-hour start, a hyperscaler capped
// at 96 GPUs with 0.9, and hyperscaler spot with 0.7: some hours leave work waiting.
Json short_venues() {
  return Json::array({venue("neocloud", 10.0, {{"quota_gpus", 64}, {"availability", 0.6}, {"provisioning_delay_h", 0.5}}),
                      venue("hyperscaler", 16.0, {{"quota_gpus", 96}, {"availability", 0.9}}),
                      venue("hyperscaler-spot", 16.0, {{"price", "spot"}, {"availability", 0.7}})});
}

Scenario load(const Json& doc) { return load_scenario_json(doc, "venue-paths.json", source_path("tests")); }

}  // namespace

TEST_CASE("venue paths: a Monte Carlo path of the sweep kernel is the stepper with that path's draws") {
  // Venue availability is the only random input here, so path p of the kernel (CPU backend, and
  // sweep_plan_path, the CUDA backend's loop) must be evaluate_plan with venue draws (seed, p).
  const Scenario s = load(short_horizon(short_venues()));
  constexpr std::uint64_t kSeed = 41;
  constexpr long kPaths = 6;
  const OnePointRun run = run_one_point(s, kSeed, kPaths, 2);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  std::vector<double> scratch(static_cast<std::size_t>(run.chunk.max_failure_scratch) + 1);
  double waited = 0.0;
  for (int j = 0; j < 2; ++j) {
    CHECK(run.chunk.plans[j].venue_count == 3);
    std::vector<double> npv_by_path;
    for (long p = 0; p < kPaths; ++p) {
      EvaluationOptions options;
      options.venue_draws = VenueDrawKey{kSeed, static_cast<std::uint32_t>(p)};
      const PlanResult drawn = evaluate_plan(s, s.plans[j], demand, options);
      INFO("plan " << s.plans[j].name << " path " << p);
      CHECK(run.npv(j, p) == doctest::Approx(drawn.npv_usd).epsilon(1e-11));
      CHECK(run.total(j, p) == doctest::Approx(drawn.total_usd).epsilon(1e-11));
      const SweepPathResult device_loop =
          sweep_plan_path(run.chunk.points[0], run.chunk.plans[j], run.chunk.data.data(), p, scratch.data());
      CHECK(device_loop.npv_usd == run.npv(j, p));  // the CPU backend runs the same loop for a venue plan
      waited += drawn.gpu_hours.waited;
      npv_by_path.push_back(run.npv(j, p));
    }
    CHECK(npv_by_path[0] != npv_by_path[1]);  // the draws do move the bill
  }
  CHECK(waited > 0.0);  // the caps and draws leave work waiting, which the waiting cost prices
}

TEST_CASE("venue paths: an owned plan listed first prices its venues by their own factor in a chunk") {
  // The chunk rebases every series offset of a point (engine/sweep/sweep_prepare.cpp); the venues'
  // price factor was once left out, so an owned plan listed first (its site series stored before
  // the factors) read its PUE as its venues' price factor.
  Json doc = short_horizon(short_venues());
  doc["plans"] = Json::array({doc["plans"][1], doc["plans"][0]});
  const Scenario s = load(doc);
  constexpr std::uint64_t kSeed = 43;
  const OnePointRun run = run_one_point(s, kSeed, 3, 2);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  for (int j = 0; j < 2; ++j)
    for (long p = 0; p < 3; ++p) {
      EvaluationOptions options;
      options.venue_draws = VenueDrawKey{kSeed, static_cast<std::uint32_t>(p)};
      INFO("plan " << s.plans[j].name << " path " << p);
      CHECK(run.npv(j, p) == doctest::Approx(evaluate_plan(s, s.plans[j], demand, options).npv_usd).epsilon(1e-11));
    }
}

TEST_CASE("venue paths: the deterministic run is the Monte Carlo mean within 4 standard errors") {
  // The last venue takes everything (no cap, availability 1), so nothing waits and each hour's
  // expectation is exact: E[path NPV] = the deterministic NPV.
  const Json venues = Json::array({venue("neocloud", 10.0, {{"quota_gpus", 64}, {"availability", 0.6}}),
                                   venue("hyperscaler-spot", 16.0, {{"price", "spot"}, {"availability", 0.5}}),
                                   venue("hyperscaler", 16.0)});
  const Scenario s = load(short_horizon(venues));
  const ScenarioRun det = run_deterministic(s);
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, 300, 5, 2);
  for (int j = 0; j < 2; ++j) {
    const Summary& npv = mc.plans[j].npv_usd;
    INFO(mc.plans[j].name << ": mean " << npv.mean << " deterministic " << det.plans[j].npv_usd << " stderr "
                          << npv.stderr_);
    CHECK(npv.stderr_ > 0.0);
    CHECK(std::fabs(npv.mean - det.plans[j].npv_usd) < 4.0 * npv.stderr_);
    CHECK(det.plans[j].gpu_hours.unserved == 0.0);
  }
}

TEST_CASE("venue paths: one sure, uncapped venue on the plan's own offer is the plain burst on every path") {
  // Demand growth drawn per path makes the paths differ; the venue plan and the plain plan see
  // the same demand, and one venue of availability 1 draws nothing: the same bill per path.
  Json doc = short_horizon(Json::array({venue("hyperscaler", 16.0)}));
  doc["plans"][0]["venues"] = Json::array({{{"name", "own-offer"}, {"offer", "test/gpu8/region-a"}}});
  doc["plans"][1] = {{"name", "plain"}, {"kind", "cloud"}};
  doc["workload"]["growth_per_year"] = 0.2;
  doc["monte_carlo"] = {{"paths", 8}, {"seed", 3}, {"demand_growth_sigma_per_year", 0.3}};
  const Scenario s = load(doc);
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, 8, 3, 1);
  for (long p = 0; p < 8; ++p) {
    INFO("path " << p);
    CHECK(mc.npv_by_path[0][p] == doctest::Approx(mc.npv_by_path[1][p]).epsilon(1e-12));
  }
  CHECK(mc.npv_by_path[1][0] != mc.npv_by_path[1][1]);
}

TEST_CASE("venue paths: with every random input on, a sure uncapped venue is the plain burst to 1e-12") {
  // tests/fixtures/sweep/rich.json with every random input on (demand growth, failures, ambient
  // noise, power shocks, price processes): buy-2 bursting to one sure venue on its own offer
  // against buy-2 as it is, on the same paths. Spot off in both (a venue list replaces spot_share).
  Json doc = random_sweep_json();
  doc["plans"][0]["spot_share"] = 0.0;
  doc["plans"][1]["spot_share"] = 0.0;
  Json with_venue = doc["plans"][1];
  with_venue["name"] = "buy-2-venue";
  with_venue["venues"] = Json::array({{{"name", "own"}, {"offer", "test/gpu8/region-a"}}});
  doc["plans"].push_back(with_venue);
  const Scenario s = load_sweep_scenario(doc);
  const OnePointRun run = run_one_point(s, 7, 12, 2);
  for (long p = 0; p < 12; ++p) {
    INFO("path " << p);
    CHECK(run.npv(3, p) == doctest::Approx(run.npv(1, p)).epsilon(1e-12));
  }
  CHECK(run.npv(1, 0) != run.npv(1, 1));

  // The CUDA parity test's venue scenario (tests/cuda/test_sweep_cuda.cpp) loads and runs here.
  doc["plans"][0]["venues"] = Json::array({{{"name", "neocloud"},
                                            {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", 10.0}}},
                                            {"availability", 0.3},
                                            {"quota_gpus", 16},
                                            {"provisioning_delay_h", 0.25}},
                                           {{"name", "hyperscaler"}, {"offer", "test/gpu8/region-a"}}});
  const OnePointRun capped = run_one_point(load_sweep_scenario(doc), 13, 4, 1);
  CHECK(capped.npv(0, 0) != capped.npv(0, 1));
}

TEST_CASE("venue paths: `run --paths` and `sweep` take a plan with venues, a plan lists at most 8") {
  const auto dir = scratch_dir("venue-paths");
  // Under the sanitizers only the neocloud's availability is drawn: the deterministic run's backlog
  // states of three uncertain venues took about 60 s of the sanitizer pass for one month (4.6 CPU-s
  // in Release), one uncertain venue 0.04 s; the Release pass runs three months of three.
  Json venues = short_venues();
  if (kUnderSanitizers)
    for (std::size_t v = 1; v < venues.size(); ++v) venues[v]["availability"] = 1.0;
  const Json doc = short_horizon(venues);
  const std::string scenario = write_json_file(dir / "venues.json", doc);
  const std::string report = (dir / "report.json").string();
  REQUIRE(run_cli({"run", scenario, "--paths", "16", "--seed", "2", "--out", report, "--quiet"}).exit_code == 0);
  const Json mc = Json::parse(read_text_file(report)).at("monte_carlo");
  CHECK(mc.at("mode") == "fluid");
  CHECK(mc.at("plans").at(0).at("npv_usd").at("stderr").get<double>() > 0.0);

  // A grid over the neocloud's availability: availability 1 leaves the hyperscaler less work.
  const std::string grid = write_json_file(
      dir / "grid.json", Json::parse(R"({"fields": [{"pointer": "/plans/0/venues/0/availability", "values": [0.3, 1]}]})"));
  const std::string out = (dir / "sweep.json").string();
  const CliResult swept =
      run_cli({"sweep", scenario, "--grid", grid, "--paths", "4", "--backend", "cpu", "--out", out, "--quiet"});
  INFO(swept.err);
  REQUIRE(swept.exit_code == 0);
  CHECK(std::filesystem::exists(out));

  // Nine venues are more than a plan may list.
  Json nine = short_horizon(short_venues());
  for (int i = 0; i < 6; ++i) nine["plans"][0]["venues"].push_back(venue("extra-" + std::to_string(i), 12.0));
  CHECK(load_error(nine).find("/plans/0/venues: expected a non-empty array of at most 8 cloud venues") == 0);
}

}  // namespace tco::test
