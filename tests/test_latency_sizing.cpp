// `tcosim optimize --latency-replicas` (engine/decisions/latency_sizing.hpp, issue 47 item 5): the
// cheapest owned replica count whose share of requests within the slo reaches the target, on a
// burst whose shares are written out by hand, and the probability rule over paths.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "engine/decisions/latency_sizing.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

// Six requests of 1,000 + 100 tokens, 0.01 s apart, on the latency fixture's profile at one slot a
// replica: prefill 1,000 x p(1) = 1,000 x 1e-4 = 0.1 s, decode 100 / r(1) = 100 / 50 = 2 s. The
// least-active router sends the first R to R idle replicas (TTFT 0.1 s); each later one waits
// for a replica to free at 2.1 s after its first: TTFT >= 2.1 - 0.05 + 0.1 = 2.15 s, past the
// 1 s target. So the share within the slo on R replicas is min(R, 6) / 6 (one node of 8 GPUs holds
// one replica of 8: N(R) = R).
std::filesystem::path burst_scenario(const std::string& name) {
  const auto dir = scratch_dir(name);
  std::ofstream(dir / "burst.csv") << "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                      "2023-11-16 18:00:00.00,1000,100\n2023-11-16 18:00:00.01,1000,100\n"
                                      "2023-11-16 18:00:00.02,1000,100\n2023-11-16 18:00:00.03,1000,100\n"
                                      "2023-11-16 18:00:00.04,1000,100\n2023-11-16 18:00:00.05,1000,100\n";
  std::ofstream(dir / "burst_tokens.csv") << "time_h,requests,input_tokens,output_tokens\n0,6,6000,600\n";
  Json doc = read_json_file(source_path("tests/fixtures/scenarios/latency/latency.json"));
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  doc["workload"]["tokens"]["series"]["file"] = "burst_tokens.csv";
  doc["workload"]["tokens"]["slo"]["max_p90_ttft_ms"] = 1000;
  // The hourly model reads the TTFT target from the profile's p90s (the replay from each request).
  doc["workload"]["tokens"]["serving_profile"]["points"][0]["p90_ttft_ms"] = 100;
  doc["workload"]["tokens"]["serving_profile"]["points"][1]["p90_ttft_ms"] = 200;
  doc["workload"]["requests"] = {{"hours", 1}, {"max_concurrency", 1},
                                 {"trace", {{"file", "burst.csv"}, {"format", "azure-llm"}}}};
  std::ofstream(dir / "burst.json") << doc.dump(2);
  return dir / "burst.json";
}

LatencySizingResult size_burst(const std::filesystem::path& file, double share) {
  LatencySizingOptions o;
  o.replicas = {1, 8, 1};
  o.slo_share = share;
  return optimize_latency_replicas(read_json_file(file.string()), file.string(), file.parent_path().string(), "", o);
}

}  // namespace

TEST_CASE("latency sizing: the fewest replicas whose share within the slo reaches the target, by hand") {
  const auto file = burst_scenario("latency_sizing_burst");
  const LatencySizingResult r = size_burst(file, 0.99);
  REQUIRE(r.points.size() == 8);
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const LatencySizingPoint& p = r.points[i];
    const long replicas = static_cast<long>(i) + 1;
    INFO("replicas " << replicas);
    CHECK(p.nodes == replicas);
    CHECK(p.owned_replicas == replicas);
    REQUIRE(p.min_share_within_slo);
    CHECK(*p.min_share_within_slo == doctest::Approx(std::min(replicas, 6L) / 6.0).epsilon(1e-15));
    CHECK(p.meets == (replicas >= 6));  // 5 / 6 = 0.833 < 0.99 <= 6 / 6
    if (i > 0) CHECK(p.npv_usd > r.points[i - 1].npv_usd);  // each node costs: fewer is cheaper
  }
  // Chosen: 6 nodes. Without the share check the cheapest point, 1 node, would be.
  REQUIRE(r.chosen);
  CHECK(r.points[*r.chosen].nodes == 6);
  // At a 50% target: 3 / 6 = 0.5 reaches it, 2 / 6 does not.
  const LatencySizingResult half = size_burst(file, 0.5);
  REQUIRE(half.chosen);
  CHECK(half.points[*half.chosen].nodes == 3);
  CHECK_FALSE(half.points[1].meets);
}

TEST_CASE("latency sizing: a point meets the share on the asked share of paths, counted") {
  // Target 0.99: 1, 0.995 and 0.999 reach it, 0.98 does not: 3 of 4 paths.
  const std::vector<double> shares = {1.0, 0.98, 0.995, 0.999};
  CHECK(meets_slo_share(shares, 0.99, 0.75));
  CHECK_FALSE(meets_slo_share(shares, 0.99, 0.8));
  CHECK_FALSE(meets_slo_share(shares, 0.99, 1.0));  // every path: the default
  CHECK(meets_slo_share(shares, 0.98, 1.0));        // 0.98 >= 0.98 on the worst path
  CHECK_FALSE(meets_slo_share({}, 0.5, 0.5));
}

TEST_CASE("latency sizing: optimize --latency-replicas writes the section, and bad options are exit 2") {
  const auto file = burst_scenario("latency_sizing_cli");
  const auto out = file.parent_path() / "r.json";
  const CliResult r = run_cli({"optimize", file.string(), "--latency-replicas", "4:7", "--slo-share", "0.99", "--out",
                               out.string(), "--today", "2026-01-05", "--quiet"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file(out.string());
  const Json& sizing = report.at("latency_sizing");
  CHECK(sizing.at("points").size() == 4);
  CHECK(sizing.at("chosen").at("nodes") == 6);
  CHECK(sizing.at("points").at(1).at("mean_share_within_slo").get<double>() == doctest::Approx(5.0 / 6.0).epsilon(1e-15));
  struct Case {
    std::vector<std::string> args;
    const char* where;
  };
  const Case cases[] = {
      {{"--latency-replicas", "1:3", "--slo-share", "1.5"}, "--slo-share"},
      {{"--latency-replicas", "1:3", "--slo-probability", "0"}, "--slo-probability"},
      {{"--latency-replicas", "3:1"}, "--latency-replicas"},
      {{"--latency-replicas", "1:3", "--nodes", "1:3"}, "--latency-replicas"},
      {{"--latency-replicas", "1:3", "--wait-thresholds-s", "1,2"}, "rented_scaling"},
      {{"--latency-replicas", "1:3", "--plan", "cloud"}, "--plan"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"optimize", file.string(), "--today", "2026-01-05", "--quiet"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliResult bad = run_cli(args);
    INFO(c.where << ": " << bad.err);
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, c.where));
  }
}

}  // namespace tco::test
