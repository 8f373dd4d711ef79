// A provider price list in one format (TCO_FUZZ_FORMAT: aws-price-list, the EC2 offer file as
// JSON or CSV; azure-retail, a Retail Prices API page), as `tcosim pricing import` reads it.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string format = tco::fuzz::env_or("TCO_FUZZ_FORMAT", "aws-price-list");
  const std::string input = tco::fuzz::write_input("input.json", data, size);
  tco::fuzz::run_command({"pricing", "import", "--format", format, input, "-o",
                          tco::fuzz::work_dir() + "/out/catalog.json"});
  return 0;
}
