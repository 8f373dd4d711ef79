// A scenario's requests (workload.requests) replayed for each plan, and its latency in the report
// (docs/des.md "Requests in a scenario", docs/report.md `plans[].latency`): three requests of a
// trace traced by hand, the light-load agreement with the hourly token model, the same report bytes
// on 1 and 2 threads, and exit 2 naming the pointer for every new field's bad input.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "engine/des/serving/plan_latency.hpp"
#include "models/importers/serving/azure_llm_trace.hpp"
#include "models/serving/request_workload.hpp"
#include "models/serving/token_demand.hpp"
#include "reports/html/html_charts.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

const char* const kLatencyFixture = "tests/fixtures/scenarios/latency/latency.json";

std::string latency_file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Json latency_fixture() { return read_json_file(source_path(kLatencyFixture)); }

Scenario load_latency(const Json& doc) {
  return load_scenario_json(doc, source_path(kLatencyFixture), source_path("tests/fixtures/scenarios/latency"));
}

// The InputError's pointer when `doc` is loaded; "" when it loads.
std::string latency_error_at(const Json& doc, std::string* message = nullptr) {
  try {
    load_latency(doc);
  } catch (const InputError& e) {
    if (message) *message = e.message();
    return e.where();
  }
  return "";
}

// `validate` and `run` both refuse the scenario: exit 2, naming `where` (a pointer or the file).
void check_validate_and_run_refuse(const std::filesystem::path& scenario, const std::filesystem::path& dir,
                                   const std::string& where) {
  for (const char* command : {"validate", "run"}) {
    const CliResult r = command == std::string("run")
                            ? run_cli({"run", scenario.string(), "--out", (dir / "r.json").string()})
                            : run_cli({"validate", scenario.string()});
    INFO(command << ": " << r.err << r.out);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err + r.out, where));
  }
}

}  // namespace

TEST_CASE("plan latency: three requests of a trace on one owned replica, traced by hand") {
  // The profile: r(1) = 1000 / 20 = 50 tokens/s, p(1) = 100 / 1000 / 1000 = 1e-4 s a token;
  // r(2) = 40, p(2) = 2e-4. max_concurrency 2; one node of 8 GPUs = 1 replica of 8.
  // R1 at 0 s (1,000 in, 100 out): prefill 1,000 x 1e-4 = 0.1 s, first token 0.1; decodes at 50.
  // R2 at 1 s (500, 50): R1 has 0.9 x 50 = 45 tokens; R2 prefills 500 x 2e-4 = 0.1 s (2 active):
  //   first token 1.1; R1 meanwhile at r(2) = 40: 45 + 4 = 49 at 1.1.
  // From 1.1 both decode at 40: R2 ends at 1.1 + 50 / 40 = 2.35 (R1 at 99); R1 alone at 50: its
  //   last token at 2.35 + 1 / 50 = 2.37.
  // R3 at 10 s (1,000, 100) alone: first token 10.1, done 12.1.
  // TTFT 0.1, 0.1, 0.1; end-to-end 2.37, 1.35, 2.1; decode speed 100 / 2.27 = 44.05, 50 / 1.25 = 40,
  // 100 / 2 = 50 tokens/s: the slo's 42 holds for R1 and R3: 2 of 3.
  const auto dir = scratch_dir("plan_latency_hand");
  const CliResult r = run_cli({"run", source_path(kLatencyFixture), "--out", (dir / "r.json").string(), "--md",
                               (dir / "s.md").string(), "--csv", (dir / "csv").string(), "--today", "2026-01-05"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file((dir / "r.json").string());
  const Json& own = report.at("plans").at(0).at("latency");
  CHECK(own.at("replicas") == 1);
  CHECK(own.at("max_concurrency") == 2);
  CHECK(own.at("requests").at("arrived") == 3);
  CHECK(own.at("requests").at("served") == 3);
  CHECK(own.at("requests").at("dropped") == 0);
  CHECK(own.at("requests").at("within_slo") == 2);
  CHECK(own.at("share_within_slo").get<double>() == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
  CHECK(own.at("ttft_s").at("mean").get<double>() == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(own.at("e2e_s").at("mean").get<double>() == doctest::Approx((2.37 + 1.35 + 2.1) / 3.0).epsilon(1e-12));
  // Percentiles are bucket midpoints (engine/des/serving/latency_histogram.hpp): 0.1 s in
  // [0.099609375, 0.10009765625) -> 0.099853515625; p50 of the end-to-end = the 2nd of 3 = 2.1 s =
  // 1.05 x 2^1, step floor(0.05 x 128) = 6: [2.09375, 2.109375) -> 2.1015625; p99 = the 3rd, 2.37 =
  // 1.185 x 2, step floor(23.68) = 23: [2.359375, 2.375) -> 2.3671875.
  CHECK(own.at("ttft_s").at("p50").get<double>() == 0.099853515625);
  CHECK(own.at("ttft_s").at("p99").get<double>() == 0.099853515625);
  CHECK(own.at("e2e_s").at("p50").get<double>() == 2.1015625);
  CHECK(own.at("e2e_s").at("p99").get<double>() == 2.3671875);
  CHECK(own.at("max_queue") == 0);
  // Busy: 0 to 2.37 and 10 to 12.1 = 4.47 replica-seconds x 8 GPUs / 3,600.
  CHECK(own.at("busy_gpu_hours").get<double>() == doctest::Approx(4.47 * 8.0 / 3600.0).epsilon(1e-12));
  // The cloud plan rents the peak hour's replicas: at the slo of 42 tokens/s the replica serves at
  // concurrency 1, 10 x 8 = 80 tokens/s = 288,000 an hour; 2,750 tokens: 1 replica, the same figures.
  const Json& cloud = report.at("plans").at(1).at("latency");
  CHECK(cloud.at("replicas") == 1);
  CHECK(cloud.at("e2e_s") == own.at("e2e_s"));
  // The section: Markdown and latency.csv (and the workbook's Latency sheet, tests/check_workbook_sections.py).
  const std::string md = latency_file_text(dir / "s.md");
  CHECK(contains(md, "Latency per plan"));
  const std::string csv = latency_file_text(dir / "csv" / "latency.csv");
  CHECK(contains(csv, "plan,replicas,gpus_per_replica,max_concurrency,requests,dropped,share_within_slo,ttft_p50_s"));
  CHECK(contains(csv, "own-1,1,8,2,3,0,"));
}

TEST_CASE("plan latency: at light load the replay serves the hourly model's tokens at the unloaded profile's latency") {
  // The trace: 2,500 + 250 = 2,750 tokens in its hour, the hourly series' row (three_requests_tokens.csv).
  const Scenario trace = load_latency(latency_fixture());
  const TokenHours hours = token_hours(*trace.workload.tokens, trace.horizon_hours(), trace.calendar);
  const std::optional<PlanLatency> own = plan_latency(trace, trace.plans[0], hours.tokens);
  REQUIRE(own);
  CHECK(own->hourly_model_tokens == 2750.0);
  CHECK(own->stats.input_tokens_served + own->stats.output_tokens_served == 2750.0);

  // Drawn: 0.01 requests/s for 24 hours (864 expected) of 1,000 + 100 tokens on 2 replicas, each
  // request ~2.1 s: almost never two at once on a replica, so TTFT = 1,000 x p(1) = 0.1 s and time
  // per output token = 1 / r(1) = 0.02 s at the median; served tokens = N x 1,100 against the hourly
  // model's 0.01 x 86,400 x 1,100 = 950,400, N Poisson(864): within 4 standard errors (4 x 29.4 x 1,100).
  Json doc = latency_fixture();
  Json& tokens = doc["workload"]["tokens"];
  tokens.erase("series");
  tokens["requests_per_second"] = {{"profiles", {{{"type", "steady"}, {"requests_per_second", 0.01}}}}};
  tokens["input_tokens_per_request"] = 1000;
  tokens["output_tokens_per_request"] = 100;
  doc["workload"]["requests"] = {{"hours", 24}, {"max_concurrency", 2}};
  doc["plans"][0]["onprem_nodes"] = 2;
  const Scenario drawn = load_latency(doc);
  const TokenHours drawn_hours = token_hours(*drawn.workload.tokens, drawn.horizon_hours(), drawn.calendar);
  const std::optional<PlanLatency> light = plan_latency(drawn, drawn.plans[0], drawn_hours.tokens);
  REQUIRE(light);
  CHECK(light->replicas == 2);
  CHECK(light->hourly_model_tokens == doctest::Approx(950400.0).epsilon(1e-12));
  const double served = light->stats.input_tokens_served + light->stats.output_tokens_served;
  CHECK(std::abs(served - 950400.0) < 4.0 * std::sqrt(864.0) * 1100.0);
  CHECK(light->stats.served == light->stats.arrived);
  CHECK(light->stats.ttft_s.percentile(0.5) == 0.099853515625);  // 0.1 s's bucket
  // 0.02 s = 1.28 x 2^-6: step floor(0.28 x 128) = 35: [1.2734375, 1.28125) x 2^-6, midpoint 0.0200195...
  CHECK(light->stats.tpot_s.percentile(0.5) == doctest::Approx((1.2734375 + 1.28125) / 2.0 / 64.0).epsilon(1e-15));
  CHECK(light->stats.waited == 0);
}

TEST_CASE("plan latency: the same report bytes on 1 and 2 threads") {
  const auto dir = scratch_dir("plan_latency_threads");
  Json doc = latency_fixture();
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  Json& tokens = doc["workload"]["tokens"];
  tokens["series"]["file"] = source_path("tests/fixtures/scenarios/latency/three_requests_tokens.csv");
  doc["workload"]["requests"] = {{"hours", 2}, {"paths", 3}, {"max_concurrency", 2},
                                 {"input_tokens", {{"type", "lognormal"}, {"median", 800}, {"sigma", 0.5}}},
                                 {"output_tokens", {{"type", "exponential"}, {"mean", 100}}}};
  tokens.erase("series");
  tokens["requests_per_second"] = {{"profiles", {{{"type", "steady"}, {"requests_per_second", 0.5}}}}};
  tokens["input_tokens_per_request"] = 1000;
  tokens["output_tokens_per_request"] = 100;
  doc["api"] = {{"name", "test-api"}, {"usd_per_million_input_tokens", 0.5}, {"usd_per_million_output_tokens", 2.0},
                {"source", "hand-made"}, {"as_of", "2026-01-01"}};
  doc["plans"].push_back({{"name", "api"}, {"kind", "api"}});
  const auto path = dir / "drawn.json";
  std::ofstream(path) << doc.dump(2);
  std::string bytes[2];
  for (int threads = 1; threads <= 2; ++threads) {
    const auto out = dir / ("r" + std::to_string(threads) + ".json");
    const CliResult r = run_cli({"run", path.string(), "--out", out.string(), "--threads", std::to_string(threads),
                                 "--today", "2026-01-05"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    bytes[threads - 1] = latency_file_text(out);
  }
  // The bytes differ only where the report records the thread count it ran with (run.threads).
  const std::string one = "\"threads\": 1", two = "\"threads\": 2";
  REQUIRE(contains(bytes[0], one));
  bytes[0].replace(bytes[0].find(one), one.size(), two);
  CHECK(bytes[0] == bytes[1]);
  const Json report = Json::parse(bytes[1]);
  // 0.5 requests/s x 7,200 s x 3 paths = 10,800 requests expected.
  const double arrived = report.at("plans").at(0).at("latency").at("requests").at("arrived").get<double>();
  CHECK(std::abs(arrived - 10800.0) < 4.0 * std::sqrt(10800.0));
  // An API plan runs no replica.
  CHECK(report.at("plans").at(2).at("latency").is_null());
}

TEST_CASE("plan latency: bad input in workload.requests is exit 2 naming its pointer") {
  struct Case {
    const char* key;
    Json value;
    const char* pointer;
  };
  const Case cases[] = {
      {"hours", 0, "/workload/requests/hours"},
      {"hours", 1000, "/workload/requests/hours"},  // the horizon is 730 hours
      {"paths", 2, "/workload/requests/paths"},     // a trace replays once
      {"paths", 0, "/workload/requests/paths"},
      {"max_concurrency", 3, "/workload/requests/max_concurrency"},  // the profile measured 1 and 2
      {"max_concurrency", 0, "/workload/requests/max_concurrency"},
      {"router", "random", "/workload/requests/router"},
      {"max_wait_s", -1, "/workload/requests/max_wait_s"},
      {"max_wait_s", 0, "/workload/requests/max_wait_s"},
      {"warmup_s", 3600, "/workload/requests/warmup_s"},
      {"input_tokens", {{"type", "fixed"}, {"tokens", 10}}, "/workload/requests/input_tokens"},  // beside a trace
      {"speed", 1, "/workload/requests/speed"},
      {"trace", {{"file", "no-such.csv"}, {"format", "azure-llm"}}, "/workload/requests/trace/file"},
      {"trace", {{"file", "three_requests.csv"}, {"format", "csv"}}, "/workload/requests/trace/format"},
      {"trace", 1, "/workload/requests/trace"},
  };
  for (const Case& c : cases) {
    Json doc = latency_fixture();
    doc["workload"]["requests"][c.key] = c.value;
    INFO(c.key << " = " << c.value.dump());
    CHECK(latency_error_at(doc) == c.pointer);
  }
  // Drawn lengths: a negative or zero count, a sigma past 5, an unknown type.
  const std::pair<Json, const char*> lengths[] = {
      {{{"type", "fixed"}, {"tokens", -5}}, "/workload/requests/output_tokens/tokens"},
      {{{"type", "exponential"}, {"mean", 0}}, "/workload/requests/output_tokens/mean"},
      {{{"type", "lognormal"}, {"median", 100}, {"sigma", 6}}, "/workload/requests/output_tokens/sigma"},
      {{{"type", "pareto"}}, "/workload/requests/output_tokens/type"},
  };
  for (const auto& case_ : lengths) {
    const Json& length = case_.first;  // not a structured binding: clang 14 cannot capture one in INFO
    const char* pointer = case_.second;
    Json doc = latency_fixture();
    Json& tokens = doc["workload"]["tokens"];
    tokens.erase("series");
    tokens["requests_per_second"] = {{"profiles", {{{"type", "steady"}, {"requests_per_second", 1}}}}};
    tokens["input_tokens_per_request"] = 1000;
    tokens["output_tokens_per_request"] = 100;
    doc["workload"]["requests"] = {{"output_tokens", length}};
    INFO(length.dump());
    CHECK(latency_error_at(doc) == pointer);
  }
  {  // A token series gives no request rate: a trace is needed.
    Json doc = latency_fixture();
    doc["workload"]["requests"].erase("trace");
    CHECK(latency_error_at(doc) == "/workload/requests/trace");
  }
  {  // Requests without tokens.
    Json doc = latency_fixture();
    doc["workload"].erase("tokens");
    doc["workload"]["profiles"] = {{{"type", "steady"}, {"gpus", 8}}};
    CHECK(latency_error_at(doc) == "/workload/requests");
  }
  {  // The default max_concurrency is the profile's at the slo; a max_concurrency beyond it names the profile.
    Json doc = latency_fixture();
    doc["workload"]["requests"]["max_concurrency"] = 3;
    std::string message;
    latency_error_at(doc, &message);
    CHECK(contains(message, "outside its measured concurrencies 1 to 2"));
  }
}

TEST_CASE("plan latency: rented scaling billed from launch, overflow to the API priced, tokens by venue") {
  // 1 slot a replica (r(1) = 50 tokens/s, p(1) = 1e-4 s a token); the cloud plan holds 1 rented
  // replica and may launch 1 more when an arrival finds a request waiting over 0.5 s: running
  // 0.25 min = 15 s after launch, removed 0.5 min = 30 s idle; a request waiting over 5 s goes to
  // the API plan's API ($0.50 / $2.00 per million input / output tokens).
  //   A 0 s (1,000 in, 100 out): prefill 0.1, decode 100 / 50 = 2: done 2.1
  //   B 1 s (500, 400): waits; C 2 s (1,000, 100) waits behind it; B has waited 1 > 0.5: launch at 2
  //   2.1 B admitted: prefill 0.05, decode 400 / 50 = 8: done 10.15; C has waited 8.15 > 5: API
  //   17 the launched replica runs; D 40 s (1,000, 100): both replicas idle, the held one has been
  //   so longer (since 10.15): D there, done 42.1; the launched one removed at 17 + 30 = 47
  // Tokens: A + B + D = 1,100 + 900 + 1,100 = 3,100 on rented replicas; C's 1,100 by the API.
  // Rented: 1 h held + (47 - 2) s = 1.0125 replica-hours x 8 GPUs x $16 / 8 GPUs = $16.20.
  // API: (1,000 x 0.5 + 100 x 2) / 1e6 = $0.0007. The owned plan: the same requests on its own
  // replica (it rents none), C to the API as well.
  const auto dir = scratch_dir("plan_latency_scaling");
  write_text(dir / "four.csv",
             "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:00:00,1000,100\n2023-11-16 18:00:01,500,400\n"
             "2023-11-16 18:00:02,1000,100\n2023-11-16 18:00:40,1000,100\n");
  Json doc = latency_fixture();
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  doc["workload"]["tokens"]["series"]["file"] = source_path("tests/fixtures/scenarios/latency/three_requests_tokens.csv");
  Json& requests = doc["workload"]["requests"];
  requests["trace"]["file"] = (dir / "four.csv").string();
  requests["max_concurrency"] = 1;
  requests["max_wait_s"] = 5;
  requests["overflow"] = "api";
  requests["rented_scaling"] = {{"max_replicas", 1}, {"wait_threshold_s", 0.5}, {"startup_minutes", 0.25},
                                {"idle_minutes", 0.5}};
  doc["api"] = {{"name", "test-api"}, {"usd_per_million_input_tokens", 0.5}, {"usd_per_million_output_tokens", 2.0},
                {"source", "hand-made"}, {"as_of", "2026-01-01"}};
  doc["plans"].push_back({{"name", "api"}, {"kind", "api"}});
  const auto scenario = dir / "s.json";
  std::ofstream(scenario) << doc.dump(2);
  const CliResult v = run_cli({"validate", scenario.string()});
  INFO(v.err << v.out);
  REQUIRE(v.exit_code == 0);
  const CliResult r = run_cli({"run", scenario.string(), "--out", (dir / "r.json").string(), "--csv",
                               (dir / "csv").string(), "--today", "2026-01-05"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file((dir / "r.json").string());
  const Json& cloud = report.at("plans").at(1).at("latency");
  CHECK(cloud.at("replicas") == 1);
  CHECK(cloud.at("owned_replicas") == 0);
  CHECK(cloud.at("rented_scaling").at("launched_per_path").get<double>() == 1.0);
  CHECK(cloud.at("rented_scaling").at("most_at_once") == 1);
  CHECK(cloud.at("requests").at("to_api") == 1);
  CHECK(cloud.at("requests").at("served") == 3);
  CHECK(cloud.at("requests").at("dropped") == 0);
  CHECK(cloud.at("tokens_served_per_path").at("owned").get<double>() == 0.0);
  CHECK(cloud.at("tokens_served_per_path").at("rented").get<double>() == 3100.0);
  CHECK(cloud.at("tokens_served_per_path").at("api").get<double>() == 1100.0);
  CHECK(cloud.at("rented_replica_hours_per_path").get<double>() == doctest::Approx(1.0125).epsilon(1e-12));
  CHECK(cloud.at("rented_usd_per_path").get<double>() == doctest::Approx(16.2).epsilon(1e-12));
  CHECK(cloud.at("api_overflow_usd_per_path").get<double>() == doctest::Approx(0.0007).epsilon(1e-12));
  const Json& own = report.at("plans").at(0).at("latency");
  CHECK(own.at("rented_scaling").is_null());
  CHECK(own.at("tokens_served_per_path").at("owned").get<double>() == 3100.0);
  CHECK(own.at("tokens_served_per_path").at("rented").get<double>() == 0.0);
  CHECK(own.at("requests").at("to_api") == 1);
  CHECK(own.at("rented_usd_per_path").get<double>() == 0.0);
  CHECK(own.at("api_overflow_usd_per_path").get<double>() == doctest::Approx(0.0007).epsilon(1e-12));
  const std::string csv = latency_file_text(dir / "csv" / "latency.csv");
  CHECK(contains(csv, "to_api,owned_tokens_per_path,rented_tokens_per_path,api_tokens_per_path"));
}

TEST_CASE("plan latency: bad rented scaling or overflow is exit 2 naming its pointer, in validate and run alike") {
  struct Case {
    const char* key;
    Json value;
    const char* pointer;
  };
  const Json scaling = {{"max_replicas", 1}, {"wait_threshold_s", 1}, {"startup_minutes", 5}, {"idle_minutes", 10}};
  auto with = [&](const char* key, Json value) {
    Json s = scaling;
    s[key] = std::move(value);
    return s;
  };
  Json no_max = scaling;
  no_max.erase("max_replicas");
  const Case cases[] = {
      {"overflow", "queue", "/workload/requests/overflow"},
      {"overflow", "api", "/workload/requests/overflow"},  // without max_wait_s
      {"rented_scaling", 1, "/workload/requests/rented_scaling"},
      {"rented_scaling", no_max, "/workload/requests/rented_scaling/max_replicas"},
      {"rented_scaling", with("max_replicas", 0), "/workload/requests/rented_scaling/max_replicas"},
      {"rented_scaling", with("min_replicas", 0), "/workload/requests/rented_scaling/min_replicas"},
      {"rented_scaling", with("wait_threshold_s", -1), "/workload/requests/rented_scaling/wait_threshold_s"},
      {"rented_scaling", with("startup_minutes", 2000), "/workload/requests/rented_scaling/startup_minutes"},
      {"rented_scaling", with("idle_minutes", -1), "/workload/requests/rented_scaling/idle_minutes"},
      {"rented_scaling", with("warm_pool", 1), "/workload/requests/rented_scaling/warm_pool"},
  };
  for (const Case& c : cases) {
    Json doc = latency_fixture();
    doc["workload"]["requests"][c.key] = c.value;
    INFO(c.key << " = " << c.value.dump());
    CHECK(latency_error_at(doc) == c.pointer);
  }
  // Overflow to the API with no plan buying from one: no price; validate and run say so alike.
  const auto dir = scratch_dir("plan_latency_overflow_bad");
  Json doc = latency_fixture();
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  doc["workload"]["tokens"]["series"]["file"] = source_path("tests/fixtures/scenarios/latency/three_requests_tokens.csv");
  doc["workload"]["requests"]["trace"]["file"] = source_path("tests/fixtures/scenarios/latency/three_requests.csv");
  doc["workload"]["requests"]["max_wait_s"] = 5;
  doc["workload"]["requests"]["overflow"] = "api";
  CHECK(latency_error_at(doc) == "/workload/requests/overflow");
  const auto scenario = dir / "s.json";
  std::ofstream(scenario) << doc.dump(2);
  check_validate_and_run_refuse(scenario, dir, "/workload/requests/overflow");
}

TEST_CASE("plan latency: an empty or malformed trace is exit 2 in validate and run alike, naming the file") {
  const auto dir = scratch_dir("plan_latency_trace");
  Json doc = latency_fixture();
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  doc["workload"]["tokens"]["series"]["file"] = source_path("tests/fixtures/scenarios/latency/three_requests_tokens.csv");
  doc["workload"]["requests"]["trace"]["file"] = "trace.csv";
  const auto scenario = dir / "s.json";
  std::ofstream(scenario) << doc.dump(2);
  for (const char* text : {"TIMESTAMP,ContextTokens,GeneratedTokens\n",
                           "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:00:00,-3,10\n"}) {
    write_text(dir / "trace.csv", text);
    check_validate_and_run_refuse(scenario, dir, "trace.csv");
  }
}

TEST_CASE("plan latency: the Azure conversation trace replays a day on the shipped profile") {
  if (!shared_data_available()) {
    MESSAGE("skipped: ../shared/data/inference/traces is absent (the Azure LLM traces)");
    return;
  }
  const std::string trace = shared_data_path("inference/traces/AzureLLMInferenceTrace_conv.csv");
  if (!std::filesystem::exists(trace)) {
    MESSAGE("skipped: " << trace << " is absent");
    return;
  }
  const std::vector<serving::TraceRequest> rows = read_azure_llm_requests(trace);
  // docs/tokens.md §4: 19,366 requests, 22,361,870 input and 4,088,665 output tokens in one hour.
  REQUIRE(rows.size() == 19366);
  double input = 0.0, output = 0.0;
  for (const auto& r : rows) input += r.input_tokens, output += r.output_tokens;
  CHECK(input == 22361870.0);
  CHECK(output == 4088665.0);
  CHECK(rows.front().arrival_s == 0.0);
  CHECK(rows.back().arrival_s < 3600.0);
}


TEST_CASE("plan latency: each figure across paths with its 95% interval by the costs' rule") {
  // Drawn: 0.01 requests/s for 24 hours, 4 paths of fixed 1,000 + 100 tokens on 2 owned replicas;
  // nothing waits long and nothing is dropped, so path p's owned tokens are 1,100 x its arrivals N_p.
  const auto dir = scratch_dir("plan_latency_across_paths");
  Json doc = latency_fixture();
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  Json& tokens = doc["workload"]["tokens"];
  tokens.erase("series");
  tokens["requests_per_second"] = {{"profiles", {{{"type", "steady"}, {"requests_per_second", 0.01}}}}};
  tokens["input_tokens_per_request"] = 1000;
  tokens["output_tokens_per_request"] = 100;
  doc["workload"]["requests"] = {{"hours", 24}, {"paths", 4}, {"max_concurrency", 2}};
  doc["plans"][0]["onprem_nodes"] = 2;
  const auto path = dir / "drawn.json";
  std::ofstream(path) << doc.dump(2);
  const Scenario drawn = load_latency(doc);
  // N_p counted apart: the same arrival draws (the seed, path p, the steady rate) on one replica.
  serving::RequestReplayConfig arrivals;
  arrivals.rates.decode_tokens_per_s_by_active = {50.0};
  arrivals.requests_per_s_by_step.assign(24, 0.01);
  arrivals.input_tokens = {serving::TokenLength::Kind::fixed, 1000.0, 0.0, {}};
  arrivals.output_tokens = {serving::TokenLength::Kind::fixed, 100.0, 0.0, {}};
  arrivals.seed = drawn.monte_carlo.seed;
  std::vector<double> owned;
  for (std::uint32_t p = 0; p < 4; ++p) {
    std::vector<serving::RequestRecord> records;
    serving::replay_requests(arrivals, p, &records);
    owned.push_back(1100.0 * static_cast<double>(records.size()));
  }
  REQUIRE(owned.size() == 4);
  // The costs' rule (core/stats/statistics.hpp): mean, s with n - 1, stderr s / sqrt(4), 95% interval
  // mean -/+ t_{0.975, 3} x stderr with t_{0.975, 3} = 3.182446305284263; P5 at (4 - 1) x 0.05 = 0.15
  // between the two smallest.
  const double mean = (owned[0] + owned[1] + owned[2] + owned[3]) / 4.0;
  double squares = 0.0;
  for (double v : owned) squares += (v - mean) * (v - mean);
  const double half = 3.182446305284263 * std::sqrt(squares / 3.0) / 2.0;
  std::vector<double> sorted = owned;
  std::sort(sorted.begin(), sorted.end());
  const double p5 = sorted[0] + 0.15 * (sorted[1] - sorted[0]);
  REQUIRE(half > 0.0);  // the paths differ, or the interval proves nothing

  const CliResult r = run_cli({"run", path.string(), "--out", (dir / "r.json").string(), "--md", (dir / "s.md").string(),
                               "--html", (dir / "s.html").string(), "--csv", (dir / "csv").string(), "--today",
                               "2026-01-05"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file((dir / "r.json").string());
  const Json& across = report.at("plans").at(0).at("latency").at("across_paths");
  const Json& tokens_owned = across.at("owned_tokens");
  CHECK(tokens_owned.at("mean").get<double>() == doctest::Approx(mean).epsilon(1e-12));
  CHECK(tokens_owned.at("ci95_low").get<double>() == doctest::Approx(mean - half).epsilon(1e-12));
  CHECK(tokens_owned.at("ci95_high").get<double>() == doctest::Approx(mean + half).epsilon(1e-12));
  CHECK(tokens_owned.at("p5").get<double>() == doctest::Approx(p5).epsilon(1e-12));
  CHECK(tokens_owned.at("max").get<double>() == sorted[3]);
  // The path mean is the pooled figure a path.
  CHECK(report.at("plans").at(0).at("latency").at("tokens_served_per_path").at("owned").get<double>() ==
        doctest::Approx(mean).epsilon(1e-12));
  // Every path's median TTFT is the unloaded 0.1 s's bucket: a constant sample, an interval of no width.
  for (const char* statistic : {"mean", "ci95_low", "ci95_high", "p5", "p95"})
    CHECK(across.at("ttft_p50_s").at(statistic).get<double>() == 0.099853515625);
  for (const char* zero : {"rented_tokens", "api_tokens", "dropped_requests", "rented_usd", "api_overflow_usd"})
    CHECK(across.at(zero).at("ci95_high").get<double>() == 0.0);
  // The load chart's data: one steady load, every request in one bin at 0.01 requests/s.
  const Json& by_load = report.at("plans").at(0).at("latency").at("by_load");
  REQUIRE(by_load.size() == 1);
  CHECK(by_load.at(0).at("requests_per_s").get<double>() == doctest::Approx(0.01).epsilon(1e-12));
  CHECK(by_load.at(0).at("served") == report.at("plans").at(0).at("latency").at("requests").at("served"));
  // latency.csv (and the workbook's Latency sheet) carries the interval; Markdown the Across paths
  // table; the HTML page the latency percentile against load.
  const std::string csv = latency_file_text(dir / "csv" / "latency.csv");
  CHECK(contains(csv, ",owned_tokens_path_mean,owned_tokens_ci95_low,owned_tokens_ci95_high,"));
  CHECK(std::filesystem::exists(dir / "csv" / "latency_by_load.csv"));
  const std::string md = latency_file_text(dir / "s.md");
  CHECK(contains(md, "Across paths"));
  CHECK(contains(md, "tokens by owned replicas"));
  const std::string html = latency_file_text(dir / "s.html");
  // A steady 0.01 requests/s is one load level: a sentence with its percentiles, not a chart of one dot.
  CHECK(contains(html, "TTFT against load: no curve to draw for "));
  CHECK(contains(html, " (0.01 requests/s)"));
  CHECK(contains(html, "requests came at one load level, whose percentiles the table gives"));
  CHECK_FALSE(contains(html, "load (requests/s)"));
}

TEST_CASE("plan latency: the HTML draws TTFT against load from two load levels, names a plan with one") {
  // Two bins: 2 requests/s (p50/p90/p99 0.2/0.3/0.5 s) and 8 requests/s (0.4/1.25/3 s). The chart
  // labels its last point with the p90 it draws and the p99 its whisker reaches.
  Json report = {{"plans", Json::array({{{"name", "owned"}, {"latency", {{"by_load", Json::array()}}}}})}};
  Json& bins = report["plans"][0]["latency"]["by_load"];
  bins.push_back({{"requests_per_s", 2.0}, {"ttft_s", {{"p50", 0.2}, {"p90", 0.3}, {"p99", 0.5}}}});
  bins.push_back({{"requests_per_s", 8.0}, {"ttft_s", {{"p50", 0.4}, {"p90", 1.25}, {"p99", 3.0}}}});
  const std::string two = latency_charts(report);
  CHECK(contains(two, "<svg"));
  CHECK(contains(two, "load (requests/s)"));
  CHECK(contains(two, "p90 1.250 s (p99 3.000 s) at 8 requests/s"));
  bins.erase(1);
  const std::string one = latency_charts(report);
  CHECK_FALSE(contains(one, "<svg"));
  CHECK(contains(one, "TTFT against load: no curve to draw for owned (2 requests/s): its requests came at one load "
                      "level, whose percentiles the table gives"));
}

}  // namespace tco::test
