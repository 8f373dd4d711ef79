// An API's rate-limited tokens bursting to a venue list (issue 46 item 4; engine/ledger/api_booking.hpp,
// docs/tokens.md §7, docs/model.md §3b), on tests/fixtures/scenarios/api.json: 864M tokens an hour
// (100 requests/s x 2,400 tokens x 3,600), 5/6 of them input, at $0.50 / $2.00 per million input /
// output, a fifth of the input cached at $0.125: $0.6875 per million blended. A reference GPU-hour
// (ref-gpu, perf 1) serves 183.33 tokens/s x 3,600 = 660,000 tokens at the fixture's slo. The
// fixture catalog's test/gpu8/region-a rents 8 ref-gpus at $16 an hour, test/gpu1/region-a one at $2.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "engine/scenario_run.hpp"
#include "models/scenario.hpp"
#include "models/workload/workload.hpp"
#include "test_support.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

namespace {

Json api_venue_fixture() { return read_json_file(source_path("tests/fixtures/scenarios/api.json")); }

Scenario load_api_venues(const Json& doc) {
  return load_scenario_json(doc, "api.json", source_path("tests/fixtures/scenarios"),
                            source_path("tests/fixtures/catalog"));
}

// The API limited to 10M tokens a minute = 600M an hour; the api plan bursts the rest (264M an
// hour) to `venues`, its first the next venue.
Json limited_api_plan(const Json& venues) {
  Json doc = api_venue_fixture();
  doc["api"]["rate_limit_tokens_per_minute"] = 1e7;
  doc["plans"][2]["venues"] = venues;
  doc["plans"][2]["api_next_venue"] = venues[0]["name"];
  return doc;
}

const PlanResult& plan_named(const Scenario& s, const ScenarioRun& run, const std::string& name) {
  for (std::size_t i = 0; i < s.plans.size(); ++i)
    if (s.plans[i].name == name) return run.plans[i];
  FAIL("no plan " << name);
  return run.plans[0];
}

std::string slurp_api_venues(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const PlanTokens& tokens_of(const Scenario& s, const ScenarioRun& run, const std::string& name) {
  for (std::size_t i = 0; i < s.plans.size(); ++i)
    if (s.plans[i].name == name) return run.tokens[i];
  FAIL("no plan " << name);
  return run.tokens[0];
}

}  // namespace

TEST_CASE("api venues: the tokens above the rate limit rent GPU-hours at the next venue, to the cent") {
  // 864M - 60 x 10M = 264M tokens an hour over the limit; 264M / 660,000 = 400 ref-gpu GPU-hours =
  // 50 instances of 8 at $16 = $800 an hour, x 8,760 = $7,008,000.00. The API takes 600M an hour:
  // 600 x 0.6875 = $412.50, x 8,760 = $3,613,500.00. Every token served: $/M = (3,613,500 +
  // 7,008,000) / (864 x 8,760) = 10,621,500 / 7,568,640 = $1.403352...
  const Scenario s = load_api_venues(
      limited_api_plan(Json::array({{{"name", "rented"}, {"offer", "test/gpu8/region-a"}}})));
  const ScenarioRun run = run_deterministic(s);
  const PlanResult& r = plan_named(s, run, "api");
  REQUIRE(r.api);
  CHECK(std::fabs(r.ledger.category_total_usd(Category::api) - 3613500.00) < 0.005);
  CHECK(std::fabs(r.ledger.category_total_usd(Category::cloud_on_demand) - 7008000.00) < 0.005);
  CHECK(std::fabs(r.total_usd - 10621500.00) < 0.005);
  CHECK(r.api->bursts_to_venues);
  CHECK(r.api->next_venue == "rented");
  CHECK(r.api->tokens_over_rate_limit == doctest::Approx(264e6 * 8760).epsilon(1e-12));
  CHECK(r.api->venue_tokens == doctest::Approx(264e6 * 8760).epsilon(1e-12));
  CHECK(r.api->unserved_tokens == 0.0);
  CHECK(r.api->venue_usd == doctest::Approx(7008000.0).epsilon(1e-12));
  // 400 GPUs billed an hour on-demand; work 400 reference GPU-hours an hour, in cloud work.
  CHECK(r.gpu_hours.on_demand_billed == doctest::Approx(400.0 * 8760).epsilon(1e-12));
  CHECK(r.gpu_hours.cloud_work == doctest::Approx(400.0 * 8760).epsilon(1e-12));
  REQUIRE(r.venues.size() == 1);
  CHECK(r.venues[0].totals.instance_hours == doctest::Approx(50.0 * 8760).epsilon(1e-12));
  const PlanTokens& t = tokens_of(s, run, "api");
  CHECK(t.figures.tokens_served == doctest::Approx(864e6 * 8760).epsilon(1e-12));
  CHECK(t.figures.tokens_unserved == doctest::Approx(0.0));
  CHECK(t.figures.reservation.value().blended ==
        doctest::Approx(10621500.0 / 7568640.0).epsilon(1e-12));
}

TEST_CASE("api venues: a capped venue, then the next, then what the last cannot take is unserved") {
  // The next venue capped at 200 GPUs (25 instances, $400 an hour) serves 200 x 660,000 = 132M
  // tokens an hour; without another venue the other 132M an hour are unserved:
  //   bill (412.50 + 400) x 8,760 = $7,117,500.00; served (864 - 132) x 8,760 = 6,412.32 bn tokens;
  //   $/M = 7,117,500 / 6,412,320 = $1.109972...
  const Json capped = {{"name", "capped"}, {"offer", "test/gpu8/region-a"}, {"quota_gpus", 200}};
  Scenario s = load_api_venues(limited_api_plan(Json::array({capped})));
  ScenarioRun run = run_deterministic(s);
  const PlanResult& r = plan_named(s, run, "api");
  CHECK(std::fabs(r.total_usd - 7117500.00) < 0.005);
  CHECK(r.api->venue_tokens == doctest::Approx(132e6 * 8760).epsilon(1e-12));
  CHECK(r.api->unserved_tokens == doctest::Approx(132e6 * 8760).epsilon(1e-12));
  const PlanTokens& t = tokens_of(s, run, "api");
  CHECK(t.figures.tokens_served == doctest::Approx(732e6 * 8760).epsilon(1e-12));
  CHECK(t.figures.tokens_unserved == doctest::Approx(132e6 * 8760).epsilon(1e-12));
  CHECK(t.figures.reservation.value().blended == doctest::Approx(7117500.0 / 6412320.0).epsilon(1e-12));

  // A second venue of 1-GPU instances at $2 takes the other 200 GPUs: +$400 an hour, all served.
  const Json single = {{"name", "single"}, {"offer", "test/gpu1/region-a"}};
  s = load_api_venues(limited_api_plan(Json::array({capped, single})));
  run = run_deterministic(s);
  const PlanResult& both = plan_named(s, run, "api");
  CHECK(std::fabs(both.total_usd - (412.5 + 400.0 + 400.0) * 8760) < 0.005);
  CHECK(both.api->unserved_tokens == 0.0);
  REQUIRE(both.venues.size() == 2);
  CHECK(both.venues[1].totals.billed_gpu_hours == doctest::Approx(200.0 * 8760).epsilon(1e-12));

  // Without a next venue the 264M an hour above the limit are unserved, and $/M counts tokens
  // served: 3,613,500 / (600 x 8,760) = $0.6875.
  Json doc = api_venue_fixture();
  doc["api"]["rate_limit_tokens_per_minute"] = 1e7;
  s = load_api_venues(doc);
  run = run_deterministic(s);
  CHECK(plan_named(s, run, "api").api->unserved_tokens == doctest::Approx(264e6 * 8760).epsilon(1e-12));
  CHECK_FALSE(plan_named(s, run, "api").api->bursts_to_venues);
  CHECK(tokens_of(s, run, "api").figures.reservation.value().blended ==
        doctest::Approx(0.6875).epsilon(1e-12));
}

TEST_CASE("api venues: a hybrid plan's fleet, then the API to its limit, then the venue") {
  // buy-82-api owns 656 GPUs: 656 x 660,000 = 432.96M tokens an hour, 431.04M to the API. A limit of
  // 5M a minute (300M an hour) leaves 131.04M: 131.04M / 660,000 = 198.5454... GPUs -> c(24.818) =
  // 25 instances = $400 an hour. API 300 x 0.6875 = $206.25 an hour.
  Json doc = api_venue_fixture();
  doc["api"]["rate_limit_tokens_per_minute"] = 5e6;
  doc["plans"][3]["venues"] = Json::array({{{"name", "rented"}, {"offer", "test/gpu8/region-a"}}});
  doc["plans"][3]["api_next_venue"] = "rented";
  const Scenario s = load_api_venues(doc);
  const ScenarioRun run = run_deterministic(s);
  const PlanResult& r = plan_named(s, run, "buy-82-api");
  CHECK(std::fabs(r.ledger.category_total_usd(Category::api) - 206.25 * 8760) < 0.005);
  CHECK(std::fabs(r.ledger.category_total_usd(Category::cloud_on_demand) - 400.0 * 8760) < 0.005);
  CHECK(r.api->tokens_over_rate_limit == doctest::Approx(131.04e6 * 8760).epsilon(1e-12));
  CHECK(r.api->unserved_tokens == 0.0);
}

// One month, the next venue (capped at 200 GPUs, availability 0.6, a 1-hour start) then a sure,
// uncapped venue of 1-GPU instances. Per hour, 400 GPUs over the limit:
//   capacity (p 0.6): 25 instances ($400) + 200 x $2 ($400); none (p 0.4): 400 x $2 ($800): $800;
//   launches E[max(0, n - n')] = 0.6 x 0.4 x 25 = 6 instances x 1 h x $16 = $96 (hour 0: 0.6 x 25 =
//   15, $240). Month: 730 x 800 + 729 x 96 + 240 = $654,224.00; the API 730 x $412.50 = $301,125.00.
Json one_month_drawn() {
  Json doc = limited_api_plan(Json::array(
      {{{"name", "neocloud"}, {"offer", "test/gpu8/region-a"}, {"quota_gpus", 200}, {"availability", 0.6},
        {"provisioning_delay_h", 1.0}},
       {{"name", "single"}, {"offer", "test/gpu1/region-a"}}}));
  doc["horizon_months"] = 1;
  return doc;
}

TEST_CASE("api venues: the deterministic run is the expectation over the venues' availability") {
  const Scenario s = load_api_venues(one_month_drawn());
  const ScenarioRun run = run_deterministic(s);
  const PlanResult& r = plan_named(s, run, "api");
  CHECK(std::fabs(r.ledger.category_total_usd(Category::cloud_on_demand) - 654224.00) < 0.005);
  CHECK(std::fabs(r.total_usd - (654224.00 + 301125.00)) < 0.005);
  REQUIRE(r.venues.size() == 2);
  CHECK(r.venues[0].totals.launched_instances == doctest::Approx(15.0 + 6.0 * 729).epsilon(1e-12));
}

TEST_CASE("api venues: a sweep-kernel path is the stepper with its draws, and the mean within 4 standard errors") {
  // The neocloud at $10 an hour (an inline price), so that an hour with its capacity costs less
  // than one without and the paths' draws move the bill: capacity (p 0.6) 25 x $10 + 200 x $2 =
  // $650, none 400 x $2 = $800: E = $710 an hour; launches 6 x $10 = $60 ($150 in hour 0). Month:
  // 730 x 710 + 729 x 60 + 150 = $562,190.00, with the API's $301,125.00: $863,315.00.
  Json doc = one_month_drawn();
  doc["plans"][2]["venues"][0]["offer"] = {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", 10.0}};
  const Scenario s = load_api_venues(doc);
  constexpr std::uint64_t kSeed = 17;
  constexpr long kPaths = 4;
  const std::size_t api = 2;
  const OnePointRun run = run_one_point(s, kSeed, kPaths, 1);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  std::vector<double> scratch(static_cast<std::size_t>(run.chunk.max_failure_scratch) + 1);
  REQUIRE(run.chunk.plans[api].venue_count == 2);
  CHECK(run.chunk.plans[api].api == 1);
  std::vector<double> npv_by_path;
  for (long p = 0; p < kPaths; ++p) {
    EvaluationOptions options;
    options.venue_draws = VenueDrawKey{kSeed, static_cast<std::uint32_t>(p)};
    const PlanResult drawn = evaluate_plan(s, s.plans[api], demand, options);
    INFO("path " << p);
    CHECK(run.npv(static_cast<int>(api), p) == doctest::Approx(drawn.npv_usd).epsilon(1e-11));
    const SweepPathResult device_loop =
        sweep_plan_path(run.chunk.points[0], run.chunk.plans[api], run.chunk.data.data(), p, scratch.data());
    CHECK(device_loop.npv_usd == run.npv(static_cast<int>(api), p));
    npv_by_path.push_back(drawn.npv_usd);
  }
  CHECK(npv_by_path[0] != npv_by_path[1]);  // the draws move the venues' bill

  // The fluid Monte Carlo (the sweep kernel's CPU backend) over 400 paths: its mean NPV within 4
  // standard errors of the deterministic $863,315.00 (discount rate 0: NPV = the nominal cost).
  const ScenarioRun det = run_deterministic(s);
  CHECK(std::fabs(det.plans[api].npv_usd - 863315.00) < 0.005);
  const FluidMonteCarloRun mc = run_fluid_monte_carlo(s, 400, 5, 1);
  const Summary& npv = mc.plans[api].npv_usd;
  INFO("mean " << npv.mean << " stderr " << npv.stderr_);
  CHECK(npv.stderr_ > 0.0);
  CHECK(std::fabs(npv.mean - det.plans[api].npv_usd) < 4.0 * npv.stderr_);
}

TEST_CASE("api venues: bad input is exit 2 naming the JSON pointer, in validate and run alike") {
  const auto dir = scratch_dir("api_venues_bad");
  const std::string catalog = source_path("tests/fixtures/catalog");
  const Json rented = {{"name", "rented"}, {"offer", "test/gpu8/region-a"}};
  const Json other = {{"name", "other"}, {"offer", "test/gpu1/region-a"}};
  struct Bad {
    std::string what;
    Json doc;
    std::string pointer;
    std::string words;
  };
  std::vector<Bad> cases;
  Json unknown = limited_api_plan(Json::array({rented}));
  unknown["plans"][2]["api_next_venue"] = "nowhere";
  cases.push_back({"an unknown next venue", unknown, "/plans/2/api_next_venue", "\"rented\""});
  Json second = limited_api_plan(Json::array({rented, other}));
  second["plans"][2]["api_next_venue"] = "other";
  cases.push_back({"a next venue not first", second, "/plans/2/api_next_venue", "first venue"});
  Json no_limit = limited_api_plan(Json::array({rented}));
  no_limit["api"].erase("rate_limit_tokens_per_minute");
  cases.push_back({"no rate limit", no_limit, "/plans/2/api_next_venue", "rate_limit_tokens_per_minute"});
  Json negative = limited_api_plan(Json::array({rented}));
  negative["api"]["rate_limit_tokens_per_minute"] = -5;
  cases.push_back({"a negative limit", negative, "/api/rate_limit_tokens_per_minute", "-5"});
  Json no_next = limited_api_plan(Json::array({rented}));
  no_next["plans"][2].erase("api_next_venue");
  cases.push_back({"venues without a next venue", no_next, "/plans/2/venues", "api_next_venue"});
  Json no_venues = limited_api_plan(Json::array({rented}));
  no_venues["plans"][2].erase("venues");
  cases.push_back({"a next venue without venues", no_venues, "/plans/2/api_next_venue", "venues"});
  Json not_api = limited_api_plan(Json::array({rented}));
  not_api["plans"][0]["api_next_venue"] = "rented";
  cases.push_back({"a next venue in a plan that buys no tokens", not_api, "/plans/0/api_next_venue", "buys no tokens"});
  for (const Bad& c : cases) {
    const std::string path = (dir / "bad.json").string();
    std::ofstream(path) << c.doc.dump(2);
    for (const char* command : {"validate", "run"}) {
      std::vector<std::string> args = {command, path, "--catalog", catalog};
      if (std::string(command) == "run") args.insert(args.end(), {"--out", (dir / "bad-report.json").string()});
      const CliResult r = run_cli(args);
      INFO(c.what << ", " << command << ": " << r.out << r.err);
      CHECK(r.exit_code == 2);
      CHECK(contains(r.out + r.err, c.pointer));
      CHECK(contains(r.out + r.err, c.words));
    }
    CHECK_FALSE(std::filesystem::exists(dir / "bad-report.json"));
  }
}

TEST_CASE("api venues: the report's JSON, Markdown, HTML, terminal, CSV and workbook show the tokens over the limit") {
  // tests/fixtures/scenarios/api_venues.json: api-then-rent as one_month_drawn() over 8,760 hours:
  // venues 8,760 x 800 + 8,759 x 96 + 240 = $7,849,104.00; 264M x 8,760 = 2,312.64 bn tokens over the
  // limit, all served (the last venue is sure and uncapped). The plan api leaves them unserved.
  const auto dir = scratch_dir("api_venues_report");
  Json doc = read_json_file(source_path("tests/fixtures/scenarios/api_venues.json"));
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  const auto path = dir / "api_venues.json";
  std::ofstream(path) << doc.dump(2);
  const CliResult r = run_cli({"run", path.string(), "--out", (dir / "r.json").string(), "--md",
                               (dir / "s.md").string(), "--html", (dir / "r.html").string(), "--csv",
                               (dir / "csv").string(), "--xlsx", (dir / "r.xlsx").string(), "--today",
                               "2026-01-05"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file((dir / "r.json").string());
  const Json& rent = report.at("plans").at(2);
  const Json& api = rent.at("api");
  CHECK(api.at("next_venue") == "neocloud");
  CHECK(api.at("tokens_over_rate_limit").get<double>() == doctest::Approx(264e6 * 8760).epsilon(1e-12));
  CHECK(api.at("venue_tokens").get<double>() == doctest::Approx(264e6 * 8760).epsilon(1e-12));
  CHECK(api.at("unserved_tokens").get<double>() == 0.0);
  CHECK(std::fabs(api.at("venue_usd").get<double>() - 7849104.00) < 0.005);
  CHECK(rent.at("venues").at("list").size() == 2);
  CHECK(std::fabs(rent.at("venues").at("list").at(0).at("launched_instances").get<double>() - (15.0 + 6.0 * 8759)) <
        1e-6);
  CHECK(rent.at("tokens").at("unserved").get<double>() == doctest::Approx(0.0));
  const Json& plain = report.at("plans").at(1).at("api");
  CHECK_FALSE(plain.contains("venue_tokens"));
  CHECK(plain.at("unserved_tokens").get<double>() == doctest::Approx(264e6 * 8760).epsilon(1e-12));
  CHECK(report.at("plans").at(1).at("tokens").at("unserved").get<double>() ==
        doctest::Approx(264e6 * 8760).epsilon(1e-12));

  const std::string md = slurp_api_venues(dir / "s.md");
  CHECK(contains(md, "over API limit, bn"));
  CHECK(contains(md, "| api-then-rent | 7,568.6 | 0.0 | 2,312.6 | 2,312.6 |"));
  CHECK(contains(slurp_api_venues(dir / "r.html"), "over API limit, bn"));
  // The terminal draws a section only when it fits its width; this one (as every Tokens section
  // with its $/M columns on the fixture) is named as wider, its table in the other formats.
  CHECK(contains(r.out, "Tokens per plan"));
  const std::string csv = slurp_api_venues(dir / "csv" / "tokens.csv");
  CHECK(contains(csv, "tokens_unserved,api_tokens_over_rate_limit,api_venue_tokens,input_tokens_served"));
  CHECK(contains(csv, "\napi-then-rent,7568640000000.0,7568640000000.0,0.0,2312640000000.0,2312640000000.0,"));

  if (std::system("python3 -c 'import zipfile' > /dev/null 2>&1") != 0) {
    MESSAGE("skipped the schema and workbook checks: python3 is not installed");
    return;
  }
  CHECK(std::system(("python3 " + source_path("tests/check_json_schema.py") + " " +
                     source_path("reports/report.schema.json") + " " + (dir / "r.json").string() + " > /dev/null")
                        .c_str()) == 0);
  // The Tokens sheet: row 4 is api-then-rent; R4 (left unserved) = P4 - Q4, cached 0.
  const auto script = dir / "check.py";
  std::ofstream(script) << "import re, sys, zipfile\n"
                           "z = zipfile.ZipFile(sys.argv[1])\n"
                           "w = z.read('xl/workbook.xml').decode()\n"
                           "names = re.findall(r'<sheet name=\"([^\"]*)\"', w)\n"
                           "x = z.read('xl/worksheets/sheet%d.xml' % (names.index('Tokens') + 1)).decode()\n"
                           "strings = z.read('xl/sharedStrings.xml').decode()\n"
                           "ok = '<f>P4-Q4</f><v>0</v>' in x and 'api_venue_tokens' in strings\n"
                           "sys.exit(0 if ok else 1)\n";
  CHECK(std::system(("python3 " + script.string() + " " + (dir / "r.xlsx").string()).c_str()) == 0);
}

}  // namespace tco::test
