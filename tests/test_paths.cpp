// The checkout's paths for the tests (see test_support.hpp).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <system_error>
#include <vector>

#include "test_support.hpp"

namespace tco::test {

std::string source_path(const std::string& relative) {
  return std::string(TCO_SOURCE_DIR) + "/" + relative;
}

std::string shared_data_path(const std::string& relative) {
  return std::string(TCO_SHARED_DATA_DIR) + "/" + relative;
}

bool shared_data_available() { return std::filesystem::is_directory(TCO_SHARED_DATA_DIR); }

std::string write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

namespace {

// The scratch folders this process made, removed when it exits. ctest runs each test case in its
// own process, two at a time: a folder shared by name between two cases (one removing it while
// the other reads a file in it) made "grid intensity: a flat series..." fail once under load (session 35).
struct ScratchFolders {
  std::vector<std::filesystem::path> made;
  ~ScratchFolders() {
    std::error_code ignored;
    for (const auto& dir : made) std::filesystem::remove_all(dir, ignored);
  }
};

ScratchFolders& scratch_folders() {
  static ScratchFolders folders;
  return folders;
}

}  // namespace

std::filesystem::path scratch_dir(const std::string& name) {
  const auto checkout_tag = std::hash<std::string>{}(TCO_SOURCE_DIR) % 1000000;
  auto dir = std::filesystem::temp_directory_path() / ("tcosim-test-" + std::to_string(checkout_tag) + "-" +
                                                       std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  scratch_folders().made.push_back(dir);
  return dir;
}

}  // namespace tco::test
