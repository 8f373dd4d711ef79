// The API as a plan (models/api/, engine/ledger/api_booking.hpp) and the self-host-vs-API
// breakeven (engine/ledger/api_breakeven.hpp), on tests/fixtures/scenarios/api.json: the token
// demand of tokens.json (100 requests/s of 2,000 input + 400 output tokens = 864M tokens an hour,
// 8,760 hours) bought at $0.50 / $2.00 per million input / output tokens, a fifth of the input
// cached at $0.125. Per hour: input 720M, of which cached 144M; output 144M:
//   576 x 0.50 + 144 x 0.125 + 144 x 2.00 = 288 + 18 + 288 = $594 (blended $0.6875 per million).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/api_breakeven.hpp"
#include "engine/scenario_run.hpp"
#include "models/api/api_bill.hpp"
#include "models/scenario.hpp"
#include "cli_test_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

Json api_fixture() { return read_json_file(source_path("tests/fixtures/scenarios/api.json")); }

Scenario load_api_fixture(const Json& doc) {
  return load_scenario_json(doc, "api.json", source_path("tests/fixtures/scenarios"), source_path("tests/fixtures/catalog"));
}

std::size_t api_plan_index(const Scenario& s, const std::string& name) {
  for (std::size_t i = 0; i < s.plans.size(); ++i)
    if (s.plans[i].name == name) return i;
  FAIL("no plan " << name);
  return 0;
}

std::string write_api_scenario(const std::filesystem::path& dir, const std::string& name, const Json& scenario) {
  const std::string path = (dir / name).string();
  std::ofstream(path) << scenario.dump(2);
  return path;
}

}  // namespace

TEST_CASE("api bill: one hour's tokens x its prices, split as the requests are") {
  ApiSpec api;
  api.usd_per_million_input_tokens = 0.5;
  api.usd_per_million_output_tokens = 2.0;
  api.usd_per_million_cached_input_tokens = 0.5;
  // 1.2M tokens at input share 5/6: 1M input x $0.50 / 1e6 + 0.2M output x $2.00 / 1e6 = $0.90.
  const ApiHourBill b = api_hour_bill(api, 1.2e6, 5.0 / 6.0, 0);
  CHECK(b.usd == doctest::Approx(0.90).epsilon(1e-12));
  CHECK(b.input_tokens == doctest::Approx(1e6).epsilon(1e-12));
  CHECK(b.unserved_tokens == 0.0);
  // A rate limit of 10,000 tokens a minute takes 600,000 in the hour: half the bill, 600,000 unserved.
  api.rate_limit_tokens_per_minute = 1e4;
  const ApiHourBill limited = api_hour_bill(api, 1.2e6, 5.0 / 6.0, 0);
  CHECK(limited.usd == doctest::Approx(0.45).epsilon(1e-12));
  CHECK(limited.unserved_tokens == doctest::Approx(6e5).epsilon(1e-12));
}

TEST_CASE("api plan: the bill is tokens x price to the cent, and a hybrid plan's overflow goes to the API") {
  const Scenario s = load_api_fixture(api_fixture());
  const ScenarioRun run = run_deterministic(s);
  const PlanResult& api = run.plans[api_plan_index(s, "api")];
  // $594 an hour x 8,760 hours = $5,203,440.00, all of it in the api category.
  CHECK(std::fabs(api.total_usd - 5203440.00) < 0.005);
  CHECK(std::fabs(api.ledger.category_total_usd(Category::api) - 5203440.00) < 0.005);
  REQUIRE(api.api);
  CHECK(api.api->tokens_taken() == doctest::Approx(864e6 * 8760).epsilon(1e-12));
  CHECK(api.api->cached_input_tokens == doctest::Approx(144e6 * 8760).epsilon(1e-12));
  CHECK(api.api->usd_per_million_tokens.value() == doctest::Approx(0.6875).epsilon(1e-12));
  CHECK(api.gpu_hours.on_demand_billed == 0.0);  // the fluid model's placeholder cloud bills nothing

  // buy-82-api owns 82 nodes x 8 GPUs = 656 GPUs; a reference GPU-hour serves 183.33 tokens/s x
  // 3,600 = 660,000 tokens (tests/test_token_demand.cpp), so the fleet serves 432.96M of the 864M
  // tokens an hour and the API 431.04M: 431.04 x 0.6875 = $296.34 an hour, x 8,760 = $2,595,938.40.
  const PlanResult& hybrid = run.plans[api_plan_index(s, "buy-82-api")];
  REQUIRE(hybrid.api);
  CHECK(std::fabs(hybrid.ledger.category_total_usd(Category::api) - 2595938.40) < 0.005);
  CHECK(hybrid.api->tokens_sent == doctest::Approx(431.04e6 * 8760).epsilon(1e-12));
  // Its tokens per facility MWh count the fleet's tokens only, not the API's: 82 nodes, all busy, at
  // 10 kW x PUE 1.5 = 1,230 kW: 432.96M tokens an hour / 1.23 MWh = 352,000,000 tokens per MWh
  // (with the API's 431.04M counted as the fleet's it read 864M / 1.23 = 702,439,024), and
  // 432.96e6 / 3,600 s / 1.23 MW = 97,777.78 tokens/s per MW.
  const PlanTokens& hybrid_tokens = run.tokens.at(api_plan_index(s, "buy-82-api"));
  REQUIRE(hybrid_tokens.tokens_per_facility_mwh);
  CHECK(*hybrid_tokens.tokens_per_facility_mwh == doctest::Approx(432.96e6 / 1.23).epsilon(1e-12));
  CHECK(*hybrid_tokens.tokens_per_s_per_peak_facility_mw == doctest::Approx(432.96e6 / 3600.0 / 1.23).epsilon(1e-12));
  // The plans that buy no tokens have no api cost.
  CHECK(run.plans[api_plan_index(s, "cloud")].ledger.category_total_usd(Category::api) == 0.0);
}

TEST_CASE("api plan: a measured token series is billed hour by hour at its own input share") {
  // The fixture's request rate replaced by a series of two hours, tiled: hour 0 has 4M input + 1M
  // output tokens (input share 0.8), hour 1 2M input + 8M output (0.2). At $0.50 / $2.00 per
  // million, a fifth of the input cached at $0.125:
  //   hour 0: 3.2 x 0.50 + 0.8 x 0.125 + 1 x 2.00 = 1.60 + 0.10 + 2.00 = $3.70
  //   hour 1: 1.6 x 0.50 + 0.4 x 0.125 + 8 x 2.00 = 0.80 + 0.05 + 16.00 = $16.85
  // 4,380 pairs of hours: $20.55 x 4,380 = $90,009.00. The list price is the series' blend:
  // input share 6 / 15 = 0.4: 0.4 x (0.8 x 0.50 + 0.2 x 0.125) + 0.6 x 2.00 = $1.37 per million.
  // (With no per-request token counts, the share was 0 / 0: a NaN in the bill and breakevens.)
  const auto dir = scratch_dir("api_series");
  std::ofstream(dir / "tokens.csv") << "time_h,requests,input_tokens,output_tokens\n0,10,4000000,1000000\n"
                                       "1,10,2000000,8000000\n";
  Json doc = api_fixture();
  Json& tokens = doc["workload"]["tokens"];
  for (const char* key : {"requests_per_second", "input_tokens_per_request", "output_tokens_per_request"})
    tokens.erase(key);
  tokens["series"] = {{"file", "tokens.csv"}};
  const Scenario s = load_scenario_json(doc, "api.json", dir.string(), source_path("tests/fixtures/catalog"));
  const ScenarioRun run = run_deterministic(s);
  const PlanResult& api = run.plans[api_plan_index(s, "api")];
  CHECK(std::fabs(api.ledger.category_total_usd(Category::api) - 90009.00) < 0.005);
  REQUIRE(api.api);
  CHECK(api.api->list_usd_per_million_tokens == doctest::Approx(1.37).epsilon(1e-12));
  REQUIRE_FALSE(run.api_breakevens.empty());
  for (const ApiBreakeven& b : run.api_breakevens) {
    CHECK(std::isfinite(b.api_list_usd_per_million_tokens));
    for (const ApiBreakevenAt& at : b.by_price_change)
      if (at.usd_per_million_tokens) CHECK(std::isfinite(*at.usd_per_million_tokens));
  }
}

TEST_CASE("api plan: a dated schedule, a yearly decline and a rate limit move the bill as written") {
  Json doc = api_fixture();
  // Half price from 2026-07-05, 181 days after the 2026-01-05 start (t = 4,344 h), step:
  // 594 x (4,344 + 0.5 x 4,416) = 594 x 6,552 = $3,891,888.
  doc["api"]["price_schedule"] = {{"points", {{{"date", "2026-01-05"}, {"factor", 1.0}}, {{"date", "2026-07-05"}, {"factor", 0.5}}}}};
  const Scenario scheduled = load_api_fixture(doc);
  CHECK(std::fabs(run_deterministic(scheduled).plans[api_plan_index(scheduled, "api")].total_usd - 3891888.0) < 0.005);

  // -30% a year by the hour: 594 x sum_h q^h, q = 0.7^(1/8,760), = 594 x (1 - 0.7) / (1 - q).
  doc = api_fixture();
  doc["api"]["price_change_per_year"] = -0.3;
  const Scenario declining = load_api_fixture(doc);
  const double q = std::pow(0.7, 1.0 / 8760.0);
  CHECK(run_deterministic(declining).plans[api_plan_index(declining, "api")].total_usd ==
        doctest::Approx(594.0 * (1.0 - 0.7) / (1.0 - q)).epsilon(1e-9));

  // 10M tokens a minute = 600M an hour of the 864M: 600 x 0.6875 = $412.50 an hour, x 8,760 =
  // $3,613,500.00; 264M an hour unserved.
  doc = api_fixture();
  doc["api"]["rate_limit_tokens_per_minute"] = 1e7;
  const Scenario limited = load_api_fixture(doc);
  const PlanResult r = run_deterministic(limited).plans[api_plan_index(limited, "api")];
  CHECK(std::fabs(r.total_usd - 3613500.00) < 0.005);
  CHECK(r.api->unserved_tokens == doctest::Approx(264e6 * 8760).epsilon(1e-12));
}

TEST_CASE("self-host vs API breakeven: the closed form, on the docs' example and on the fixture") {
  // docs/tokens.md §7: F = $1M, V = $0.2M, A = $0.7M at 1.2e9 tokens a day: k* = 1 / 0.5 = 2, so
  // 2.4e9 tokens a day; price (1.2 / 0.7) x $0.75 = $1.285714 per million.
  const ApiBreakevenAt example = api_breakeven_at(1e6, 2e5, 7e5, 1.2e9, 0.75);
  CHECK(example.daily_tokens.value() == doctest::Approx(2.4e9).epsilon(1e-12));
  CHECK(example.usd_per_million_tokens.value() == doctest::Approx(1.2 / 0.7 * 0.75).epsilon(1e-12));
  // The API dearer per unit of volume than the plan's own variable costs never wins back F... and
  // an API cheaper than V at every volume: no breakeven volume.
  CHECK_FALSE(api_breakeven_at(1e6, 8e5, 7e5, 1.2e9, 0.75).daily_tokens);

  Json doc = api_fixture();
  doc["api"]["price_change_per_year"] = -0.3;
  const Scenario s = load_api_fixture(doc);
  const ScenarioRun run = run_deterministic(s);
  const PlanResult& owned = run.plans[api_plan_index(s, "buy-164")];
  const ApiBreakeven* b = nullptr;
  for (const ApiBreakeven& x : run.api_breakevens)
    if (x.plan == "buy-164") b = &x;
  REQUIRE(b != nullptr);
  CHECK(b->api_plan == "api");
  // Only the plans that own or rent and buy no tokens: cloud and buy-164 (not api, not buy-82-api).
  CHECK(run.api_breakevens.size() == 2);
  // 864M tokens an hour x 24 = 20.736e9 tokens a day.
  CHECK(b->scenario_daily_tokens == doctest::Approx(20.736e9).epsilon(1e-12));
  CHECK(b->plan_fixed_npv_usd + b->plan_variable_npv_usd == doctest::Approx(owned.npv_usd).epsilon(1e-12));
  CHECK(b->api_list_usd_per_million_tokens == doctest::Approx(0.6875).epsilon(1e-12));
  // Price changes 0, -30% (the scenario's) and -60%; A at 0 is $5,203,440 (undiscounted: rate 0).
  REQUIRE(b->by_price_change.size() == 3);
  CHECK(b->by_price_change[0].price_change_per_year == 0.0);
  CHECK(b->by_price_change[1].price_change_per_year == -0.3);
  CHECK(b->by_price_change[2].price_change_per_year == -0.6);
  CHECK(b->by_price_change[0].api_npv_usd == doctest::Approx(5203440.0).epsilon(1e-12));
  const double q6 = std::pow(0.4, 1.0 / 8760.0);
  CHECK(b->by_price_change[2].api_npv_usd == doctest::Approx(594.0 * (1.0 - 0.4) / (1.0 - q6)).epsilon(1e-9));
  for (const ApiBreakevenAt& at : b->by_price_change) {
    const double f = b->plan_fixed_npv_usd, v = b->plan_variable_npv_usd, a = at.api_npv_usd;
    REQUIRE(at.daily_tokens);
    CHECK(*at.daily_tokens == doctest::Approx(f / (a - v) * 20.736e9).epsilon(1e-12));
    CHECK(*at.usd_per_million_tokens == doctest::Approx((f + v) / a * 0.6875).epsilon(1e-12));
  }
  // A steeper decline makes the API cheaper: the volume at which owning pays rises.
  CHECK(*b->by_price_change[2].daily_tokens > *b->by_price_change[1].daily_tokens);
  CHECK(*b->by_price_change[1].daily_tokens > *b->by_price_change[0].daily_tokens);
}

TEST_CASE("property: with the API's prices x 1e6 the verdict never picks the API, over 24 generated scenarios") {
  std::mt19937_64 rng(46);
  const auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  int api_chosen_at_list_price = 0;
  for (int i = 0; i < 24; ++i) {
    Json doc = api_fixture();
    doc["horizon_months"] = 3;
    doc["workload"]["tokens"]["requests_per_second"]["profiles"][0]["requests_per_second"] = uniform(5.0, 200.0);
    const int nodes = 1 + static_cast<int>(uniform(0.0, 200.0));
    doc["plans"][1]["onprem_nodes"] = nodes;
    doc["plans"][1]["name"] = "buy";
    doc["plans"][3]["onprem_nodes"] = 1 + nodes / 2;
    doc["plans"][3]["name"] = "buy-api";
    const double input = uniform(0.01, 5.0), output = uniform(0.01, 20.0);
    doc["api"]["usd_per_million_input_tokens"] = input;
    doc["api"]["usd_per_million_output_tokens"] = output;
    doc["api"]["usd_per_million_cached_input_tokens"] = input / 4.0;
    doc["api"]["price_change_per_year"] = uniform(-0.5, 0.0);
    INFO("scenario " << i << ": " << doc.dump());
    {
      const Scenario s = load_api_fixture(doc);
      const ScenarioRun run = run_deterministic(s);
      api_chosen_at_list_price += s.plans[run.recommendation.plan].kind == Plan::Kind::api ? 1 : 0;
    }
    for (const char* key : {"usd_per_million_input_tokens", "usd_per_million_output_tokens", "usd_per_million_cached_input_tokens"})
      doc["api"][key] = doc["api"][key].get<double>() * 1e6 > 1e5 ? 1e5 : doc["api"][key].get<double>() * 1e6;
    const Scenario s = load_api_fixture(doc);
    const ScenarioRun run = run_deterministic(s);
    const std::size_t chosen = run.recommendation.plan;
    CHECK(s.plans[chosen].kind != Plan::Kind::api);
    // A hybrid plan may be chosen only where its fleet served every token (no API bill).
    if (s.plans[chosen].uses_api()) CHECK(run.plans[chosen].ledger.category_total_usd(Category::api) == 0.0);
  }
  // Not vacuous: at their list prices (cents per million tokens) the API wins some of them.
  CHECK(api_chosen_at_list_price > 0);
}

TEST_CASE("api plan: bad input is exit 2 naming the JSON pointer, in validate and run alike") {
  const auto dir = scratch_dir("api_plan_bad");
  const std::string catalog = source_path("tests/fixtures/catalog");
  struct Bad {
    std::string what;
    Json doc;
    std::string pointer;
  };
  std::vector<Bad> cases;
  Json negative = api_fixture();
  negative["api"]["usd_per_million_input_tokens"] = -0.5;
  cases.push_back({"a negative price", negative, "/api/usd_per_million_input_tokens"});
  Json undated = api_fixture();
  undated["api"].erase("as_of");
  cases.push_back({"no as_of", undated, "/api/as_of"});
  Json zero_limit = api_fixture();
  zero_limit["api"]["rate_limit_tokens_per_minute"] = 0;
  cases.push_back({"a rate limit of 0", zero_limit, "/api/rate_limit_tokens_per_minute"});
  Json no_tokens = api_fixture();
  no_tokens["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 64}}}}};
  cases.push_back({"an api plan without tokens", no_tokens, "/workload/tokens"});
  Json no_api = api_fixture();
  no_api.erase("api");
  cases.push_back({"an api plan without an api section", no_api, "/plans/2/api"});
  Json overflow_cloud = api_fixture();
  overflow_cloud["plans"][0]["overflow_to"] = "api";
  cases.push_back({"overflow_to in a cloud plan", overflow_cloud, "/plans/0/overflow_to"});
  for (const Bad& c : cases) {
    const std::string path = write_api_scenario(dir, "bad.json", c.doc);
    for (const char* command : {"validate", "run"}) {
      std::vector<std::string> args = {command, path, "--catalog", catalog};
      if (std::string(command) == "run") args.insert(args.end(), {"--out", (dir / "bad-report.json").string()});
      const CliResult r = run_cli(args);
      INFO(c.what << ", " << command << ": " << r.out << r.err);
      CHECK(r.exit_code == 2);
      CHECK(contains(r.out + r.err, c.pointer));
    }
    CHECK_FALSE(std::filesystem::exists(dir / "bad-report.json"));
  }
}

TEST_CASE("api plan: its prices are dated as catalog records are, and may be uncertain") {
  Json doc = api_fixture();
  doc["api"]["as_of"] = "2024-06-01";  // 583 days before the 2026-01-05 start
  const Scenario stale = load_api_fixture(doc);
  bool warned = false;
  for (const Finding& f : stale.warnings)
    warned = warned || (f.code == "catalog-stale" && f.where == "api_price:test/api-model");
  CHECK(warned);
  bool listed = false;
  for (const Provenance& p : stale.records_used) listed = listed || (p.kind == "api_price" && p.as_of == "2024-06-01");
  CHECK(listed);

  doc = api_fixture();
  doc["uncertain"] = {{"inputs", {{{"name", "API output price"},
                                   {"pointer", "/api/usd_per_million_output_tokens"},
                                   {"distribution", {{"type", "uniform"}, {"low", 1.0}, {"high", 3.0}}}}}}};
  const Scenario uncertain = load_api_fixture(doc);
  REQUIRE(uncertain.uncertain);
  CHECK(uncertain.uncertain->inputs[0].base == 2.0);
}

}  // namespace tco::test
