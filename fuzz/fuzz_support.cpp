#include "fuzz_support.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "core/io/utf8_text.hpp"

namespace tco::fuzz {

namespace fs = std::filesystem;

const std::string& work_dir() {
  // Never destroyed: the exit handler below runs after the destructors of statics whose
  // initialisation registered it, so it must not read a static std::string.
  static const std::string& dir = *new std::string([] {
    const fs::path d = fs::temp_directory_path() / ("tcosim-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(d);
    for (const char* sub : {"scenarios", "catalog-under-test", "out"}) fs::create_directories(d / sub);
    fs::create_directory_symlink(fs::path(TCO_SOURCE_DIR) / "pricing-data", d / "pricing-data");
    fs::create_directory_symlink(fs::path(TCO_SOURCE_DIR) / "tests/fixtures/catalog", d / "catalog");
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(work_dir(), ec);
    });
    return d.string();
  }());
  return dir;
}

std::string write_input(const std::string& relative_path, const std::uint8_t* data, std::size_t size) {
  const std::string path = work_dir() + "/" + relative_path;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

int run_command(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = cli::run_main(args, out, err);
  std::string line = "tcosim";
  for (const auto& a : args) line += " " + a;
  // Every message is text: bytes of the input that are not UTF-8, or control bytes, are escaped.
  if (escaped_text(err.str(), LineBreaks::keep) != err.str()) {
    std::fprintf(stderr, "FINDING: raw bytes that are not text in the messages of: %s\n%s\n", line.c_str(),
                 escaped_text(err.str(), LineBreaks::keep).c_str());
    std::abort();
  }
  if (code >= 0 && code <= 2) return code;
  std::fprintf(stderr, "FINDING: exit %d from: %s\n%s\n", code, line.c_str(), err.str().c_str());
  std::abort();
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

}  // namespace tco::fuzz
