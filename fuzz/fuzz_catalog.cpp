// A catalog file, validated as the only file of a catalog folder (`tcosim validate DIR`).
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tco::fuzz::write_input("catalog-under-test/input.json", data, size);
  tco::fuzz::run_command({"validate", tco::fuzz::work_dir() + "/catalog-under-test"});
  return 0;
}
