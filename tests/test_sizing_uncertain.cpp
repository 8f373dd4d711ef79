// The `uncertain` section drawn in sizing (engine/decisions/sizing_draws.hpp, issue #44), in the
// fluid model and in the replay: with an input that moves the cost, every N's P90 lies above its
// mean and its CVaR95 above its P90; with an input that moves nothing the sized plan or the
// baseline pays, the curve is path for path the one without the section (the model's own spread).
// A scenario of jobs alone draws the section in run's replay too (engine/montecarlo/path_worlds.hpp).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli/report_pipeline.hpp"
#include "des_support.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/montecarlo/path_worlds.hpp"
#include "reports/json/decisions_json.hpp"

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
  // A scenario of jobs alone: its uncertain section loads (the loader refused it before).
  REQUIRE_FALSE(doc.contains("workload"));
  Json drawn = doc;
  drawn["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4)}}};
  check_drawn_spread(size(drawn, 3));
  Json bystander = doc;
  bystander["uncertain"] = {{"inputs", {uniform_input("/plans/2/onprem_nodes", 1, 4)}}};
  check_same_paths(size(bystander, 3), size(doc, 3));
}

namespace {

// The replay test's scenario of jobs alone (no hourly workload), with its bystander plan.
Json replay_uncertain_doc() {
  Json doc = with_bystander(des_scenario_json(
      {{"poisson", {{"jobs_per_hour", 1.0}, {"duration_median_h", 3}, {"gpus", {{"4", 0.5}, {"8", 0.5}}}}}}));
  doc["onprem"]["failures"] = {{"afr_per_year", 2.0}, {"repair_h", 48}};
  doc["monte_carlo"] = {{"paths", 12}, {"seed", 6}, {"demand_growth_sigma_per_year", 0.2}};
  return doc;
}

UncertaintyInputs replay_inputs(const Json& doc) {
  return make_uncertainty_inputs(doc, "des-test.json", source_path("tests"), "", std::nullopt, std::nullopt);
}

MonteCarloOptions replay_options(int threads) {
  MonteCarloOptions o;
  o.threads = threads;
  return o;
}

}  // namespace

TEST_CASE("uncertain in a scenario of jobs: run replays path p in path p's drawn world, and the spread shows") {
  const Json doc = replay_uncertain_doc();
  Json drawn = doc;
  drawn["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4)}}};
  const Scenario s = load_des_scenario(drawn);
  REQUIRE(draws_uncertain_in_replay(s));
  const MonteCarloRun mc = run_monte_carlo(s, replay_options(2), uncertain_path_worlds(replay_inputs(drawn)));
  REQUIRE(mc.paths == 12);
  // Independent of the worlds' machinery: path p of the replay of the document with path p's
  // drawn rate written in, run alone.
  const std::vector<std::vector<double>> rates = draw_uncertain_values(*s.uncertain, 12, 6);
  for (long p : {0L, 5L, 11L}) {
    Json world = doc;
    world["discount_rate_per_year"] = rates[0][static_cast<std::size_t>(p)];
    MonteCarloOptions one = replay_options(1);
    one.paths = 1;
    one.first_path = p;
    const MonteCarloRun alone = run_monte_carlo(load_des_scenario(world), one);
    for (std::size_t k = 0; k < s.plans.size(); ++k) {
      INFO("path " << p << ", plan " << s.plans[k].name);
      CHECK(mc.npv_by_path[k][static_cast<std::size_t>(p)] ==
            doctest::Approx(alone.npv_by_path[k][0]).epsilon(1e-12));
    }
  }
  // The rate spreads every plan's NPV beyond the model's own spread: every cost is positive, so
  // a path with a high rate is the cheap tail and a low rate the dear one.
  const MonteCarloRun plain = run_monte_carlo(load_des_scenario(doc), replay_options(2));
  for (std::size_t k = 0; k < s.plans.size(); ++k) {
    INFO("plan " << s.plans[k].name);
    CHECK(mc.plans[k].npv_usd.p90 > mc.plans[k].npv_usd.mean);
    CHECK(mc.plans[k].npv_usd.cvar95 > mc.plans[k].npv_usd.p90);
    // Wider than the model's own spread (demand growth drawn with sigma 0.2 a year): the cloud
    // plan's range was $280,072 against $229,681 without the section.
    CHECK(mc.plans[k].npv_usd.max - mc.plans[k].npv_usd.min > plain.plans[k].npv_usd.max - plain.plans[k].npv_usd.min);
  }
}

TEST_CASE("uncertain in a scenario of jobs: an input that moves no plan's cost changes nothing, and 1 and 2 threads give the same bytes") {
  const Json doc = replay_uncertain_doc();
  Json bystander = doc;
  bystander["uncertain"] = {{"inputs", {uniform_input("/plans/2/onprem_nodes", 1, 4)}}};
  const MonteCarloRun drawn =
      run_monte_carlo(load_des_scenario(bystander), replay_options(2), uncertain_path_worlds(replay_inputs(bystander)));
  const MonteCarloRun plain = run_monte_carlo(load_des_scenario(doc), replay_options(2));
  for (std::size_t k = 0; k < 2; ++k)  // the cloud baseline and buy-2; the bystander's own nodes are drawn
    for (std::size_t p = 0; p < 12; ++p) CHECK(drawn.npv_by_path[k][p] == plain.npv_by_path[k][p]);

  Json rate = doc;
  rate["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4)}}};
  const Scenario s = load_des_scenario(rate);
  const UncertaintyInputs in = replay_inputs(rate);
  auto report = [&](int threads) {
    return cli::run_report(s, replay_options(threads), RunMetadata{"run", threads, 1}, false, &in).report;
  };
  const Json one = report(1);
  CHECK(report_without_run(one.dump()) == report_without_run(report(2).dump()));
  // The report names what each path drew.
  REQUIRE(one.at("monte_carlo").contains("uncertain_inputs"));
  CHECK(one.at("monte_carlo").at("uncertain_inputs").at("inputs").at(0).at("pointer") ==
        "/discount_rate_per_year");
}

TEST_CASE("uncertain in a scenario of jobs: validate and run refuse an input the replay never reads, naming it") {
  const std::filesystem::path dir = scratch_dir("replay-uncertain-inputs");
  Json doc = replay_uncertain_doc();
  doc["cloud"]["spot_overhead_factor"] = 1.1;
  doc["onprem"]["packing_efficiency"] = 0.9;
  Json ok = doc;
  ok["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4)}}};
  const std::string ok_file = write_json_file(dir / "ok.json", ok);
  CHECK(run_cli({"validate", ok_file}).exit_code == 0);
  const CliResult ran = run_cli({"run", ok_file, "--paths", "2", "--out", (dir / "ok-report.json").string(), "--quiet"});
  CHECK(ran.exit_code == 0);
  for (const char* pointer : {"/cloud/spot_overhead_factor", "/onprem/packing_efficiency", "/horizon_months"}) {
    INFO(pointer);
    Json bad = doc;
    bad["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4), uniform_input(pointer, 1.0, 1.2)}}};
    if (std::string(pointer) == "/horizon_months") bad["uncertain"]["inputs"][1] = uniform_input(pointer, 10, 14);
    const std::string file = write_json_file(dir / "bad.json", bad);
    const CliResult validated = run_cli({"validate", file});
    CHECK(validated.exit_code == 2);
    CHECK(contains(validated.out, "/uncertain/inputs/1/pointer"));
    CHECK(contains(validated.out, pointer));
    const CliResult run = run_cli({"run", file, "--paths", "2", "--quiet"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "/uncertain/inputs/1/pointer"));
    CHECK(contains(run.err, pointer));
  }
  // sensitivity's analysis is the hourly model's: refused, not run on a workload of zero.
  const CliResult sensitivity = run_cli({"sensitivity", ok_file, "--paths", "2", "--quiet"});
  CHECK(sensitivity.exit_code == 2);
  CHECK(contains(sensitivity.err, "draws its uncertain inputs per path in the discrete-event replay"));
}

TEST_CASE("uncertain in a scenario of jobs: replay sizing draws it, the same bytes on 1 and 2 threads") {
  Json doc = replay_uncertain_doc();
  doc["uncertain"] = {{"inputs", {uniform_input("/discount_rate_per_year", 0.0, 0.4),
                                  uniform_input("/onprem/failures/afr_per_year", 0.5, 4.0)}}};
  auto sized = [&](int threads) {
    SizingOptions o;
    o.nodes = {0, 3, 1};
    o.search = "all";
    o.threads = threads;
    return optimize_sizing(doc, "test-scenario.json", source_path("tests"), "", o);
  };
  const SizingResult one = sized(1);
  REQUIRE(one.randomness.size() == 2);
  for (const auto& p : one.points) {
    INFO("N = " << p.nodes);
    CHECK(p.npv_usd.p90 > p.npv_usd.mean);
    CHECK(p.npv_usd.cvar95 > p.npv_usd.p90);
  }
  CHECK(sizing_json(one).dump() == sizing_json(sized(2)).dump());
}
