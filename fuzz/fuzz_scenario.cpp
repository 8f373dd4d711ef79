// A scenario file, as `tcosim validate` (the same loading as `run`) reads it; it lies in
// scenarios/ beside the shipped catalogs (fuzz_support.hpp).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tco::fuzz::run_command({"validate", tco::fuzz::write_input("scenarios/input.json", data, size)});
  return 0;
}
