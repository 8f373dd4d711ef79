// `tcosim throughput import --format mlperf` (models/importers/serving/throughput_import.hpp): the
// hand-made rows of tests/fixtures/serving/mlperf_rows.json give the records worked out below; the
// real MLPerf v5.1 and v6.0 summaries in ../shared/data/inference/mlperf import, every row a point
// or a counted drop; malformed files exit 2 naming the file and the JSON pointer, and write nothing.
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "core/io/json_reader.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "import_test_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

const std::string kCatalog = source_path("pricing-data");

const Json* record_of(const Json& catalog, const std::string& id) {
  for (const Json& r : catalog.at("records"))
    if (r.at("id") == id) return &r;
  return nullptr;
}

CliResult import_mlperf(const std::vector<std::string>& files, const std::string& out,
                        const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"throughput", "import", "--format", "mlperf"};
  args.insert(args.end(), files.begin(), files.end());
  args.insert(args.end(), {"-o", out, "--catalog", kCatalog});
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

// A minimal Server row of an 8-GPU node, `field` replaced by `value` (raw JSON).
std::string server_row(const std::string& field = "", const std::string& value = "") {
  Json row = {{"Submitter", "Acme"}, {"Platform", "p"}, {"Model", "llama2-70b-99"}, {"Scenario", "Server"},
              {"Nodes", 1}, {"Accelerator", "NVIDIA H200-SXM-141GB"}, {"a#", 8}, {"Software", "vLLM 0.10"},
              {"version", "v5.1"}, {"weight_data_types", "fp8"}, {"Performance_Result", 32000.0},
              {"Performance_Units", "Tokens/s"}};
  if (!field.empty()) row[field] = Json::parse(value);
  return "[" + row.dump() + "]";
}

}  // namespace

TEST_CASE("throughput import mlperf: hand-made rows, concurrency estimated from the TPOT limit, drops counted") {
  const auto dir = scratch_dir("throughput_mlperf");
  const std::string out = (dir / "profiles.json").string();
  const CliResult r = import_mlperf({source_path("tests/fixtures/serving/mlperf_rows.json")}, out,
                                    {"--drop-unknown-gpus", "--sequence-lengths", "llama2-70b=1000:250",
                                     "--sequence-lengths", "deepseek-r1=800:3600"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // 9 rows: 3 points (H200 Server, H200 Interactive, B200 Server) + one drop for each reason.
  CHECK(r.out.find("wrote 2 serving_profile records") != std::string::npos);
  CHECK(r.out.find("9 rows read: 3 points, 6 dropped: 1 an Offline or other scenario without latency limits, "
                   "1 a unit other than Tokens/s, 1 a CPU-only system, 1 a heterogeneous system, 1 a GPU not in "
                   "the catalog, 1 a benchmark without known latency limits") != std::string::npos);
  const Json catalog = read_json_file(out);
  const Json* h200 = record_of(catalog, "mlperf/v5.1/llama2-70b-99/h200-sxm-141gb/Acme/acme_h200x8_trt");
  REQUIRE(h200 != nullptr);
  CHECK(h200->at("model") == "llama2-70b");
  CHECK(h200->at("framework") == "TensorRT 10.11");
  CHECK(h200->at("precision") == "fp8");
  CHECK(h200->at("gpus_per_replica") == 8);  // one node
  CHECK(h200->at("as_of") == "2025-09-09");  // v5.1's publication
  CHECK(h200->at("source").get<std::string>().find("ESTIMATE") != std::string::npos);
  // The date is the round's publication, not a run of the benchmark.
  CHECK(h200->at("source").get<std::string>().find("points measured, published 2025-09-09") != std::string::npos);
  const Json& points = h200->at("points");
  REQUIRE(points.size() == 2);
  // Interactive: 12,000 / 8 GPUs = 1,500 output tokens/s per GPU; input 1,500 x 1000 / 250 = 6,000;
  // total 7,500. TPOT limit 40 ms: 1000 / 40 = 25 tokens/s per user; concurrency 1,500 x 8 / 25 = 480.
  CHECK(points[0].at("concurrency").get<double>() == doctest::Approx(480.0).epsilon(1e-12));
  CHECK(points[0].at("output_tokens_per_s_per_gpu").get<double>() == doctest::Approx(1500.0).epsilon(1e-12));
  CHECK(points[0].at("input_tokens_per_s_per_gpu").get<double>() == doctest::Approx(6000.0).epsilon(1e-12));
  CHECK(points[0].at("tokens_per_s_per_gpu").get<double>() == doctest::Approx(7500.0).epsilon(1e-12));
  CHECK(points[0].at("interactivity_tokens_per_s_per_user").get<double>() == doctest::Approx(25.0).epsilon(1e-12));
  CHECK(points[0].at("p99_ttft_ms").get<double>() == 450.0);
  CHECK(points[0].at("p99_tpot_ms").get<double>() == 40.0);
  CHECK(!points[0].contains("median_tpot_ms"));
  // Server: 32,000 / 8 = 4,000 output + 16,000 input = 20,000 per GPU; 1000 / 200 ms = 5 per user;
  // concurrency 4,000 x 8 / 5 = 6,400.
  CHECK(points[1].at("concurrency").get<double>() == doctest::Approx(6400.0).epsilon(1e-12));
  CHECK(points[1].at("tokens_per_s_per_gpu").get<double>() == doctest::Approx(20000.0).epsilon(1e-12));
  CHECK(points[1].at("interactivity_tokens_per_s_per_user").get<double>() == doctest::Approx(5.0).epsilon(1e-12));
  CHECK(points[1].at("p99_ttft_ms").get<double>() == 2000.0);
  // "NVIDIA B200-SXM-180GB" is the catalog's "b200" (the name starts with "b200-"); 2 nodes of 8:
  // 48,000 / 16 = 3,000 output tokens/s per GPU, input 3,000 x 800 / 3,600 = 666.67; 1000 / 80 ms =
  // 12.5 per user; concurrency 3,000 x 8 / 12.5 = 1,920 per 8-GPU replica.
  const Json* b200 = record_of(catalog, "mlperf/v6.0/deepseek-r1/b200/Acme/acme_b200x16_trt");
  REQUIRE(b200 != nullptr);
  CHECK(b200->at("gpus_per_replica") == 8);
  CHECK(b200->at("as_of") == "2026-03-26");
  const Json& b = b200->at("points")[0];
  CHECK(b.at("concurrency").get<double>() == doctest::Approx(1920.0).epsilon(1e-12));
  CHECK(b.at("tokens_per_s_per_gpu").get<double>() == doctest::Approx(3000.0 + 3000.0 * 800.0 / 3600.0).epsilon(1e-12));
  CHECK(b.at("interactivity_tokens_per_s_per_user").get<double>() == doctest::Approx(12.5).epsilon(1e-12));
  CHECK(validate_catalog_files({out}).empty());
}

TEST_CASE("throughput import mlperf: an unknown GPU or round, or a malformed row, is exit 2 at its pointer") {
  const auto dir = scratch_dir("throughput_mlperf_bad");
  const std::string out = (dir / "profiles.json").string();
  const std::vector<std::string> lengths = {"--sequence-lengths", "llama2-70b=1000:250"};
  // Without --drop-unknown-gpus the MI355X row stops the import, naming the GPU and the row.
  CliResult r = import_mlperf({source_path("tests/fixtures/serving/mlperf_rows.json")}, out,
                              {"--sequence-lengths", "llama2-70b=1000:250", "--sequence-lengths", "deepseek-r1=8:36"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("mlperf_rows.json") != std::string::npos);
  CHECK(r.err.find("/7/Accelerator") != std::string::npos);
  CHECK(r.err.find("AMD Instinct MI355X 288GB HBM3e") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  const std::vector<BadInput> inputs = {
      {"result a string", server_row("Performance_Result", "\"fast\""), "/0/Performance_Result"},
      {"a# not whole", server_row("a#", "8.5"), "/0/a#"},
      {"scenario a number", server_row("Scenario", "3"), "/0/Scenario"},
      {"a round without a date", server_row("version", "\"v9.9\""), "/0/version"},
      {"a row not an object", "[7]", "/0"},
      {"not an array", "{\"rows\": []}", "MLPerf"},
      {"cut JSON", "[{\"Model\": ", "line 1"},
  };
  for (const BadInput& input : inputs) {
    INFO(input.name);
    r = import_mlperf({write_file(dir, "bad.json", input.text)}, out, lengths);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("bad.json") != std::string::npos);
    CHECK(r.err.find(input.where) != std::string::npos);
    CHECK(!std::filesystem::exists(out));
  }
  // A good row, a bad --sequence-lengths.
  for (const char* bad : {"llama2-70b=1000", "llama2-70b=0:250", "=1:2", "llama2-70b=1:2x"}) {
    INFO(bad);
    r = import_mlperf({write_file(dir, "good.json", server_row())}, out, {"--sequence-lengths", bad});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--sequence-lengths") != std::string::npos);
    CHECK(!std::filesystem::exists(out));
  }
}

TEST_CASE("throughput import mlperf: the real v5.1 and v6.0 summaries (../shared/data/inference)") {
  TCO_REQUIRE_SHARED_DATA();
  const auto dir = scratch_dir("throughput_real_mlperf");
  const std::string out = (dir / "profiles.json").string();
  const CliResult r =
      import_mlperf({shared_data_path("inference/mlperf/inference_v6.0_summary_results.json"),
                     shared_data_path("inference/mlperf/inference_v5.1_summary_results_llm.json")},
                    out, {"--drop-unknown-gpus", "--sequence-lengths", "llama2-70b=1000:250"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // 520 + 416 = 936 rows: 81 llama2-70b Server/Interactive points on catalog GPUs (b200 42, h200
  // 33, h100 6); 855 dropped: 349 Offline or single/multi-stream, 146 in Samples/s, Queries/s or
  // latency units, 12 CPU-only, 11 heterogeneous, 176 other benchmarks (no --sequence-lengths
  // given), 161 GPUs not in the catalog (B300, GB200, MI355X, H200-NVL, ...). 81 + 855 = 936.
  CHECK(r.out.find("936 rows read: 81 points, 855 dropped") != std::string::npos);
  for (const char* part : {"349 an Offline or other scenario", "146 a unit other than Tokens/s", "12 a CPU-only",
                           "11 a heterogeneous system", "176 a benchmark without --sequence-lengths",
                           "161 a GPU not in the catalog"})
    CHECK(r.out.find(part) != std::string::npos);
  const Json catalog = read_json_file(out);
  // v5.1 rows 50 and 52: Cisco C885_H200x8_TRT, llama2-70b-99, one node of 8 H200.
  const Json* cisco = record_of(catalog, "mlperf/v5.1/llama2-70b-99/h200-sxm-141gb/Cisco/C885_H200x8_TRT");
  REQUIRE(cisco != nullptr);
  const Json& points = cisco->at("points");
  REQUIRE(points.size() == 2);
  // Interactive 19,621.9 tokens/s / 8 = 2,452.7375 per GPU; x 8 / (1000 / 40 ms) = 784.876.
  CHECK(points[0].at("output_tokens_per_s_per_gpu").get<double>() == doctest::Approx(2452.7375).epsilon(1e-12));
  CHECK(points[0].at("concurrency").get<double>() == doctest::Approx(784.876).epsilon(1e-12));
  // Server 33,163.3 / 8 = 4,145.4125; total x (1000 + 250) / 250 = 20,727.0625; x 8 / 5 = 6,632.66.
  CHECK(points[1].at("tokens_per_s_per_gpu").get<double>() == doctest::Approx(20727.0625).epsilon(1e-12));
  CHECK(points[1].at("concurrency").get<double>() == doctest::Approx(6632.66).epsilon(1e-12));
  // v5.1 row 65: Cisco HGX-H100 x32, 4 nodes: 122,274 / 32 = 3,821.0625 per GPU; a replica is one
  // node of 8: concurrency 3,821.0625 x 8 / 5 = 6,113.7.
  const Json* h100 = record_of(catalog, "mlperf/v5.1/llama2-70b-99/h100-sxm-80gb/Cisco/HGX-H100_H100-SXM-80GBx32_TRT");
  REQUIRE(h100 != nullptr);
  CHECK(h100->at("gpus_per_replica") == 8);
  CHECK(h100->at("points")[0].at("concurrency").get<double>() == doctest::Approx(6113.7).epsilon(1e-12));
  for (const Finding& f : validate_catalog_files({out})) {
    INFO(f.code << ": " << f.where << ": " << f.message);
    CHECK(f.severity == Finding::Severity::warning);
  }
}

}  // namespace tco::test
