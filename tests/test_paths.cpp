// The checkout's paths for the tests (see test_support.hpp).
#include <fstream>
#include <functional>

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

std::filesystem::path scratch_dir(const std::string& name) {
  const auto checkout_tag = std::hash<std::string>{}(TCO_SOURCE_DIR) % 1000000;
  auto dir = std::filesystem::temp_directory_path() /
             ("tcosim-test-" + std::to_string(checkout_tag) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace tco::test
