// `tcosim optimize` on a serving plan (issue 46 item 6; engine/decisions/sizing_tokens.hpp): the
// fluid sizing of a hybrid plan whose demand is tokens, answered in nodes and owned replicas with
// $/M tokens per point, on a scenario whose optimum is computable by hand.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "reports/json/decisions_json.hpp"
#include "reports/markdown/sizing_markdown.hpp"
#include "cli_test_support.hpp"
#include "closed_form_sizing.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

// The closed-form premises of tests/test_optimize.cpp (8-GPU nodes over their 3-year life = the
// horizon, 1-GPU cloud instances at the price where the utilization breakeven u* is 1/2, one node
// a rack, no fixed staff, 8 %), with the steady demand given as tokens:
//   the profile at 40 tokens/s per user reads c* = 32: 150 tokens/s per GPU; a replica of 2 GPUs
//   serves 300 tokens/s = 1.08M tokens an hour;
//   1 request/s of 2,800 + 400 tokens = 11.52M tokens an hour: ceil(11.52 / 1.08) = ceil(10.67)
//   = 11 replicas = 22 GPUs every hour (ref-gpu's perf_relative is 1).
Json serving_sizing_scenario() {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 36;
  doc["discount_rate_per_year"] = 0.08;
  doc["workload"] = {
      {"tokens",
       {{"requests_per_second", {{"profiles", {{{"type", "steady"}, {"requests_per_second", 1}}}}}},
        {"input_tokens_per_request", 2800},
        {"output_tokens_per_request", 400},
        {"slo", {{"min_interactivity_tokens_per_s_per_user", 40}}},
        {"serving_profile",
         {{"gpu_model", "ref-gpu"},
          {"model", "m"},
          {"precision", "fp8"},
          {"framework", "vllm"},
          {"gpus_per_replica", 2},
          {"input_tokens_per_request", 1024},
          {"output_tokens_per_request", 1024},
          {"points",
           {{{"concurrency", 16}, {"tokens_per_s_per_gpu", 100}, {"median_tpot_ms", 20}},
            {{"concurrency", 32}, {"tokens_per_s_per_gpu", 150}, {"median_tpot_ms", 25}}}},
          {"source", "hand-made"},
          {"as_of", "2026-01-01"}}}}}};
  doc["cloud"] = {{"offer", {{"id", "test/gpu1/region-a"}, {"on_demand_usd_per_hour", half_breakeven_price_usd()}}}};
  doc["onprem"]["cooling"] = {{"id", "test-air"}, {"rack_limit_kw", 10}};
  doc["onprem"]["depreciation"] = {{"life_years", 3}};
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["onprem"]["staff"] = {{"fixed_fte", 0}, {"fte_per_node", 0.1}, {"usd_per_fte_year", 120000}};
  doc["monte_carlo"] = {{"paths", 4}, {"seed", 11}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}},
                  {{"name", "own-then-burst"}, {"kind", "hybrid"}, {"onprem_nodes", 1}}};
  doc["baseline"] = "cloud";
  return doc;
}

}  // namespace

TEST_CASE("optimize a serving plan: the owned replicas and $/M tokens of every point, the optimum by hand") {
  SizingOptions o;
  o.nodes = {0, 6, 1};
  o.threads = 1;
  const SizingResult r = optimize_sizing(serving_sizing_scenario(), "test-scenario.json", source_path("tests"), "", o);
  REQUIRE(r.points.size() == 7);
  // 22 GPUs of demand = 8 x 2 + 6: nodes 1 and 2 busy all the time (u = 1), node 3 busy 6/8 =
  // 0.75 > u* = 1/2 (buy it), node 4 never (u = 0 < 1/2): best N = 3 by every measure (no random
  // input: every path is the deterministic NPV), as for the same demand in GPUs (test_optimize.cpp).
  for (const char* measure : kRiskMeasures) {
    CAPTURE(measure);
    CHECK(r.points[r.best_for(measure).point].nodes == 3);
  }
  for (const SizingPoint& p : r.points) {
    CAPTURE(p.nodes);
    REQUIRE(p.tokens);
    // Owned replicas = floor(N x 8 GPUs / 2 GPUs a replica) = 4 N.
    CHECK(p.tokens->owned_replicas == 4 * p.nodes);
    CHECK(p.tokens->gpus_per_replica == 2);
    // Every token served (the plan bursts): 11.52M x 26,280 hours = 3.027456e11.
    CHECK(p.tokens->tokens_served == doctest::Approx(11.52e6 * 26280.0).epsilon(1e-12));
    CHECK(p.tokens->tokens_unserved == doctest::Approx(0.0));
  }
  // $/M tokens at N = 3 (reservation basis: the whole nominal cost / tokens served x 1e6):
  //   capex 3 x 200,000 = 600,000; fixed 3 x 3,719 x 36 months = 401,652; dynamic energy
  //   (1 + 1 + 0.75) x 876 x 36 = 86,724; residual -3 x 68,600 = -205,800; no cloud (24 >= 22 GPUs):
  //   882,576 / 302,745.6M = $2.91524 per million tokens.
  const SizingPoint& three = r.points[3];
  CHECK(three.tokens->reservation_usd_per_million_tokens.value() ==
        doctest::Approx(882576.0 / (11.52 * 26280.0)).epsilon(1e-6));
  // The usage basis leaves out the idle quarter of the third node: below the reservation basis.
  CHECK(three.tokens->usage_usd_per_million_tokens.value() < three.tokens->reservation_usd_per_million_tokens.value());
  // N = 0 rents all 22 GPUs: 22 x p x 26,280 hours over the same tokens, both bases alike.
  const double rent_usd = 22.0 * half_breakeven_price_usd() * 26280.0;
  CHECK(r.points[0].tokens->reservation_usd_per_million_tokens.value() ==
        doctest::Approx(rent_usd / (11.52 * 26280.0)).epsilon(1e-9));
  CHECK(r.points[0].tokens->usage_usd_per_million_tokens.value() ==
        doctest::Approx(r.points[0].tokens->reservation_usd_per_million_tokens.value()).epsilon(1e-12));

  // The answer in nodes and replicas, with $/M tokens.
  const Json sizing = sizing_json(r);
  CHECK(sizing.at("answer").at("mean_replicas") == 12);
  CHECK(sizing.at("answer").at("gpus_per_replica") == 2);
  CHECK(sizing.at("curve").at(3).at("owned_replicas") == 12);
  CHECK(sizing_answer_sentence(sizing).rfind("Own 3 nodes (12 replicas of 2 GPUs, $2.915 per million tokens): the "
                                             "cheapest on average",
                                             0) == 0);
}

TEST_CASE("optimize a plan whose overflow goes to the API: the api baseline, and 0 nodes refused by name") {
  Json doc = read_json_file(source_path("tests/fixtures/scenarios/api.json"));
  doc["monte_carlo"] = {{"paths", 2}, {"seed", 3}};
  doc["baseline"] = "api";
  SizingOptions o;
  o.plan = "buy-82-api";
  o.threads = 1;
  o.nodes = {0, 100, 20};
  const auto sized = [&] {
    return optimize_sizing(doc, "api.json", source_path("tests/fixtures/scenarios"),
                           source_path("tests/fixtures/catalog"), o);
  };
  CHECK_THROWS_WITH_AS(sized(), doctest::Contains("at least 1 node"), InputError);
  o.nodes = {82, 82, 1};
  const SizingResult r = sized();
  REQUIRE(r.points.size() == 1);
  // At 82 nodes the plan is the shipped fixture's: its bill $2,595,938.40 a year of API
  // (tests/test_api_plan.cpp) beside the fleet; its NPV at 0 % is its nominal cost.
  REQUIRE(r.points[0].tokens);
  CHECK(r.points[0].tokens->owned_replicas == 82);
  CHECK(r.points[0].tokens->tokens_served == doctest::Approx(864e6 * 8760).epsilon(1e-12));
  CHECK(r.points[0].tokens->reservation_usd_per_million_tokens.value() ==
        doctest::Approx(r.points[0].deterministic_npv_usd / (864.0 * 8760)).epsilon(1e-12));
  // The api baseline: $5,203,440.00 on every path (its bill is the deterministic run's).
  CHECK(r.baseline_npv_usd.mean == doctest::Approx(5203440.00).epsilon(1e-12));
}

TEST_CASE("optimize a serving plan: $/M tokens over the Monte Carlo paths, path by path on the reservation basis") {
  // The cloud price drawn per path, uniform on [p/2, 3p/2] (p the closed-form price above).
  const double p = half_breakeven_price_usd();
  Json doc = serving_sizing_scenario();
  doc["monte_carlo"] = {{"paths", 40}, {"seed", 11}};
  doc["uncertain"] = {{"inputs",
                       {{{"name", "cloud price"},
                         {"pointer", "/cloud/offer/on_demand_usd_per_hour"},
                         {"distribution", {{"type", "uniform"}, {"low", 0.5 * p}, {"high", 1.5 * p}}}}}}};
  SizingOptions o;
  o.nodes = {0, 3, 3};
  o.threads = 1;
  const SizingResult r = optimize_sizing(doc, "test-scenario.json", source_path("tests"), "", o);
  REQUIRE(r.points.size() == 2);
  REQUIRE(r.points[0].tokens);
  REQUIRE(r.points[1].tokens);
  // N = 3 owns 24 GPUs for 22 of demand: nothing rented, the drawn price moves nothing; every path
  // costs the hand-computed 882,576 over 11.52M x 26,280 tokens = $2.91524 per million.
  const Summary& three = r.points[1].tokens->reservation_usd_per_million_tokens_paths.value();
  CHECK(three.n == 40);
  CHECK(three.mean == doctest::Approx(882576.0 / (11.52 * 26280.0)).epsilon(1e-6));
  CHECK(three.p10 == doctest::Approx(three.p90).epsilon(1e-12));
  CHECK(three.stderr_ == doctest::Approx(0.0).epsilon(1e-9));
  // N = 0 rents the 22 GPUs every hour: path k's $/M = 22 x price_k x 26,280 h x 1e6 / (11.52e6 x
  // 26,280) = 22 price_k / 11.52, so every path lies in [11 p / 11.52, 33 p / 11.52] and their mean
  // is within 4 standard errors of 22 p / 11.52 (the price's mean p).
  const Summary& zero = r.points[0].tokens->reservation_usd_per_million_tokens_paths.value();
  CHECK(zero.min >= 11.0 * p / 11.52 * (1.0 - 1e-9));
  CHECK(zero.max <= 33.0 * p / 11.52 * (1.0 + 1e-9));
  CHECK(zero.stderr_ > 0.0);
  CHECK(zero.p10 < zero.p90);
  CHECK(std::abs(zero.mean - 22.0 * p / 11.52) <= 4.0 * zero.stderr_);
  // The deterministic figure is the price as written, p: 22 p / 11.52.
  CHECK(r.points[0].tokens->reservation_usd_per_million_tokens.value() ==
        doctest::Approx(22.0 * p / 11.52).epsilon(1e-9));
  // In the JSON, flat beside the NPV's statistics (sizing.csv tables them).
  const Json sizing = sizing_json(r);
  const Json& row = sizing.at("curve").at(0);
  CHECK(row.at("usd_per_million_tokens_mean").get<double>() == doctest::Approx(zero.mean).epsilon(1e-12));
  CHECK(row.at("usd_per_million_tokens_stderr").get<double>() == doctest::Approx(zero.stderr_).epsilon(1e-12));
  CHECK(row.at("usd_per_million_tokens_p10").get<double>() == doctest::Approx(zero.p10).epsilon(1e-12));
  CHECK(row.at("usd_per_million_tokens_p90").get<double>() == doctest::Approx(zero.p90).epsilon(1e-12));
}

TEST_CASE("optimize --replicas: a serving plan's range in replicas, evaluated at the node counts that hold them") {
  SizingOptions o;
  o.replicas = IntRange{0, 12, 2};
  o.threads = 1;
  const SizingResult r = optimize_sizing(serving_sizing_scenario(), "test-scenario.json", source_path("tests"), "", o);
  // 2-GPU replicas on 8-GPU nodes: R = 0, 2, 4, 6, 8, 10, 12 need ceil(2 R / 8) = 0, 1, 1, 2, 2, 3, 3
  // nodes: each count once.
  CHECK(r.node_values == std::vector<long>{0, 1, 2, 3});
  CHECK(r.replica_values == std::vector<long>{0, 2, 4, 6, 8, 10, 12});
  REQUIRE(r.points.size() == 4);
  for (const SizingPoint& p : r.points) CHECK(p.tokens->owned_replicas == 4 * p.nodes);
  // The optimum of the --nodes 0:6 case above: 3 nodes, 12 replicas.
  CHECK(r.points[r.best_for("mean").point].nodes == 3);
  const Json sizing = sizing_json(r);
  CHECK(sizing.at("grid").at("replicas") == Json({0, 2, 4, 6, 8, 10, 12}));
  CHECK(sizing.at("answer").at("mean_replicas") == 12);
  // 9, 10, 11 replicas: ceil(18 / 8) = ceil(20 / 8) = ceil(22 / 8) = 3 nodes, one point.
  o.replicas = IntRange{9, 11, 1};
  CHECK(optimize_sizing(serving_sizing_scenario(), "test-scenario.json", source_path("tests"), "", o).node_values ==
        std::vector<long>{3});
  // A scenario of GPU demand has no replicas to count: an input error naming the option.
  Json gpus = serving_sizing_scenario();
  gpus["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 22}}}}};
  CHECK_THROWS_WITH_AS(optimize_sizing(gpus, "test-scenario.json", source_path("tests"), "", o),
                       doctest::Contains("--replicas"), InputError);
  // --nodes and --replicas together: exit 2 naming --replicas.
  const auto dir = scratch_dir("optimize-replicas");
  const std::string scenario = write_json_file(dir / "serving.json", serving_sizing_scenario());
  const CliResult both = run_cli({"optimize", scenario, "--nodes", "0:3", "--replicas", "0:12"});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--replicas") != std::string::npos);
}

namespace {

// The serving scenario above with two owned (onprem) plans whose cost is the same on every path:
// power at $0/kWh (the energy bill follows the busy GPUs; with it free the plan pays its fixed
// flows alone). 5 nodes (40 GPUs) hold the demand at any rate up to 1.5 requests/s: 17.28M tokens
// an hour / 1.08M a replica = 16 replicas = 32 GPUs.
Json owned_serving_scenario(long paths) {
  Json doc = serving_sizing_scenario();
  doc["onprem"]["power"] = {{"tariff", {{"type", "flat"}, {"usd_per_kwh", 0.0}}}, {"g_co2_per_kwh", 400}};
  doc["plans"].push_back({{"name", "own"}, {"kind", "onprem"}, {"onprem_nodes", 5}});
  doc["monte_carlo"] = {{"paths", paths}, {"seed", 11}};
  return doc;
}

constexpr double kTokensPerHourAtOneRequest = 3600.0 * 3200.0;  // 1 request/s of 2,800 + 400 tokens
constexpr double kHorizonHours = 26280.0;

}  // namespace

TEST_CASE("optimize a serving plan whose request rate is drawn: each path's $/M tokens is its cost over its own tokens") {
  // The request rate r = 1 drawn per path, uniform on [r/2, 3r/2] = [0.5, 1.5] requests/s.
  Json doc = owned_serving_scenario(200);
  doc["uncertain"] = {{"inputs",
                       {{{"name", "request rate"},
                         {"pointer", "/workload/tokens/requests_per_second/profiles/0/requests_per_second"},
                         {"distribution", {{"type", "uniform"}, {"low", 0.5}, {"high", 1.5}}}}}}};
  SizingOptions o;
  o.plan = "own";
  o.nodes = {5, 5, 1};
  o.threads = 2;
  const SizingResult r = optimize_sizing(doc, "test-scenario.json", source_path("tests"), "", o);
  REQUIRE(r.points.size() == 1);
  const SizingPoint& five = r.points[0];
  REQUIRE(five.tokens_by_path.size() == 200);
  // Path k's rate U_k as sizing draws it (tcosim run's draws: the same seed, source and paths).
  const Scenario s = load_scenario_json(doc, "test-scenario.json", source_path("tests"));
  const std::vector<double> rate = draw_uncertain_values(*s.uncertain, 200, 11)[0];
  // Every path costs the same C (fixed flows only; 40 GPUs never queue): its tokens are U_k x
  // 3,600 s x 3,200 tokens x 26,280 hours, all served, so its $/M = C x 1e6 / (11.52e6 U_k x 26,280).
  const double c_usd = five.total_by_path_usd[0];
  double inverse_sum = 0.0, inverse_squares = 0.0;
  for (std::size_t k = 0; k < rate.size(); ++k) {
    CAPTURE(k);
    CHECK(five.total_by_path_usd[k] == c_usd);
    CHECK(five.tokens_by_path[k] == doctest::Approx(rate[k] * kTokensPerHourAtOneRequest * kHorizonHours).epsilon(1e-12));
    inverse_sum += 1.0 / rate[k];
    inverse_squares += 1.0 / (rate[k] * rate[k]);
  }
  // C by hand: capex 5 x 200,000 + 5 x 3,500 x 36 months - residual 5 x 68,600 = 1,287,000, where
  // a node-month is staff 0.1 x 120,000 / 12 = 1,000 + maintenance 6 % x 200,000 / 12 = 1,000 +
  // colocation 100 $/kW x 10 kW + 500 a rack = 1,500 (the 3,719 above less its idle power, now $0).
  CHECK(c_usd == doctest::Approx(1287000.0).epsilon(1e-9));
  const double t1_tokens = kTokensPerHourAtOneRequest * kHorizonHours;  // at r = 1: 3.027456e11
  const Summary& per_million = five.tokens->reservation_usd_per_million_tokens_paths.value();
  const double n = 200.0;
  const double inverse_mean = inverse_sum / n;
  CHECK(per_million.n == 200);
  // The mean of the paths' $/M = C x 1e6 / T1 x mean(1 / U_k), exactly as the paths' arithmetic.
  CHECK(per_million.mean == doctest::Approx(c_usd * 1e6 / t1_tokens * inverse_mean).epsilon(1e-12));
  CHECK(per_million.min >= c_usd * 1e6 / (1.5 * t1_tokens) * (1.0 - 1e-12));
  CHECK(per_million.max <= c_usd * 1e6 / (0.5 * t1_tokens) * (1.0 + 1e-12));
  // Closed form: E[1 / U] for U uniform on [0.5, 1.5] = ln(1.5 / 0.5) / (1.5 - 0.5) = ln 3 =
  // 1.0986123; the mean over 200 paths within 4 standard errors of it, s = sample sd / sqrt(200).
  const double inverse_stderr = std::sqrt((inverse_squares - n * inverse_mean * inverse_mean) / (n - 1.0) / n);
  CHECK(inverse_stderr > 0.0);
  CHECK(std::abs(inverse_mean - std::log(3.0)) <= 4.0 * inverse_stderr);
  // And so the $/M: C x 1e6 / T1 x ln 3 = 1,287,000 x 1e6 / 3.027456e11 x 1.0986123 = $4.6703/M.
  CHECK(std::abs(per_million.mean - c_usd * 1e6 / t1_tokens * std::log(3.0)) <= 4.0 * per_million.stderr_);
  CHECK(per_million.stderr_ > 0.0);
  // The deterministic figure stays the rate as written, 1 request/s: C x 1e6 / T1 = $4.2510/M.
  CHECK(five.tokens->reservation_usd_per_million_tokens.value() ==
        doctest::Approx(c_usd * 1e6 / t1_tokens).epsilon(1e-9));
}

TEST_CASE("optimize a serving plan with no random input: every path's tokens and $/M are the deterministic run's") {
  Json doc = owned_serving_scenario(3);
  SizingOptions o;
  o.plan = "own";
  o.nodes = {2, 5, 3};
  o.threads = 1;
  const SizingResult r = optimize_sizing(doc, "test-scenario.json", source_path("tests"), "", o);
  REQUIRE(r.points.size() == 2);
  // 5 nodes serve every token: each path's tokens the deterministic run's, bit for bit (the sum of
  // the same hours in the same order), and its $/M the deterministic figure.
  const SizingPoint& five = r.points[1];
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    CHECK(five.tokens_by_path[k] == five.tokens->tokens_served);
    CHECK(five.total_by_path_usd[k] == five.total_by_path_usd[0]);
  }
  CHECK(five.tokens->tokens_served == doctest::Approx(kTokensPerHourAtOneRequest * kHorizonHours).epsilon(1e-12));
  const Summary& all_served = five.tokens->reservation_usd_per_million_tokens_paths.value();
  CHECK(all_served.stderr_ == 0.0);
  CHECK(all_served.min == all_served.max);
  CHECK(all_served.mean == doctest::Approx(five.tokens->reservation_usd_per_million_tokens.value()).epsilon(1e-12));
  // 2 nodes (16 GPUs) for 22 GPUs of demand queue 6 GPU-hours an hour: 6 x 26,280 = 157,680
  // GPU-hours wait at the end, the last 157,680 / 22 hours' demand, so 16/22 of the tokens are
  // served: 3.027456e11 x 16 / 22 = 2.2017862e11 on every path, as the deterministic run walks it.
  const SizingPoint& two = r.points[0];
  const double served = kTokensPerHourAtOneRequest * kHorizonHours * 16.0 / 22.0;
  CHECK(two.tokens->tokens_served == doctest::Approx(served).epsilon(1e-9));
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    CHECK(two.tokens_by_path[k] == doctest::Approx(two.tokens->tokens_served).epsilon(1e-12));
    CHECK(two.tokens_by_path[k] == two.tokens_by_path[0]);
  }
  const Summary& queued = two.tokens->reservation_usd_per_million_tokens_paths.value();
  CHECK(queued.stderr_ == 0.0);
  CHECK(queued.mean == doctest::Approx(two.tokens->reservation_usd_per_million_tokens.value()).epsilon(1e-12));
}

TEST_CASE("the sweep kernel's tokens served with drawn demand growth: the closed form, any thread count, its device loop") {
  // Demand growth drawn per path (sigma 0.2 a year, none as written): path k's tokens in hour h are
  // 11.52e6 x c_k(h), c_k(h) = exp(lambda_k h), so a plan that serves everything (the hybrid at 0
  // nodes rents the overflow) serves 11.52e6 x (exp(lambda_k H) - 1) / (exp(lambda_k) - 1).
  Json doc = owned_serving_scenario(16);
  doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.2;
  const Scenario s = load_scenario_json(doc, "test-scenario.json", source_path("tests"));
  const SweepChunk chunk = make_sweep_chunk({prepare_sweep_point(s, 11)});
  REQUIRE(chunk.has_tokens);
  const SweepPathValues one = run_sweep_cpu(chunk, 16, 1);
  const SweepPathValues three = run_sweep_cpu(chunk, 16, 3);
  CHECK(one.tokens_served == three.tokens_served);  // bit for bit
  CHECK(one.total_usd == three.total_usd);
  const SweepPointHeader& pt = chunk.points[0];
  std::vector<double> scratch(static_cast<std::size_t>(chunk.max_failure_scratch) + 1);
  double spread = 0.0;
  for (long k = 0; k < 16; ++k) {
    CAPTURE(k);
    const double lambda = sweep_growth_lambda_per_h(pt, static_cast<std::uint32_t>(k));
    const double hybrid = one.tokens_served[one.index(pt, k, 1)];
    CHECK(hybrid == doctest::Approx(kTokensPerHourAtOneRequest * std::expm1(lambda * kHorizonHours) / std::expm1(lambda))
                        .epsilon(1e-9));
    spread = std::max(spread, std::abs(hybrid / (kTokensPerHourAtOneRequest * kHorizonHours) - 1.0));
    // The device's loop (sweep_plan_path, run here on the host) gives every plan's tokens too.
    for (int j = 0; j < 3; ++j) {
      CAPTURE(j);
      const SweepPathResult device =
          sweep_plan_path(pt, chunk.plans[j], chunk.data.data(), static_cast<std::uint32_t>(k), scratch.data());
      CHECK(device.tokens_served == doctest::Approx(one.tokens_served[one.index(pt, k, j)]).epsilon(1e-12));
    }
  }
  CHECK(spread > 0.01);  // the draws move the tokens: a test of the growth, not of its absence
  // The owned plan's 40 GPUs queue on the paths that grow past them: fewer tokens than demanded.
  bool queued = false;
  for (long k = 0; k < 16; ++k)
    queued = queued || one.tokens_served[one.index(pt, k, 2)] < one.tokens_served[one.index(pt, k, 1)] * (1.0 - 1e-9);
  CHECK(queued);
}
