// The token-serving importers (TCO_FUZZ_FORMAT: inferencex, mlperf or vllm-bench, a benchmark result as
// `tcosim throughput import` reads it; azure-llm, a request trace as `tcosim demand import`
// reads it, whose hourly tokens.csv a scenario's workload.tokens.series then runs on; tokens-csv,
// such an hourly tokens.csv run directly): docs/tokens.md.
#include <fstream>

#include "core/io/json_reader.hpp"
#include "fuzz_support.hpp"

namespace {

// tests/fixtures/scenarios/tokens.json over one month, its demand read from `tokens_csv`.
std::string token_series_scenario(const std::string& dir, const std::string& tokens_csv) {
  tco::Json s = tco::read_json_file(std::string(TCO_SOURCE_DIR) + "/tests/fixtures/scenarios/tokens.json");
  s["catalog_dir"] = std::string(TCO_SOURCE_DIR) + "/tests/fixtures/catalog";
  s["horizon_months"] = 1;
  tco::Json& tokens = s["workload"]["tokens"];
  for (const char* key : {"requests_per_second", "input_tokens_per_request", "output_tokens_per_request"})
    tokens.erase(key);
  tokens["series"] = {{"file", tokens_csv}};
  const std::string path = dir + "/token-series-scenario.json";
  std::ofstream(path) << s.dump();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "inferencex");
  const std::string& dir = tco::fuzz::work_dir();
  if (format == "tokens-csv") {
    const std::string input = tco::fuzz::write_input("tokens.csv", data, size);
    static const std::string scenario = token_series_scenario(dir, input);
    tco::fuzz::run_command({"run", scenario, "--out", dir + "/out/report.json", "--quiet"});
    return 0;
  }
  if (format == "azure-llm") {
    const std::string input = tco::fuzz::write_input("trace.csv", data, size);
    const std::string tokens = dir + "/out/tokens.csv";
    if (tco::fuzz::run_command({"demand", "import", "--format", "azure-llm", input, "-o", tokens}) != 0) return 0;
    static const std::string scenario = token_series_scenario(dir, tokens);
    tco::fuzz::run_command({"run", scenario, "--out", dir + "/out/report.json", "--quiet"});
    return 0;
  }
  const std::string input = tco::fuzz::write_input("input.json", data, size);
  std::vector<std::string> args = {"throughput", "import", "--format", format, input, "-o",
                                   dir + "/out/profiles.json", "--catalog", dir + "/pricing-data"};
  if (format == "vllm-bench") args.insert(args.end(), {"--gpu", "h100-sxm-80gb", "--gpus-per-replica", "8", "--precision", "fp8"});
  else args.push_back("--drop-unknown-gpus");
  if (format == "mlperf")
    args.insert(args.end(), {"--sequence-lengths", "llama2-70b=1000:250", "--sequence-lengths", "deepseek-r1=800:3600"});
  tco::fuzz::run_command(args);
  return 0;
}
