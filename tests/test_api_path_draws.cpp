// A Monte Carlo path's API bill and the tokens it sends down its venue list follow the path's demand
// growth and the owned fleet's failures (issue 46; engine/sweep/sweep_kernel.hpp's
// sweep_api_hour_usd, engine/ledger/api_booking.hpp's ApiMeter with EvaluationOptions' growth and
// failures), and the API's tokens carry no egress (docs/decisions.md §24). On
// tests/fixtures/scenarios/api.json (12 months): 864M tokens an hour, 5/6 of them input, at $0.50 /
// $2.00 per million input / output, a fifth of the input cached at $0.125: $0.6875 per million
// blended, $594 an hour for all of them (plan "api"). A reference GPU-hour serves 660,000 tokens, so
// "buy-82-api" (82 nodes of 8 GPUs = 656 GPUs) serves 432.96M an hour and sends 431.04M to the API.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/plan_evaluator.hpp"
#include "engine/scenario_run.hpp"
#include "engine/sweep/sweep_kernel.hpp"
#include "models/workload/workload.hpp"
#include "test_support.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

namespace {

constexpr int kApiPlan = 2;     // kind api: every token
constexpr int kHybridPlan = 3;  // buy-82-api: the tokens 82 owned nodes leave
constexpr double kUsdPerToken = 0.6875 / 1e6;
constexpr double kTokensPerHour = 864e6;
constexpr double kOwnedTokensPerHour = 656.0 * 660000.0;  // 432.96M
constexpr double kHours = 8760.0;

Json api_fixture() { return read_json_file(source_path("tests/fixtures/scenarios/api.json")); }

Scenario load_api(const Json& doc) {
  return load_scenario_json(doc, "api.json", source_path("tests/fixtures/scenarios"), source_path("tests/fixtures/catalog"));
}

double relative(double a, double b) { return std::fabs(a - b) / std::max({1.0, std::fabs(a), std::fabs(b)}); }

// A path's owned node-hours down, hour by hour, as the kernel draws them for plan j.
std::vector<double> nodes_down_on_path(const SweepChunk& chunk, int j, std::uint32_t path) {
  const SweepPointHeader& pt = chunk.points[0];
  const SweepPlanParams& p = chunk.plans[pt.first_plan + j];
  std::vector<double> starts(static_cast<std::size_t>(p.failure_capacity) + 1);
  const int n = sweep_failure_starts(p, pt.hours, pt.seed, path, starts.data());
  REQUIRE(n >= 0);
  std::vector<double> down(static_cast<std::size_t>(pt.hours), 0.0);
  DownTracker tracker;
  for (long h = 0; h < pt.hours; ++h) down[h] = sweep_nodes_down(starts.data(), n, p.repair_h, h, tracker);
  return down;
}

struct MeanAndError {
  double mean = 0.0;
  double stderr_ = 0.0;
};

MeanAndError mean_and_error(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double sum = 0.0, squares = 0.0;
  for (double v : x) sum += v;
  const double mean = sum / n;
  for (double v : x) squares += (v - mean) * (v - mean);
  return {mean, std::sqrt(squares / (n - 1.0) / n)};
}

}  // namespace

TEST_CASE("api path draws: with no draw every path is the deterministic run bit for bit") {
  Json doc = api_fixture();
  for (const bool limited : {false, true}) {
    CAPTURE(limited);
    // Limited to 10M tokens a minute (600M an hour), without venues: 264M an hour unserved.
    if (limited) doc["api"]["rate_limit_tokens_per_minute"] = 1e7;
    const Scenario s = load_api(doc);
    const ScenarioRun det = run_deterministic(s);
    const OnePointRun run = run_one_point(s, 7, 3, 2);
    std::vector<double> scratch(static_cast<std::size_t>(run.chunk.max_failure_scratch) + 1);
    for (long k = 0; k < 3; ++k) {
      CAPTURE(k);
      // The api plan books nothing but its bill: its total and NPV are the deterministic run's bits.
      CHECK(run.total(kApiPlan, k) == det.plans[kApiPlan].total_usd);
      CHECK(run.npv(kApiPlan, k) == det.plans[kApiPlan].npv_usd);
      const SweepPathResult device = sweep_plan_path(run.chunk.points[0], run.chunk.plans[kApiPlan],
                                                     run.chunk.data.data(), static_cast<std::uint32_t>(k), scratch.data());
      CHECK(device.total_usd == det.plans[kApiPlan].total_usd);
      // Every plan's tokens served: the deterministic run's bits (the API's unserved summed hour by hour).
      for (int j = 0; j < static_cast<int>(s.plans.size()); ++j) {
        CAPTURE(j);
        CHECK(run.values.tokens_served[run.values.index(run.chunk.points[0], k, j)] ==
              det.tokens[j].figures.tokens_served);
      }
      // The hybrid books its fleet beside the bill (summed in another order): 1e-12.
      CHECK(relative(run.total(kHybridPlan, k), det.plans[kHybridPlan].total_usd) <= 1e-12);
    }
    // By hand: all 864M an hour at $594 ($5,203,440.00 a year); limited, 600M at $0.6875 per
    // million = $412.50 an hour ($3,613,500.00), 264M x 8,760 = 2.31264e12 tokens unserved.
    const double api_usd = limited ? 412.5 * kHours : 594.0 * kHours;
    CHECK(std::fabs(det.plans[kApiPlan].total_usd - api_usd) < 0.005);
    const double served = limited ? 600e6 * kHours : kTokensPerHour * kHours;
    CHECK(det.tokens[kApiPlan].figures.tokens_served == doctest::Approx(served).epsilon(1e-12));
  }
}

TEST_CASE("api path draws: drawn demand growth moves the API bill, each path its closed form, the mean its expectation") {
  // Growth drawn per path: g_k = 0 + 0.1 z_k, so hour h's tokens are 864M x c_k(h), c_k(h) =
  // (1 + g_k)^(h / 8760) = exp(lambda_k h). The api plan's bill on path k is then
  // 0.6875e-6 x 864M x sum_h c_k(h) = $594 x (exp(lambda_k H) - 1) / (exp(lambda_k) - 1), and the
  // hybrid's (its 656 GPUs always busy: 1,309 GPUs x c >= 656 for g > -0.49) 0.6875e-6 x (864M x
  // sum_h c_k(h) - 432.96M x 8,760).
  Json doc = api_fixture();
  doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.1;
  const Scenario s = load_api(doc);
  const ScenarioRun det = run_deterministic(s);
  constexpr long kPaths = 400;
  const OnePointRun run = run_one_point(s, 5, kPaths, 2);
  const SweepPointHeader& pt = run.chunk.points[0];
  // The hybrid's costs besides its API bill do not move with growth while its fleet is busy.
  const double hybrid_other_usd =
      det.plans[kHybridPlan].total_usd - det.plans[kHybridPlan].ledger.category_total_usd(Category::api);
  std::vector<double> api_bill, hybrid_bill;
  double spread = 0.0;
  for (long k = 0; k < kPaths; ++k) {
    CAPTURE(k);
    const double lambda = sweep_growth_lambda_per_h(pt, static_cast<std::uint32_t>(k));
    REQUIRE(std::exp(lambda * kHours) > 0.51);
    const double sum_c = std::expm1(lambda * kHours) / std::expm1(lambda);
    api_bill.push_back(run.total(kApiPlan, k));
    hybrid_bill.push_back(run.total(kHybridPlan, k) - hybrid_other_usd);
    CHECK(api_bill.back() == doctest::Approx(kUsdPerToken * kTokensPerHour * sum_c).epsilon(1e-9));
    CHECK(hybrid_bill.back() ==
          doctest::Approx(kUsdPerToken * (kTokensPerHour * sum_c - kOwnedTokensPerHour * kHours)).epsilon(1e-9));
    spread = std::max(spread, std::fabs(api_bill.back() / det.plans[kApiPlan].total_usd - 1.0));
  }
  CHECK(spread > 0.05);  // the draws move the bill: a test of the growth, not of its absence
  // The expectation by hand: E[(1 + g)^x] for g ~ N(0, s^2) is 1 + x (x - 1) s^2 / 2 + x (x - 1)
  // (x - 2) (x - 3) 3 s^4 / 24 + O(s^6) (Taylor: E[g] = E[g^3] = 0, E[g^4] = 3 s^4), x = h / 8,760;
  // summed over the 8,760 hours: 8,760 - 0.005 x (8760^2 - 1) / (6 x 8760) + ... = 8,752.70 hours.
  const double s2 = 0.1 * 0.1;
  double expected_sum_c = 0.0;
  for (long h = 0; h < 8760; ++h) {
    const double x = static_cast<double>(h) / kHours;
    expected_sum_c += 1.0 + x * (x - 1.0) * s2 / 2.0 + x * (x - 1.0) * (x - 2.0) * (x - 3.0) * 3.0 * s2 * s2 / 24.0;
  }
  CHECK(expected_sum_c == doctest::Approx(8752.70).epsilon(1e-5));
  // E[api bill] = $594 x 8,752.70 = $5,199,104; E[hybrid's] = 0.6875e-6 x (864M x 8,752.70 - 432.96M x 8,760).
  const MeanAndError api = mean_and_error(api_bill);
  const MeanAndError hybrid = mean_and_error(hybrid_bill);
  const double api_expected = 594.0 * expected_sum_c;
  const double hybrid_expected = kUsdPerToken * (kTokensPerHour * expected_sum_c - kOwnedTokensPerHour * kHours);
  INFO("api mean " << api.mean << " se " << api.stderr_ << " expected " << api_expected);
  INFO("hybrid mean " << hybrid.mean << " se " << hybrid.stderr_ << " expected " << hybrid_expected);
  CHECK(api.stderr_ > 0.0);
  CHECK(hybrid.stderr_ > 0.0);
  CHECK(std::fabs(api.mean - api_expected) <= 4.0 * api.stderr_);
  CHECK(std::fabs(hybrid.mean - hybrid_expected) <= 4.0 * hybrid.stderr_);
  // Tokens served: all of them, 864M x sum_h c_k(h) on path k.
  for (long k = 0; k < 4; ++k) {
    const double lambda = sweep_growth_lambda_per_h(pt, static_cast<std::uint32_t>(k));
    CHECK(run.values.tokens_served[run.values.index(pt, k, kApiPlan)] ==
          doctest::Approx(kTokensPerHour * std::expm1(lambda * kHours) / std::expm1(lambda)).epsilon(1e-9));
  }
}

TEST_CASE("api path draws: a hybrid plan's failed nodes send their tokens to the API, by hand") {
  // 82 nodes failing at 2 a year, 48 hours each to repair: path k's node-hours down D_k(h) leave
  // 8 D_k(h) GPUs idle, whose 8 x 660,000 tokens an hour go to the API at $0.6875 per million:
  // $3.63 a node-hour down, so the path's API bill = $296.34 x 8,760 + $3.63 x sum_h D_k(h).
  Json doc = api_fixture();
  doc["onprem"]["failures"] = {{"afr_per_year", 2.0}, {"repair_h", 48}};
  const Scenario s = load_api(doc);
  const OnePointRun run = run_one_point(s, 9, 4, 1);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  const double det_api_usd = evaluate_plan(s, s.plans[kHybridPlan], demand).ledger.category_total_usd(Category::api);
  CHECK(std::fabs(det_api_usd - 296.34 * kHours) < 0.005);
  for (long k = 0; k < 4; ++k) {
    CAPTURE(k);
    EvaluationOptions options;
    options.nodes_down_by_hour = nodes_down_on_path(run.chunk, kHybridPlan, static_cast<std::uint32_t>(k));
    double node_hours_down = 0.0;
    for (double d : options.nodes_down_by_hour) node_hours_down += d;
    CHECK(node_hours_down > 48.0);  // 82 x 2 = 164 failures a year expected
    const PlanResult path = evaluate_plan(s, s.plans[kHybridPlan], demand, options);
    CHECK(path.ledger.category_total_usd(Category::api) ==
          doctest::Approx(296.34 * kHours + 8.0 * 660000.0 * kUsdPerToken * node_hours_down).epsilon(1e-11));
    // The kernel's path is the hourly model with the path's failures.
    CHECK(relative(run.total(kHybridPlan, k), path.total_usd) <= 1e-11);
    CHECK(relative(run.npv(kHybridPlan, k), path.npv_usd) <= 1e-11);
  }
}

TEST_CASE("api path draws: the sweep kernel is the hourly model on a path with growth, failures and venue draws") {
  // The api plan limited to 10M tokens a minute bursts the rest to a venue that has capacity 60 %
  // of hours (then a sure one); growth drawn (0.1 a year) and the owned nodes failing (2 a year).
  Json doc = api_fixture();
  doc["api"]["rate_limit_tokens_per_minute"] = 1e7;
  doc["plans"][kApiPlan]["venues"] = Json::array(
      {{{"name", "neocloud"}, {"offer", "test/gpu8/region-a"}, {"quota_gpus", 200}, {"availability", 0.6},
        {"provisioning_delay_h", 1.0}},
       {{"name", "single"}, {"offer", "test/gpu1/region-a"}, {"quota_gpus", 300}}});
  doc["plans"][kApiPlan]["api_next_venue"] = "neocloud";
  doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.1;
  doc["onprem"]["failures"] = {{"afr_per_year", 2.0}, {"repair_h", 48}};
  const Scenario s = load_api(doc);
  constexpr std::uint64_t kSeed = 13;
  const OnePointRun run = run_one_point(s, kSeed, 4, 2);
  const SweepPointHeader& pt = run.chunk.points[0];
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  std::vector<double> unserved;
  for (long k = 0; k < 4; ++k) {
    for (int j : {kApiPlan, kHybridPlan}) {
      CAPTURE(k);
      CAPTURE(j);
      EvaluationOptions options;
      options.venue_draws = VenueDrawKey{kSeed, static_cast<std::uint32_t>(k)};
      options.demand_growth_lambda_per_h = sweep_growth_lambda_per_h(pt, static_cast<std::uint32_t>(k));
      if (j == kHybridPlan) options.nodes_down_by_hour = nodes_down_on_path(run.chunk, j, static_cast<std::uint32_t>(k));
      const PlanResult path = evaluate_plan(s, s.plans[j], demand, options);
      CHECK(relative(run.npv(j, k), path.npv_usd) <= 1e-11);
      CHECK(relative(run.total(j, k), path.total_usd) <= 1e-11);
      const double served = path.api->tokens_demanded - path.api->unserved_tokens;
      CHECK(relative(run.values.tokens_served[run.values.index(pt, k, j)], served) <= 1e-11);
      if (j == kApiPlan) unserved.push_back(path.api->unserved_tokens);
    }
  }
  // Growth moves what goes down the venue list, and what the venues leave: the paths differ.
  CHECK(unserved[0] != unserved[1]);
  CHECK(unserved[0] > 0.0);
}

TEST_CASE("api path draws: the CPU backend's month lanes are the device's hour-by-hour loop") {
  // The CPU backend runs a bursting plan that buys tokens in its eight-lane month loop
  // (engine/sweep/sweep_cpu.cpp, api_month); the CUDA backend runs sweep_plan_path hour by hour.
  // A rate limit of 1,234,567.891 tokens a minute (74,074,073.46 an hour) below a diurnal demand
  // (100 requests a second +- 37%, 0.7 on weekends: 864M x 0.63 x 0.7 = 381M to 864M x 1.37 = 1,184M
  // tokens an hour) leaves a different fraction unserved each hour, so the unserved sum's order shows
  // in its bits. The lanes add the unserved tokens in hour order: with nothing drawn, the
  // deterministic run's bits; with growth and failures drawn, the dollars (summed in lanes) within
  // 1e-12 of the device's loop.
  Json doc = api_fixture();
  doc["api"]["rate_limit_tokens_per_minute"] = 1234567.891;
  Json& profile = doc["workload"]["tokens"]["requests_per_second"]["profiles"][0];
  profile["diurnal_amplitude"] = 0.37;
  profile["peak_hour"] = 14;
  profile["weekend_factor"] = 0.7;
  for (const bool drawn : {false, true}) {
    CAPTURE(drawn);
    if (drawn) {
      doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.1;
      doc["onprem"]["failures"] = {{"afr_per_year", 2.0}, {"repair_h", 48}};
    }
    const Scenario s = load_api(doc);
    const ScenarioRun det = run_deterministic(s);
    const OnePointRun run = run_one_point(s, 21, 4, 2);
    const SweepPointHeader& pt = run.chunk.points[0];
    std::vector<double> scratch(static_cast<std::size_t>(run.chunk.max_failure_scratch) + 1);
    for (int j : {kApiPlan, kHybridPlan}) {
      const SweepPlanParams& p = run.chunk.plans[pt.first_plan + j];
      REQUIRE(p.api == 1);
      REQUIRE(p.fleet.bursts == 1);  // so in the lanes, not hour by hour
      REQUIRE(p.venue_count == 0);
      for (long k = 0; k < 4; ++k) {
        CAPTURE(j);
        CAPTURE(k);
        const SweepPathResult device = sweep_plan_path(pt, p, run.chunk.data.data(), static_cast<std::uint32_t>(k),
                                                       scratch.data());
        const double tokens = run.values.tokens_served[run.values.index(pt, k, j)];
        if (!drawn) {
          CHECK(tokens == det.tokens[j].figures.tokens_served);
          CHECK(device.tokens_served == det.tokens[j].figures.tokens_served);
        }
        CHECK(relative(tokens, device.tokens_served) <= 1e-12);
        CHECK(relative(run.total(j, k), device.total_usd) <= 1e-12);
        CHECK(relative(run.npv(j, k), device.npv_usd) <= 1e-12);
      }
    }
    // 74,074,073.46 tokens an hour served by the api plan (its limit), a fraction of the demand.
    if (!drawn)
      CHECK(det.tokens[kApiPlan].figures.tokens_served == doctest::Approx(1234567.891 * 60.0 * kHours).epsilon(1e-12));
  }
}

TEST_CASE("property: higher drawn demand never lowers the API bill") {
  // Over 12 variants (rate limit none, 10M or 5M tokens a minute; cached share 0 or 0.2; the api
  // plan or the hybrid), the hourly model's API bill at 9 growth rates from -50 % to +100 % a year
  // (lambda = ln(1 + g) / 8,760), and the kernel's api plan over 64 paths sorted by their draw.
  const std::vector<double> growth = {-0.5, -0.3, -0.1, -0.01, 0.0, 0.01, 0.1, 0.5, 1.0};
  int variants = 0;
  for (const double limit : {0.0, 1e7, 5e6}) {
    for (const double cached : {0.0, 0.2}) {
      Json doc = api_fixture();
      if (limit > 0.0) doc["api"]["rate_limit_tokens_per_minute"] = limit;
      doc["api"]["cached_input_share"] = cached;
      const Scenario s = load_api(doc);
      const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
      for (int j : {kApiPlan, kHybridPlan}) {
        CAPTURE(limit);
        CAPTURE(cached);
        CAPTURE(j);
        ++variants;
        double before = -1.0;
        for (double g : growth) {
          EvaluationOptions options;
          options.demand_growth_lambda_per_h = std::log1p(g) / kHours;
          const double bill = evaluate_plan(s, s.plans[j], demand, options).ledger.category_total_usd(Category::api);
          CAPTURE(g);
          CHECK(bill >= before);
          before = bill;
        }
      }
      if (limit == 1e7 && cached == 0.2) {
        doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.3;
        const Scenario drawn = load_api(doc);
        const OnePointRun run = run_one_point(drawn, 3, 64, 2);
        std::vector<std::pair<double, double>> by_lambda;  // (lambda, the api plan's bill)
        for (long k = 0; k < 64; ++k)
          by_lambda.emplace_back(sweep_growth_lambda_per_h(run.chunk.points[0], static_cast<std::uint32_t>(k)),
                                 run.total(kApiPlan, k));
        std::sort(by_lambda.begin(), by_lambda.end());
        for (std::size_t i = 1; i < by_lambda.size(); ++i) CHECK(by_lambda[i].second >= by_lambda[i - 1].second);
        CHECK(by_lambda.back().second > by_lambda.front().second);
      }
    }
  }
  CHECK(variants == 12);
}

TEST_CASE("api path draws: the API's tokens carry no egress, in the hourly model and the sweep kernel alike") {
  // Egress 10 GB a cloud GPU-hour at $0.05 a GB = $0.50 a reference GPU-hour (perf 1). The hybrid
  // sends 653 GPUs' worth of tokens an hour to the API: no egress on them (before, the kernel billed
  // 653.09 x 8,760 x $0.50 = $2.86M a year on every path; the hourly model $0). With 10 reserved
  // instances (80 GPUs, always busy) the rented fleet's work is billed: 80 x 8,760 x $0.50 = $350,400.00.
  Json doc = api_fixture();
  doc["cloud"]["egress_gb_per_gpu_hour"] = 10.0;
  doc["cloud"]["egress_usd_per_gb"] = 0.05;
  for (const int reserved : {0, 10}) {
    CAPTURE(reserved);
    if (reserved > 0) doc["plans"][kHybridPlan]["reserved_instances"] = reserved;
    const Scenario s = load_api(doc);
    const ScenarioRun det = run_deterministic(s);
    const double egress_usd = reserved > 0 ? 80.0 * kHours * 0.5 : 0.0;
    CHECK(std::fabs(det.plans[kHybridPlan].ledger.category_total_usd(Category::egress) - egress_usd) < 0.005);
    CHECK(det.plans[kApiPlan].ledger.category_total_usd(Category::egress) == 0.0);
    const OnePointRun run = run_one_point(s, 7, 2, 1);
    for (long k = 0; k < 2; ++k) {
      CHECK(relative(run.total(kHybridPlan, k), det.plans[kHybridPlan].total_usd) <= 1e-12);
      CHECK(run.total(kApiPlan, k) == det.plans[kApiPlan].total_usd);
    }
  }
}

}  // namespace tco::test
