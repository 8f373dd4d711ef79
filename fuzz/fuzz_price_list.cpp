// A price file in one format (TCO_FUZZ_FORMAT), as `tcosim pricing import` reads it:
// aws-price-list, the EC2 offer file as JSON or CSV; azure-retail, a Retail Prices API page;
// price-index, a published price series CSV (read with --series a when its header names a series
// column); term-structure, a reserved-price curve CSV (at an 8% discount rate, priced as the
// 8-GPU offer test/gpu8/region-a).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "aws-price-list");
  const bool csv = format == "price-index" || format == "term-structure";
  const std::string input = tco::fuzz::write_input(csv ? "input.csv" : "input.json", data, size);
  std::vector<std::string> args = {"pricing", "import", "--format", format, input, "-o",
                                   tco::fuzz::work_dir() + "/out/catalog.json"};
  if (format == "term-structure")
    args.insert(args.end(), {"--discount-rate", "0.08", "--offer", "test/gpu8/region-a", "--gpus-per-instance", "8"});
  if (format == "price-index") {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (text.substr(0, text.find('\n')).find("series") != std::string::npos) args.insert(args.end(), {"--series", "a"});
  }
  tco::fuzz::run_command(args);
  return 0;
}
