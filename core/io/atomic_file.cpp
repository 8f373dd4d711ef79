#include "core/io/atomic_file.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace tco {

void write_file_atomically(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path temp = target.parent_path() / (target.filename().string() + ".tmp");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, "", "cannot write here (does the folder exist?)");
    out << contents;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw InputError(path, "", "writing failed (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw InputError(path, "", "cannot replace the file: " + ec.message());
  }
}

}  // namespace tco
