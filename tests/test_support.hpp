// Helpers shared by the tests: where the repo and ../shared/data are, and how to skip a
// test that needs the shared data when a user's clone does not have it.
#pragma once

#include <filesystem>
#include <string>

#include <doctest/doctest.h>

namespace tco::test {

inline std::string source_path(const std::string& relative) {
  return std::string(TCO_SOURCE_DIR) + "/" + relative;
}

inline std::string shared_data_path(const std::string& relative) {
  return std::string(TCO_SHARED_DATA_DIR) + "/" + relative;
}

inline bool shared_data_available() { return std::filesystem::is_directory(TCO_SHARED_DATA_DIR); }

// A fresh empty folder under the build tree for a test's output files.
inline std::filesystem::path scratch_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("tcosim-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace tco::test

// Skips the rest of a test (with a message) when ../shared/data is absent.
#define TCO_REQUIRE_SHARED_DATA()                                                        \
  do {                                                                                   \
    if (!tco::test::shared_data_available()) {                                           \
      MESSAGE("skipped: ../shared/data is absent (it ships beside the project's checkout" \
              " only; a user's clone does not have it)");                                \
      return;                                                                            \
    }                                                                                    \
  } while (0)
