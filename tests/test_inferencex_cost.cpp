// One published InferenceX cost per million tokens reproduced by tcosim (issue 46): the real
// DeepSeek-R1 rows of ../shared/data/inference/inferencex/benchmarks.json imported as a serving
// profile, served by a rented fleet at InferenceX's own $/GPU-hour, through the whole run (the
// replica at the latency target, whole replicas an hour, the cloud bill, the report's $/M tokens).
// Skipped with a message where ../shared/data is absent.
//
// Which figure. The data holds throughput, not costs. InferenceX prices a point as
//   $/M tokens = $/GPU-hour / (tokens/s per GPU x 3,600 / 1e6)
// (createChartDataPoint, packages/app/src/lib/chart-utils.ts of SemiAnalysisAI/InferenceX-app,
// its `costh` series) at its hyperscaler tier for the H200, $1.41 per GPU-hour (GPU_SPECS,
// packages/app/src/lib/constants.ts of the same repository, "SemiAnalysis Market Pricing Surveys
// & AI Cloud TCO Model"). Its dashboard therefore shows, for the H200 SGLang FP8 1k/8k point at
// concurrency 8 (89.77 tokens/s per GPU, 81.9 tokens/s per user):
//   1.41 / (89.77 x 3,600 / 1e6) = $4.363 per million tokens,
// the figure this test reproduces within 1%. The one $/M figure we found published in words is
// NVIDIA's blog "Rethinking AI TCO: Why Cost per Token Is the Only Metric That Matters" (April
// 2026, blogs.nvidia.com; read at https://www.vainsoftgames.com/article/20204 and summarised at
// https://en.theblockbeats.news/flash/343757), which quotes SemiAnalysis InferenceX for
// DeepSeek-R1 on HGX H200: $1.41 per GPU-hour, "90" tokens/s per GPU, $4.20 per million tokens.
// Its throughput is rounded (1.41e6 / (3,600 x 90) = $4.35, not $4.20), so it cannot be reproduced
// to 1%; the check below holds it to 4%.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/io/json_reader.hpp"
#include "test_support.hpp"

namespace tco::test {

TEST_CASE("tokens: InferenceX's $/M tokens for DeepSeek-R1 on H200 at $1.41 per GPU-hour, reproduced within 1%") {
  TCO_REQUIRE_SHARED_DATA();
  const auto dir = scratch_dir("inferencex_cost");
  const std::string catalog = source_path("pricing-data");
  const std::string profiles = (dir / "profiles.json").string();
  const CliResult imported =
      run_cli({"throughput", "import", "--format", "inferencex",
               shared_data_path("inference/inferencex/benchmarks.json"), "-o", profiles, "--catalog", catalog,
               "--drop-unknown-gpus"});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const Json catalog_file = read_json_file(profiles);
  Json profile;
  for (const Json& r : catalog_file.at("records"))
    if (r.at("id") == "inferencex/dsr1/h200/sglang/fp8/1024-8192/tp8ep1") profile = r;
  REQUIRE(profile.is_object());
  profile.erase("id");
  Json point;
  for (const Json& p : profile.at("points"))
    if (p.at("concurrency").get<double>() == 8.0) point = p;
  REQUIRE(point.is_object());
  const double tokens_per_s_per_gpu = point.at("tokens_per_s_per_gpu").get<double>();  // 89.77
  CHECK(tokens_per_s_per_gpu == doctest::Approx(89.77).epsilon(1e-4));

  // A target at concurrency 8's own interactivity reads the replica there: 8 GPUs x 89.77 tokens/s.
  // Ten replicas' worth of 1,024 + 8,192-token requests (a hair under, so that ceil gives 10):
  // 80 H200 rented every hour as 10 instances of 8 at 8 x $1.41 = $11.28 an hour.
  const double replica_tokens_per_s = 8.0 * tokens_per_s_per_gpu;
  const double requests_per_s = 10.0 * replica_tokens_per_s / (1024.0 + 8192.0) * (1.0 - 1e-9);
  const Json scenario = {
      {"name", "inferencex-h200-cost"},
      {"start", "2026-06-01"},
      {"horizon_months", 1},
      {"discount_rate_per_year", 0.0},
      {"catalog_dir", catalog},
      {"workload",
       {{"tokens",
         {{"requests_per_second", {{"profiles", {{{"type", "steady"}, {"requests_per_second", requests_per_s}}}}}},
          {"input_tokens_per_request", 1024},
          {"output_tokens_per_request", 8192},
          {"slo", {{"min_interactivity_tokens_per_s_per_user",
                    point.at("interactivity_tokens_per_s_per_user").get<double>()}}},
          {"serving_profile", profile}}}}},
      {"cloud",
       {{"offer",
         {{"provider", "inferencex"}, {"instance_type", "h200x8"}, {"region", "hyperscaler-tier"},
          {"gpu_model", "h200-sxm-141gb"}, {"gpus_per_instance", 8}, {"on_demand_usd_per_hour", 8 * 1.41},
          {"source", "InferenceX hyperscaler tier for H200, $1.41 per GPU-hour (InferenceX-app GPU_SPECS)"},
          {"as_of", "2026-06-14"}}}}},
      {"plans", {{{"name", "rent-h200"}, {"kind", "cloud"}}}},
      {"baseline", "rent-h200"}};
  const std::string scenario_path = (dir / "scenario.json").string();
  std::ofstream(scenario_path) << scenario.dump(2);
  const std::string report_path = (dir / "report.json").string();
  const CliResult ran = run_cli({"run", scenario_path, "--out", report_path, "--quiet", "--today", "2026-06-14"});
  INFO(ran.out << ran.err);
  REQUIRE(ran.exit_code == 0);
  const Json report = read_json_file(report_path);
  const Json& tokens = report.at("plans").at(0).at("tokens");
  CHECK(tokens.at("replicas_at_peak").get<double>() == 10.0);
  const double usd_per_million =
      tokens.at("usd_per_million_tokens").at("reservation_basis").at("blended").get<double>();
  // InferenceX's costh for the point: 1.41 / (89.77 x 3,600 / 1e6) = 4.363.
  const double inferencex_usd_per_million = 1.41 / (tokens_per_s_per_gpu * 3600.0 / 1e6);
  CHECK(usd_per_million == doctest::Approx(inferencex_usd_per_million).epsilon(0.01));
  // NVIDIA's published $4.20 (a rounded 90 tokens/s): within 4%.
  CHECK(usd_per_million == doctest::Approx(4.20).epsilon(0.04));
}

}  // namespace tco::test
