// The shipped MLPerf serving profile and the scenario that uses it (issue 46,
// scenarios/llm-serving-mlperf.json, docs/decisions.md "MLPerf-measured B200s"):
// - the catalog record mlperf/v6.0/deepseek-r1/b200/Google/B200-SXM-180GBx8_TRT, read at the
//   scenario's slo, gives the capacity worked out by hand from the MLPerf v6.0 row
//   (inference_v6.0_summary_results.json /199: Server, 41,027.9 output tokens/s on 8 B200s) and
//   the sequence lengths 803.79:4043.45 (MLPerf's DeepSeek-R1 dataset means);
// - where ../shared/data is present, `throughput import` of that row writes the same points;
// - the scenario validates and runs.
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "core/io/json_reader.hpp"
#include "models/catalog/catalog.hpp"
#include "models/serving/replica_capacity.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

const std::string kMlperfProfile = "mlperf/v6.0/deepseek-r1/b200/Google/B200-SXM-180GBx8_TRT";

const Json* mlperf_record_in(const Json& catalog, const std::string& id) {
  for (const Json& r : catalog.at("records"))
    if (r.at("id") == id) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("mlperf scenario: the shipped B200 profile's capacity at 12.5 tokens/s per user is the MLPerf row's, by hand") {
  const Catalog catalog = Catalog::load(source_path("pricing-data"));
  const CatalogRecord* record = catalog.find("serving_profile", kMlperfProfile);
  REQUIRE(record != nullptr);
  JsonObjectReader reader(record->fields, record->file, record->pointer);
  const ServingProfile profile = parse_serving_profile(reader, kMlperfProfile);
  CHECK(record->fields.at("as_of") == "2026-03-26");  // the v6.0 round's publication date
  CHECK(profile.gpus_per_replica == 8);
  CHECK(profile.input_tokens_per_request == 803.79);
  CHECK(profile.output_tokens_per_request == 4043.45);

  // The scenario's slo: MLPerf's DeepSeek-R1 Server TPOT limit, 80 ms = 1000 / 80 = 12.5 tokens/s
  // per user, the one measured point's interactivity.
  ServingSlo slo;
  slo.min_interactivity_tokens_per_s_per_user = 12.5;
  const ReplicaCapacity c = replica_capacity(profile, slo, kMlperfProfile);
  // The row: 41,027.9 output tokens/s on 1 node x 8 B200s.
  //   output tokens/s per GPU = 41,027.9 / 8                          = 5,128.4875
  //   input tokens/s per GPU  = 5,128.4875 x 803.79 / 4,043.45        = 1,019.48261...
  //   tokens/s per GPU        = 5,128.4875 x (803.79 + 4,043.45) / 4,043.45 = 6,147.97011...
  //   a replica (8 GPUs)      = 41,027.9 x 4,847.24 / 4,043.45        = 49,183.7609 tokens/s
  //   concurrency (ESTIMATE)  = 41,027.9 / 12.5 (users decoding at the limit) = 3,282.232
  const double output_per_gpu = 41027.9 / 8.0;
  CHECK(output_per_gpu == doctest::Approx(5128.4875).epsilon(1e-12));
  const double per_gpu = output_per_gpu * (803.79 + 4043.45) / 4043.45;
  CHECK(c.tokens_per_s_per_gpu == doctest::Approx(per_gpu).epsilon(1e-12));
  CHECK(c.tokens_per_s_per_gpu == doctest::Approx(6147.970112).epsilon(1e-9));
  CHECK(c.gpus_per_replica == 8);
  CHECK(c.replica_tokens_per_s() == doctest::Approx(41027.9 * 4847.24 / 4043.45).epsilon(1e-12));
  CHECK(c.replica_tokens_per_s() == doctest::Approx(49183.7609).epsilon(1e-9));
  CHECK(c.concurrency == doctest::Approx(41027.9 / 12.5).epsilon(1e-12));
  // A replica-hour: 3,600 x 49,183.76 = 177.06M tokens = 36,528.7 requests of 4,847.24 tokens,
  // 10.147 requests/s: the 5 requests/s of the scenario (x1.5 at the day's peak) fit one replica
  // in its first year.
  CHECK(c.replica_tokens_per_s() / 4847.24 == doctest::Approx(41027.9 / 4043.45).epsilon(1e-12));
  // A stricter target than MLPerf measured is refused, not extrapolated.
  slo.min_interactivity_tokens_per_s_per_user = 12.6;
  CHECK_THROWS(replica_capacity(profile, slo, kMlperfProfile));
}

TEST_CASE("mlperf scenario: throughput import of the v6.0 summary writes the shipped profile's point") {
  TCO_REQUIRE_SHARED_DATA();
  const std::string summary = shared_data_path("inference/mlperf/inference_v6.0_summary_results.json");
  const Json rows = read_json_file(summary);
  const Json& row = rows.at(199);
  CHECK(row.at("Model") == "deepseek-r1");
  CHECK(row.at("Submitter") == "Google");
  CHECK(row.at("Scenario") == "Server");
  CHECK(row.at("Performance_Result").get<double>() == 41027.9);
  CHECK(row.at("Total Accelerators").get<int>() == 8);

  const auto dir = scratch_dir("mlperf_scenario");
  const std::string out = (dir / "profiles.json").string();
  const CliResult r = run_cli({"throughput", "import", "--format", "mlperf", summary, "-o", out, "--catalog",
                               source_path("pricing-data"), "--drop-unknown-gpus", "--sequence-lengths",
                               "deepseek-r1=803.79:4043.45"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json imported = read_json_file(out);
  const Json shipped = read_json_file(source_path("pricing-data/serving_profiles.json"));
  const Json* a = mlperf_record_in(imported, kMlperfProfile);
  const Json* b = mlperf_record_in(shipped, kMlperfProfile);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  // Bit for bit but the source, which the shipped record extends with the lengths' provenance.
  CHECK(a->at("points") == b->at("points"));
  CHECK(a->at("as_of") == b->at("as_of"));
  CHECK(b->at("source").get<std::string>().starts_with(a->at("source").get<std::string>()));
}

TEST_CASE("mlperf scenario: llm-serving-mlperf validates and runs") {
  const std::string scenario = source_path("scenarios/llm-serving-mlperf.json");
  const CliResult v = run_cli({"validate", scenario});
  INFO(v.out, v.err);
  CHECK(v.exit_code == 0);
  const auto dir = scratch_dir("mlperf_scenario_run");
  const std::string report = (dir / "report.json").string();
  const CliResult r = run_cli({"run", scenario, "--out", report, "--quiet"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Json j = read_json_file(report);
  REQUIRE(j.at("plans").size() == 5);
  for (const Json& p : j.at("plans")) {
    INFO(p.at("name").get<std::string>());
    CHECK(p.at("npv_usd").get<double>() > 0.0);
  }
}

}  // namespace tco::test
