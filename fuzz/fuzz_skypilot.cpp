// A SkyPilot catalog CSV, as `tcosim pricing import --format skypilot` reads it.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input = tco::fuzz::write_input("input.csv", data, size);
  tco::fuzz::run_command({"pricing", "import", "--format", "skypilot", input, "-o",
                          tco::fuzz::work_dir() + "/out/catalog.json", "--as-of", "2025-01-01"});
  return 0;
}
