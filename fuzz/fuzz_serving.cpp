// The token-serving importers (TCO_FUZZ_FORMAT: inferencex or vllm-bench, a benchmark result as
// `tcosim throughput import` reads it; azure-llm, a request trace as `tcosim demand import`
// reads it): docs/tokens.md.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "inferencex");
  const std::string& dir = tco::fuzz::work_dir();
  if (format == "azure-llm") {
    const std::string input = tco::fuzz::write_input("trace.csv", data, size);
    tco::fuzz::run_command({"demand", "import", "--format", "azure-llm", input, "-o", dir + "/out/tokens.csv"});
    return 0;
  }
  const std::string input = tco::fuzz::write_input("input.json", data, size);
  std::vector<std::string> args = {"throughput", "import", "--format", format, input, "-o",
                                   dir + "/out/profiles.json", "--catalog", dir + "/pricing-data"};
  if (format == "vllm-bench") args.insert(args.end(), {"--gpu", "h100-sxm-80gb", "--gpus-per-replica", "8", "--precision", "fp8"});
  else args.push_back("--drop-unknown-gpus");
  tco::fuzz::run_command(args);
  return 0;
}
