// Overflow to the venues of a plan's venue list and queued requests moving onto new rented replicas
// (issue 47 item 3; docs/des.md "Overflow to venues"): hand-traced cases with every time written
// out, determinism, and exit 2 naming the pointer for a venue the plans lack or a negative wait.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/io/json_reader.hpp"
#include "engine/des/serving/request_replay.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

using serving::OverflowVenue;
using serving::RequestRecord;
using serving::RequestReplayConfig;
using serving::RequestReplayStats;

// One owned replica of 1 slot, r(1) = 10 tokens/s, p(1) = 0.001 s an input token:
//   A (t 0, 100 in, 50 out)  prefill 0.1, decode 50 / 10 = 5: first token 0.1, done 5.1
//   B (t 0.5, 100, 50)       waits until 5.1 (4.6 s < max_wait_s 5): first token 5.2, done 10.2
//   C (t 1.0, 200, 10)       would wait until 10.2: leaves the fleet's queue at 1 + 5 = 6.0
RequestReplayConfig three_requests() {
  RequestReplayConfig c;
  c.rates.decode_tokens_per_s_by_active = {10.0};
  c.rates.prefill_s_per_input_token_by_active = {0.001};
  c.replicas = 1;
  c.owned_replicas = 1;
  c.max_wait_s = 5.0;
  c.trace = {{0.0, 100.0, 50.0}, {0.5, 100.0, 50.0}, {1.0, 200.0, 10.0}};
  return c;
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The latency fixture with a cloud plan whose venue "neo" rents the 8-GPU test offer at $10 an
// instance-hour, and the replay's terms for it.
Json venues_fixture(const std::filesystem::path& dir) {
  Json doc = read_json_file(source_path("tests/fixtures/scenarios/latency/latency.json"));
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  doc["workload"]["tokens"]["series"]["file"] = source_path("tests/fixtures/scenarios/latency/three_requests_tokens.csv");
  write_text(dir / "four.csv",
             "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:00:00,1000,100\n2023-11-16 18:00:01,500,400\n"
             "2023-11-16 18:00:02,1000,100\n2023-11-16 18:00:40,1000,100\n");
  Json& requests = doc["workload"]["requests"];
  requests["trace"]["file"] = (dir / "four.csv").string();
  requests["max_concurrency"] = 1;
  requests["max_wait_s"] = 5;
  requests["venues"] = {{"neo", {{"max_replicas", 1}, {"max_wait_s", 60}, {"startup_minutes", 0.25}, {"idle_minutes", 0.5}}}};
  doc["plans"].push_back(
      {{"name", "cloud-venues"},
       {"kind", "cloud"},
       {"venues",
        {{{"name", "neo"}, {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", 10.0}}},
          {"provisioning_delay_h", 0}}}}});
  return doc;
}

}  // namespace

TEST_CASE("request venues: a request past max_wait_s goes to a rented venue and starts when its replica is ready") {
  // Venue 0: 1 replica, its own bound 60 s, start-up d = 7.5 s, removed 2 s idle. C enters it at
  // 6.0 with no replica running: one is launched (7.5 < 60), ready at 6.0 + 7.5 = 13.5; C admitted
  // then, prefill 200 x 0.001 = 0.2: first token 13.7, done 13.7 + 10 / 10 = 14.7; the replica is
  // removed at 16.7, billed from its launch: 16.7 - 6.0 = 10.7 s.
  // C's TTFT = 13.7 - 1.0 = 12.7 = 5 (the fleet's max_wait_s) + 7.5 (until ready) + 0.2 (prefill).
  RequestReplayConfig c = three_requests();
  c.venues = {OverflowVenue{1, 60.0, 7.5, 2.0}};
  std::vector<RequestRecord> r;
  const RequestReplayStats s = replay_requests(c, 0, &r);
  REQUIRE(r.size() == 3);
  CHECK(r[0].first_token_s == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(r[0].finished_s == doctest::Approx(5.1).epsilon(1e-12));
  CHECK(r[1].admitted_s == doctest::Approx(5.1).epsilon(1e-12));
  CHECK(r[1].finished_s == doctest::Approx(10.2).epsilon(1e-12));
  CHECK(r[1].venue == -1);
  CHECK(r[2].venue == 0);
  CHECK(r[2].replica == 1);  // the venue's replicas come after the fleet's
  CHECK(r[2].admitted_s == doctest::Approx(13.5).epsilon(1e-12));
  CHECK(r[2].first_token_s == doctest::Approx(13.7).epsilon(1e-12));
  CHECK(r[2].first_token_s - r[2].arrival_s == doctest::Approx(5.0 + 7.5 + 0.2).epsilon(1e-12));
  CHECK(r[2].finished_s == doctest::Approx(14.7).epsilon(1e-12));
  CHECK_FALSE(r[2].dropped);
  CHECK(s.served == 3);
  CHECK(s.dropped == 0);
  REQUIRE(s.venues.size() == 1);
  CHECK(s.venues[0].entered == 1);
  CHECK(s.venues[0].served == 1);
  CHECK(s.venues[0].launched == 1);
  CHECK(s.venues[0].tokens_served == 210.0);
  CHECK(s.venues[0].billed_replica_s == doctest::Approx(10.7).epsilon(1e-12));
  CHECK(s.rented_tokens_served == 210.0);  // the venue's: rented; A's and B's 300 owned
  CHECK(s.input_tokens_served + s.output_tokens_served - s.rented_tokens_served == 300.0);
  // Waits: B 4.6, C 12.5 (5 at the fleet + 7.5 at the venue).
  CHECK(s.wait_s_sum == doctest::Approx(4.6 + 12.5).epsilon(1e-12));
}

TEST_CASE("request venues: a venue with no slot within its own bound passes the request on, then the API or a drop") {
  // Venue 0's start-up (7.5 s) is not within its bound (5 s): nothing is launched, C waits its 5 s
  // there (6.0 to 11.0) and goes on to venue 1 (start-up 1 s, bound 10 s): launched at 11.0, ready
  // at 12.0, prefill 0.2: first token 12.2 (TTFT 11.2 = 5 + 5 + 1 + 0.2), done 13.2; removed
  // 0.5 s idle at 13.7: billed 13.7 - 11.0 = 2.7 s.
  RequestReplayConfig c = three_requests();
  c.venues = {OverflowVenue{1, 5.0, 7.5, 2.0}, OverflowVenue{1, 10.0, 1.0, 0.5}};
  std::vector<RequestRecord> r;
  const RequestReplayStats s = replay_requests(c, 0, &r);
  CHECK(r[2].venue == 1);
  CHECK(r[2].replica == 2);
  CHECK(r[2].admitted_s == doctest::Approx(12.0).epsilon(1e-12));
  CHECK(r[2].first_token_s - r[2].arrival_s == doctest::Approx(5.0 + 5.0 + 1.0 + 0.2).epsilon(1e-12));
  CHECK(r[2].finished_s == doctest::Approx(13.2).epsilon(1e-12));
  CHECK(s.venues[0].entered == 1);
  CHECK(s.venues[0].launched == 0);
  CHECK(s.venues[0].billed_replica_s == 0.0);
  CHECK(s.venues[1].entered == 1);
  CHECK(s.venues[1].served == 1);
  CHECK(s.venues[1].billed_replica_s == doctest::Approx(2.7).epsilon(1e-12));

  // Venue 0 alone: C leaves it at 11.0 for the API (200 in, 10 out), or is dropped then.
  c.venues = {OverflowVenue{1, 5.0, 7.5, 2.0}};
  c.overflow_to_api = true;
  r.clear();
  const RequestReplayStats api = replay_requests(c, 0, &r);
  CHECK(api.to_api == 1);
  CHECK(api.api_input_tokens == 200.0);
  CHECK(api.api_output_tokens == 10.0);
  CHECK(r[2].to_api);
  CHECK(r[2].finished_s == doctest::Approx(11.0).epsilon(1e-12));
  CHECK(api.served == 2);
  c.overflow_to_api = false;
  r.clear();
  const RequestReplayStats dropped = replay_requests(c, 0, &r);
  CHECK(dropped.dropped == 1);
  CHECK(r[2].dropped);
  CHECK(r[2].finished_s == doctest::Approx(11.0).epsilon(1e-12));
  // A bound of 0 passes a request on at once: to the API at 6.0.
  c.venues = {OverflowVenue{1, 0.0, 0.0, 0.0}};
  c.overflow_to_api = true;
  r.clear();
  const RequestReplayStats at_once = replay_requests(c, 0, &r);
  CHECK(at_once.to_api == 1);
  CHECK(at_once.venues[0].entered == 1);
  CHECK(at_once.venues[0].launched == 0);
  CHECK(r[2].finished_s == doctest::Approx(6.0).epsilon(1e-12));
}

TEST_CASE("request venues: new rented replicas take the oldest waiting requests across the fleet's queues") {
  // Two owned replicas of 1 slot at r(1) = 1 token/s, no prefill; up to 2 rented replicas launched
  // when an arrival finds its replica's oldest request waiting more than 0 s, running 1 s after the
  // launch, removed 1 s idle.
  //   A 0 (100 out) on 0; B 0.1 (100) on 1; C 0.2 (10) waits at 0; D 0.3 (10) waits at 1
  //   E 0.4 (10) waits at 0 (0 and 1 both 2, 0 so since 0.2): C has waited 0.2: replica 2 launched
  //   F 0.5 (10) waits at 1 (3 against 2): D has waited 0.2: replica 3 launched (1 starting < 4 waiting)
  //   1.4 replica 2 ready: the oldest waiting is C (0.2, at 0), not D (0.3): C starts at 1.4, done 11.4
  //   1.5 replica 3 ready: D (0.3, at 1) before E (0.4, at 0): D starts at 1.5, done 11.5
  //   11.4 replica 2 free, nothing of its own: E (0.4) before F (0.5): E done 21.4; 11.5 F on 3, done 21.5
  //   removed at 22.4 and 22.5: billed (22.4 - 0.4) + (22.5 - 0.5) = 44 s
  RequestReplayConfig c;
  c.rates.decode_tokens_per_s_by_active = {1.0};
  c.replicas = 2;
  c.owned_replicas = 2;
  c.scaling = {2, 0.0, 1.0, 1.0};
  c.trace = {{0.0, 1.0, 100.0}, {0.1, 1.0, 100.0}, {0.2, 1.0, 10.0},
             {0.3, 1.0, 10.0},  {0.4, 1.0, 10.0},  {0.5, 1.0, 10.0}};
  std::vector<RequestRecord> r;
  const RequestReplayStats s = replay_requests(c, 0, &r);
  REQUIRE(r.size() == 6);
  CHECK(r[0].replica == 0);
  CHECK(r[1].replica == 1);
  CHECK(r[2].replica == 2);
  CHECK(r[2].admitted_s == doctest::Approx(0.4 + 1.0).epsilon(1e-12));  // the replica's ready time
  CHECK(r[3].replica == 3);
  CHECK(r[3].admitted_s == doctest::Approx(0.5 + 1.0).epsilon(1e-12));
  CHECK(r[4].replica == 2);
  CHECK(r[4].admitted_s == doctest::Approx(11.4).epsilon(1e-12));
  CHECK(r[4].finished_s == doctest::Approx(21.4).epsilon(1e-12));
  CHECK(r[5].replica == 3);
  CHECK(r[5].admitted_s == doctest::Approx(11.5).epsilon(1e-12));
  CHECK(r[1].finished_s == doctest::Approx(100.1).epsilon(1e-12));
  CHECK(s.rented_launched == 2);
  CHECK(s.max_rented_running == 2);
  CHECK(s.rented_billed_replica_s == doctest::Approx(44.0).epsilon(1e-12));
  CHECK(s.rented_tokens_served == 44.0);
  // Waits: C 1.2, D 1.2, E 11.0, F 11.0.
  CHECK(s.wait_s_sum == doctest::Approx(1.2 + 1.2 + 11.0 + 11.0).epsilon(1e-12));
}

TEST_CASE("request venues: the same path gives the same requests, venues and all") {
  RequestReplayConfig c;
  c.rates.decode_tokens_per_s_by_active = {20.0, 15.0};
  c.rates.prefill_s_per_input_token_by_active = {1e-4, 2e-4};
  c.replicas = 1;
  c.owned_replicas = 1;
  c.scaling = {1, 1.0, 5.0, 10.0};
  c.max_wait_s = 3.0;
  c.venues = {OverflowVenue{2, 4.0, 2.0, 5.0}, OverflowVenue{1, 30.0, 10.0, 5.0}};
  c.overflow_to_api = true;
  c.requests_per_s_by_step = {4.0};
  c.step_s = 600.0;
  c.input_tokens = {serving::TokenLength::Kind::fixed, 500.0, 0.0, {}};
  c.output_tokens = {serving::TokenLength::Kind::exponential, 40.0, 0.0, {}};
  std::vector<RequestRecord> a, b;
  const RequestReplayStats sa = replay_requests(c, 3, &a), sb = replay_requests(c, 3, &b);
  REQUIRE(a.size() == b.size());
  bool same = true;
  for (std::size_t k = 0; k < a.size(); ++k)
    same = same && a[k].finished_s == b[k].finished_s && a[k].first_token_s == b[k].first_token_s &&
           a[k].venue == b[k].venue && a[k].replica == b[k].replica && a[k].to_api == b[k].to_api;
  CHECK(same);
  CHECK(sa.venues[0].billed_replica_s == sb.venues[0].billed_replica_s);
  // 4 requests/s on one replica of 2 slots (+ 1 scaled) at ~2.7 s a request is overloaded: the
  // first venue serves some and passes others on, and some reach the API.
  CHECK(sa.venues[0].served > 0);
  CHECK(sa.venues[0].entered > sa.venues[0].served);
  CHECK(sa.venues[1].entered > 0);
  CHECK(sa.to_api > 0);
  CHECK(sa.served + sa.to_api + sa.dropped == sa.arrived);
}

TEST_CASE("request venues: a plan's venue in the scenario, priced from launch, the same bytes on 1 and 3 threads") {
  // The cloud-venues plan holds 1 rented replica (the peak hour's) of 1 slot at r(1) = 50 tokens/s,
  // p(1) = 1e-4 s a token:
  //   A 0 s (1,000 in, 100 out): done 0.1 + 2 = 2.1; B 1 s (500, 400) admitted 2.1, done 10.15
  //   C 2 s (1,000, 100) leaves the queue at 2 + 5 = 7 for venue neo: launched at 7, ready at
  //   7 + 15 = 22, first token 22.1 (TTFT 20.1 = 5 + 15 + 0.1), done 24.1, removed at 24.1 + 30 = 54.1
  //   D 40 s on the held replica, done 42.1
  // neo: (54.1 - 7) s = 47.1 / 3,600 h x $10 an 8-GPU instance-hour x 8 / 8 GPUs = $0.1308333;
  // rented $ = 1 h x $16 (the held replica at the cloud offer) + $0.1308333.
  const auto dir = scratch_dir("request_venues_plan");
  const Json doc = venues_fixture(dir);
  const auto scenario = dir / "s.json";
  std::ofstream(scenario) << doc.dump(2);
  std::string bytes[2];
  for (int k = 0; k < 2; ++k) {
    const auto out = dir / ("r" + std::to_string(k) + ".json");
    const CliResult r = run_cli({"run", scenario.string(), "--out", out.string(), "--threads", k == 0 ? "1" : "3",
                                 "--today", "2026-01-05"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    bytes[k] = file_text(out);
  }
  const std::string one = "\"threads\": 1", three = "\"threads\": 3";
  REQUIRE(contains(bytes[0], one));
  bytes[0].replace(bytes[0].find(one), one.size(), three);
  CHECK(bytes[0] == bytes[1]);
  const Json report = Json::parse(bytes[1]);
  const Json& l = report.at("plans").at(2).at("latency");
  CHECK(l.at("requests").at("served") == 4);
  CHECK(l.at("requests").at("dropped") == 0);
  CHECK(l.at("ttft_s").at("mean").get<double>() == doctest::Approx((0.1 + 1.15 + 20.1 + 0.1) / 4).epsilon(1e-12));
  const Json& neo = l.at("venues").at(0);
  CHECK(neo.at("name") == "neo");
  CHECK(neo.at("tokens_per_path").get<double>() == 1100.0);
  CHECK(neo.at("billed_replica_hours_per_path").get<double>() == doctest::Approx(47.1 / 3600.0).epsilon(1e-12));
  CHECK(neo.at("usd_per_path").get<double>() == doctest::Approx(47.1 / 3600.0 * 10.0).epsilon(1e-12));
  CHECK(l.at("tokens_served_per_path").at("rented").get<double>() == 4200.0);
  CHECK(l.at("rented_usd_per_path").get<double>() == doctest::Approx(16.0 + 47.1 / 360.0).epsilon(1e-12));
  CHECK(contains(l.at("usd_basis").get<std::string>(), "not in the plan's cost"));
  // The owned plan has no venue: C waits its 5 s and is dropped; the plain cloud plan likewise.
  CHECK(report.at("plans").at(0).at("latency").at("requests").at("dropped") == 1);
  CHECK(report.at("plans").at(0).at("latency").at("venues").empty());
}

TEST_CASE("request venues: a venue no plan has, a negative wait, venues without max_wait_s: exit 2 naming the pointer") {
  const auto dir = scratch_dir("request_venues_bad");
  struct Case {
    const char* name;
    Json venues;
    bool drop_max_wait;
    const char* pointer;
  };
  const Case cases[] = {
      {"unknown", {{"nowhere", {{"max_replicas", 1}}}}, false, "/workload/requests/venues/nowhere"},
      {"negative", {{"neo", {{"max_replicas", 1}, {"max_wait_s", -1}}}}, false, "/workload/requests/venues/neo/max_wait_s"},
      {"zero-replicas", {{"neo", {{"max_replicas", 0}}}}, false, "/workload/requests/venues/neo/max_replicas"},
      {"unknown-key", {{"neo", {{"max_replicas", 1}, {"warm", 1}}}}, false, "/workload/requests/venues/neo/warm"},
      {"empty", Json::object(), false, "/workload/requests/venues"},
      {"no-max-wait", {{"neo", {{"max_replicas", 1}}}}, true, "/workload/requests/venues"},
  };
  for (const Case& c : cases) {
    Json doc = venues_fixture(dir);
    doc["workload"]["requests"]["venues"] = c.venues;
    if (c.drop_max_wait) doc["workload"]["requests"].erase("max_wait_s");
    const auto scenario = dir / (std::string(c.name) + ".json");
    std::ofstream(scenario) << doc.dump(2);
    for (const char* command : {"validate", "run"}) {
      const CliResult r = command == std::string("run")
                              ? run_cli({"run", scenario.string(), "--out", (dir / "r.json").string()})
                              : run_cli({"validate", scenario.string()});
      INFO(c.name << " " << command << ": " << r.err << r.out);
      CHECK(r.exit_code == 2);
      CHECK(contains(r.err + r.out, c.pointer));
    }
  }
}

}  // namespace tco::test
