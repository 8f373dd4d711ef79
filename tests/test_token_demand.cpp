// Token demand in a scenario's workload (models/serving/token_demand.hpp): a steady request
// rate served with an inline serving profile becomes the hourly GPU series worked out below;
// `validate`, `run` and the schema take the same token scenario; a target the profile cannot meet
// is exit 2 at /workload/tokens/slo naming the profile and its range.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "models/scenario.hpp"
#include "models/serving/token_demand.hpp"
#include "cli_test_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

// tests/fixtures/scenarios/tokens.json: 8 GPUs a replica; points (16, 150 tokens/s/GPU, TPOT 25
// ms = 40 tokens/s/user, p90 TTFT 500 ms) and (32, 200, TPOT 40 ms = 25, 900 ms); the target's
// interactivity set to `min_interactivity`.
Json token_scenario(double min_interactivity) {
  Json s = read_json_file(source_path("tests/fixtures/scenarios/tokens.json"));
  s["workload"]["tokens"]["slo"]["min_interactivity_tokens_per_s_per_user"] = min_interactivity;
  return s;
}

std::string write_scenario(const std::filesystem::path& dir, const Json& scenario) {
  const std::string path = (dir / "tokens.json").string();
  std::ofstream(path) << scenario.dump(2);
  return path;
}

}  // namespace

TEST_CASE("token demand: a steady request rate becomes whole replicas of GPUs in every hour") {
  const Scenario s = load_scenario_json(token_scenario(30.0), "tokens.json", source_path("tests/fixtures/scenarios"),
                                        source_path("tests/fixtures/catalog"));
  REQUIRE(s.workload.tokens != nullptr);
  // Target 30 tokens/s per user between 16 (40) and 32 (25): t = 10/15, 183.33 tokens/s per GPU,
  // 1,466.67 per replica of 8, 5,280,000 tokens a replica-hour.
  // 100 requests/s x 3,600 s x (2,000 + 400) tokens = 864,000,000 tokens an hour;
  // 864e6 / 5.28e6 = 163.64 -> 164 replicas = 1,312 GPUs (ref-gpu: perf_relative 1).
  const TokenHours hours = token_hours(*s.workload.tokens, 3, s.calendar);
  CHECK(hours.tokens[0] == doctest::Approx(864e6).epsilon(1e-12));
  CHECK(hours.gpus[0] == 1312.0);
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, 48, s.calendar);
  CHECK(demand[0] == 1312.0);
  CHECK(demand[47] == 1312.0);
}

TEST_CASE("token demand: validate and run take the same token scenario, an unmeetable target is exit 2") {
  const auto dir = scratch_dir("token_scenario");
  const std::string catalog = source_path("tests/fixtures/catalog");
  const std::string ok = write_scenario(dir, token_scenario(30.0));
  const CliResult validated = run_cli({"validate", ok, "--catalog", catalog});
  INFO(validated.out << validated.err);
  CHECK(validated.exit_code == 0);
  const CliResult ran = run_cli({"run", ok, "--catalog", catalog, "--out", (dir / "r.json").string(), "--quiet",
                                 "--today", "2026-01-05"});
  INFO(ran.err);
  CHECK(ran.exit_code == 0);

  // 60 tokens/s per user: even concurrency 16 serves only 40.
  const std::string bad = write_scenario(dir, token_scenario(60.0));
  for (const char* command : {"validate", "run"}) {
    std::vector<std::string> args = {command, bad, "--catalog", catalog};
    if (std::string(command) == "run") args.insert(args.end(), {"--out", (dir / "bad.json").string()});
    const CliResult r = run_cli(args);
    INFO(command << ": " << r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK((r.out + r.err).find("/workload/tokens/slo") != std::string::npos);
    CHECK((r.out + r.err).find("concurrency 16 to 32") != std::string::npos);
  }
  CHECK(!std::filesystem::exists(dir / "bad.json"));

  // A profile of requests that gives GPUs is refused at its pointer.
  Json gpus = token_scenario(30.0);
  gpus["workload"]["tokens"]["requests_per_second"]["profiles"][0]["gpus"] = 4;
  const CliResult g = run_cli({"validate", write_scenario(dir, gpus), "--catalog", catalog});
  CHECK(g.exit_code == 2);
  CHECK((g.out + g.err).find("/workload/tokens/requests_per_second/profiles/0/gpus") != std::string::npos);
}

}  // namespace tco::test
