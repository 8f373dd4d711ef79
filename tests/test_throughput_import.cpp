// `tcosim throughput import` (models/importers/serving/throughput_import.hpp) and the
// serving_profile record (models/serving/serving_profile.hpp): hand-made rows give the records
// worked out below; the real InferenceX and vLLM files in ../shared/data/inference/ import and
// validate; malformed files exit 2 naming the file and the JSON pointer or line, and write nothing.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "models/catalog/catalog_validation.hpp"
#include "models/serving/serving_profile.hpp"
#include "core/io/json_reader.hpp"
#include "import_test_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

const std::string kCatalog = source_path("pricing-data");

Json read_json(const std::string& path) { return read_json_file(path); }

const Json* record_of(const Json& catalog, const std::string& id) {
  for (const Json& r : catalog.at("records"))
    if (r.at("id") == id) return &r;
  return nullptr;
}

// An InferenceX row as the API writes it (latencies in seconds).
std::string row(const std::string& hardware, double conc, const std::string& tput, int tp = 8,
                const std::string& extra = "") {
  return "{\"hardware\": \"" + hardware + "\", \"framework\": \"sglang\", \"model\": \"dsr1\", \"precision\": \"fp8\", " +
         "\"spec_method\": \"none\", \"disagg\": false, \"prefill_tp\": " + std::to_string(tp) +
         ", \"decode_tp\": " + std::to_string(tp) + ", \"prefill_ep\": 1, \"decode_ep\": 1, \"isl\": 1024, " +
         "\"osl\": 1024, \"conc\": " + std::to_string(conc) + ", \"date\": \"2026-03-25\"" + extra +
         ", \"metrics\": {\"tput_per_gpu\": " + tput +
         ", \"input_tput_per_gpu\": 100, \"output_tput_per_gpu\": 200, \"median_tpot\": 0.025, " +
         "\"median_ttft\": 0.2, \"p90_ttft\": 0.5}}";
}

std::string without(std::string text, const std::string& part) {
  return text.erase(text.find(part), part.size());
}

}  // namespace

TEST_CASE("throughput import inferencex: hand-made rows become one profile per configuration, drops counted") {
  const auto dir = scratch_dir("throughput_inferencex");
  const std::string file = write_file(dir, "rows.json",
      "[" + row("h100", 4, "300") + ", " + row("h100", 16, "900") + ", " +
      row("h100", 16, "950") + ", " +       // the same concurrency again: dropped
      row("h100", 32, "null") + ", " +      // no throughput: dropped
      row("h100", 64, "1200", 0) + ", " +   // decode_tp 0: an impossible GPU count
      row("mi355x", 4, "500") + "]");       // not in the catalog: dropped with --drop-unknown-gpus
  const std::string out = (dir / "profiles.json").string();
  const CliResult r = run_cli({"throughput", "import", "--format", "inferencex", file, "-o", out, "--catalog", kCatalog,
                               "--drop-unknown-gpus"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // 6 rows read = 2 points + 4 dropped (one per reason).
  CHECK(r.out.find("6 rows read: 2 points, 4 dropped") != std::string::npos);
  CHECK(r.err.find("1 dropped: no throughput") != std::string::npos);
  CHECK(r.err.find("1 dropped: an impossible GPU count") != std::string::npos);
  CHECK(r.err.find("1 dropped: a GPU not in the catalog") != std::string::npos);
  CHECK(r.err.find("1 dropped: a concurrency already measured for its configuration") != std::string::npos);
  const Json catalog = read_json(out);
  CHECK(catalog.at("kind") == "serving_profile");
  REQUIRE(catalog.at("records").size() == 1);
  const Json* p = record_of(catalog, "inferencex/dsr1/h100/sglang/fp8/1024-1024/tp8ep1");
  REQUIRE(p != nullptr);
  CHECK(p->at("gpu_model") == "h100-sxm-80gb");  // "h100" matches the one id starting "h100-"
  CHECK(p->at("gpus_per_replica") == 8);
  CHECK(p->at("as_of") == "2026-03-25");
  const Json& points = p->at("points");
  REQUIRE(points.size() == 2);
  CHECK(points[1].at("concurrency").get<double>() == 16.0);
  CHECK(points[1].at("tokens_per_s_per_gpu").get<double>() == 900.0);  // the first row at 16 holds
  // median TPOT 0.025 s x 1000 = 25 ms; interactivity = 1000 / 25 = 40 tokens/s per user;
  // p90 TTFT 0.5 s = 500 ms.
  CHECK(points[1].at("median_tpot_ms").get<double>() == doctest::Approx(25.0).epsilon(1e-12));
  CHECK(points[1].at("interactivity_tokens_per_s_per_user").get<double>() == doctest::Approx(40.0).epsilon(1e-12));
  CHECK(points[1].at("p90_ttft_ms").get<double>() == doctest::Approx(500.0).epsilon(1e-12));
  CHECK(validate_catalog_files({out}).empty());
}

TEST_CASE("throughput import inferencex: a GPU the catalog lacks is an error naming it, unless mapped") {
  const auto dir = scratch_dir("throughput_unknown_gpu");
  const std::string file = write_file(dir, "rows.json", "[" + row("h100", 4, "300") + ", " + row("gb200", 4, "500") + "]");
  const std::string out = (dir / "profiles.json").string();
  const CliResult r =
      run_cli({"throughput", "import", "--format", "inferencex", file, "-o", out, "--catalog", kCatalog});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("rows.json: /1/hardware: GPU \"gb200\" is not a gpu id of the catalog") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  const CliResult mapped = run_cli({"throughput", "import", "--format", "inferencex", file, "-o", out, "--catalog",
                                    kCatalog, "--gpu-map", "gb200=b200"});
  CHECK(mapped.exit_code == 0);
  CHECK(read_json(out).at("records").size() == 2);
}

TEST_CASE("throughput import: malformed files exit 2 naming the file and the pointer, and write nothing") {
  const auto dir = scratch_dir("throughput_malformed");
  const std::string out = (dir / "profiles.json").string();
  const std::vector<BadInput> inferencex = {
      {"hardware not a string", "[{\"hardware\": 5}]", "/0/hardware"},
      {"a row not an object", "[" + row("h100", 4, "300") + ", 7]", "/1"},
      {"isl a string", "[" + without(row("h100", 4, "300", 8, ", \"isl\": \"long\""), "\"isl\": 1024, ") + "]",
       "/0/isl"},
      {"metrics not an object",
       "[{\"hardware\": \"h100\", \"framework\": \"f\", \"model\": \"m\", \"precision\": \"p\", \"metrics\": 3}]",
       "/0/metrics"},
      {"cut JSON", "[{\"hardware\": \"h100\"", "line 1"},
      {"not an array", "{\"rows\": []}", "InferenceX"},
  };
  for (const BadInput& input : inferencex) {
    INFO(input.name);
    const CliResult r = run_cli({"throughput", "import", "--format", "inferencex", write_file(dir, "bad.json", input.text),
                                 "-o", out, "--catalog", kCatalog});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("bad.json") != std::string::npos);
    CHECK(r.err.find(input.where) != std::string::npos);
    CHECK(!std::filesystem::exists(out));
  }
  const std::vector<BadInput> vllm = {
      {"max_concurrency a string", "{\"date\": \"20260428-095035\", \"max_concurrency\": \"x\"}", "/max_concurrency"},
      {"median_tpot_ms a string",
       "{\"date\": \"20260428-095035\", \"model_id\": \"m\", \"max_concurrency\": 4, \"completed\": 40, "
       "\"total_input_tokens\": 40960, \"total_output_tokens\": 40960, \"total_token_throughput\": 900, "
       "\"output_throughput\": 450, \"median_tpot_ms\": \"fast\"}",
       "/median_tpot_ms"},
      {"no date",
       "{\"model_id\": \"m\", \"max_concurrency\": 4, \"completed\": 40, \"total_input_tokens\": 40960, "
       "\"total_output_tokens\": 40960, \"total_token_throughput\": 900}",
       "/date"},
  };
  for (const BadInput& input : vllm) {
    INFO(input.name);
    const CliResult r = run_cli({"throughput", "import", "--format", "vllm-bench", write_file(dir, "bad.json", input.text),
                                 "-o", out, "--catalog", kCatalog, "--gpu", "h100-sxm-80gb", "--gpus-per-replica", "8",
                                 "--precision", "fp8"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("bad.json") != std::string::npos);
    CHECK(r.err.find(input.where) != std::string::npos);
    CHECK(!std::filesystem::exists(out));
  }
}

TEST_CASE("serving_profile: validate flags a duplicate concurrency and an interactivity that rises") {
  const auto dir = scratch_dir("serving_profile_validate");
  // Points at 8, 16, 16 (duplicate) and 32; interactivity 1000/20 = 50 at 8, then 1000/25 = 40 at
  // 16, then 1000/10 = 100 at 32: a rise between the neighbours 16 and 32.
  const std::string file = write_file(dir, "profiles.json", R"({"kind": "serving_profile", "records": [{
    "id": "p", "gpu_model": "h100-sxm-80gb", "model": "m", "precision": "fp8", "framework": "vllm",
    "gpus_per_replica": 8, "input_tokens_per_request": 1024, "output_tokens_per_request": 1024,
    "points": [
      {"concurrency": 8, "tokens_per_s_per_gpu": 100, "median_tpot_ms": 20},
      {"concurrency": 16, "tokens_per_s_per_gpu": 150, "median_tpot_ms": 25},
      {"concurrency": 16, "tokens_per_s_per_gpu": 160, "median_tpot_ms": 26},
      {"concurrency": 32, "tokens_per_s_per_gpu": 200, "median_tpot_ms": 10}],
    "source": "hand-made", "as_of": "2026-11-01"}]})");
  const std::vector<Finding> findings = validate_catalog_files({file});
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].code == "duplicate-concurrency");
  CHECK(findings[0].where == "/records/0/points/2/concurrency");
  CHECK(findings[1].code == "interactivity-not-falling");
  CHECK(findings[1].where == "/records/0/points/3");
  CHECK(findings[1].message.find("/records/0/points/1") != std::string::npos);
  CHECK(findings[1].severity == Finding::Severity::warning);

  // A throughput of 0, and prefill + decode GPUs that do not add up, are refused by the parser.
  const std::string zero = write_file(dir, "zero.json", R"({"kind": "serving_profile", "records": [{
    "id": "p", "gpu_model": "h100-sxm-80gb", "model": "m", "precision": "fp8", "framework": "vllm",
    "gpus_per_replica": 8, "prefill_gpus": 2, "decode_gpus": 4,
    "input_tokens_per_request": 1024, "output_tokens_per_request": 1024,
    "points": [{"concurrency": 8, "tokens_per_s_per_gpu": 0}], "source": "s", "as_of": "2026-11-01"}]})");
  const std::vector<Finding> bad = validate_catalog_files({zero});
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].code == "invalid-record");
  CHECK(bad[0].where == "/records/0/gpus_per_replica");
}

TEST_CASE("throughput import inferencex: the real DeepSeek-R1 rows (../shared/data/inference)") {
  TCO_REQUIRE_SHARED_DATA();
  const auto dir = scratch_dir("throughput_real_inferencex");
  const std::string out = (dir / "profiles.json").string();
  const CliResult r = run_cli({"throughput", "import", "--format", "inferencex",
                               shared_data_path("inference/inferencex/benchmarks.json"), "-o", out, "--catalog",
                               kCatalog, "--drop-unknown-gpus"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // 435 rows: b200 100 + h200 50 + h100 25 = 175 on catalog GPUs; the other 260 (b300, gb200,
  // gb300, mi300x, mi325x, mi355x) dropped as not in the catalog.
  CHECK(r.out.find("435 rows read: 175 points, 260 dropped: 260 a GPU not in the catalog") != std::string::npos);
  const Json catalog = read_json(out);
  const Json* h200 = record_of(catalog, "inferencex/dsr1/h200/sglang/fp8/1024-8192/tp8ep1");
  REQUIRE(h200 != nullptr);
  // Rows 65..69 of the file: conc 4, 8, 16, 32, 64 on 8 H200.
  const Json& points = h200->at("points");
  REQUIRE(points.size() == 5);
  CHECK(points[4].at("concurrency").get<double>() == 64.0);
  CHECK(points[4].at("tokens_per_s_per_gpu").get<double>() == doctest::Approx(286.8620817393003).epsilon(1e-12));
  // median_tpot 0.031087409795509342 s = 31.087409795509342 ms; 1000 / that = 32.16736314083178,
  // the file's own median_intvty.
  CHECK(points[4].at("interactivity_tokens_per_s_per_user").get<double>() ==
        doctest::Approx(32.16736314083178).epsilon(1e-9));
  CHECK(points[4].at("p90_ttft_ms").get<double>() == doctest::Approx(868.3867634041365).epsilon(1e-12));
  for (const Finding& f : validate_catalog_files({out})) {
    INFO(f.code << ": " << f.where << ": " << f.message);
    CHECK(f.severity == Finding::Severity::warning);
  }
}

TEST_CASE("throughput import vllm-bench: the real gpt-oss-120b sweep, disaggregated 8 + 8 GPUs") {
  TCO_REQUIRE_SHARED_DATA();
  const auto dir = scratch_dir("throughput_real_vllm");
  // The files do not name the GPU (README §3: most likely MI355X): a scratch catalog with an
  // mi355x gpu record stands for it.
  std::filesystem::copy_file(source_path("pricing-data/gpus.json"), dir / "gpus.json");
  Json gpus = read_json((dir / "gpus.json").string());
  gpus["records"].push_back({{"id", "mi355x"}, {"name", "AMD Instinct MI355X"}, {"perf_relative", 1.0},
                             {"memory_gb", 288}, {"tdp_w", 1400}, {"source", "test stand-in"}, {"as_of", "2026-01-01"}});
  std::ofstream(dir / "gpus.json", std::ios::trunc) << gpus.dump(2);
  const std::string out = (dir / "out" ).string() + ".json";
  std::vector<std::string> args = {"throughput", "import", "--format", "vllm-bench"};
  for (int c : {4, 8, 16, 32, 64, 128, 256, 512})
    args.push_back(shared_data_path("inference/vllm_bench_serve/gpt-oss-120b/concurrency_" + std::to_string(c) +
                                    "_req_rate_inf_gpus_16_ctx_8_gen_8.json"));
  for (const char* a : {"-o", "", "--catalog", "", "--gpu", "mi355x", "--prefill-gpus", "8", "--decode-gpus", "8",
                        "--precision", "mxfp4"})
    args.emplace_back(a);
  args[args.size() - 11] = out;
  args[args.size() - 9] = dir.string();
  const CliResult r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("8 rows read: 8 points, 0 dropped") != std::string::npos);
  const Json catalog = read_json(out);
  REQUIRE(catalog.at("records").size() == 1);
  const Json& p = catalog.at("records")[0];
  CHECK(p.at("id") == "vllm-bench/openai/gpt-oss-120b/mi355x/1024-1024/p8-d8");
  CHECK(p.at("gpus_per_replica") == 16);
  CHECK(p.at("as_of") == "2026-04-28");
  // concurrency 4: total_token_throughput 918.4321435036439 / 16 GPUs = 57.40200896897774;
  // output_throughput 459.21607175182197 / 8 decode GPUs = 57.40200896897775.
  const Json& first = p.at("points")[0];
  CHECK(first.at("concurrency").get<double>() == 4.0);
  CHECK(first.at("tokens_per_s_per_gpu").get<double>() == doctest::Approx(918.4321435036439 / 16).epsilon(1e-12));
  CHECK(first.at("output_tokens_per_s_per_gpu").get<double>() ==
        doctest::Approx(459.21607175182197 / 8).epsilon(1e-12));
  CHECK(first.at("interactivity_tokens_per_s_per_user").get<double>() ==
        doctest::Approx(1000.0 / 8.389879373914562).epsilon(1e-12));
  CHECK(validate_catalog_dir(dir.string()).empty());
}

}  // namespace tco::test
