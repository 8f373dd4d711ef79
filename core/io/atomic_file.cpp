#include "core/io/atomic_file.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/io/output_set.hpp"

namespace tco {

void write_file_atomically(const std::string& path, const std::string& contents) {
  OutputSet output;
  output.add_file(path, path);
  output.stage(path, contents);
  output.commit();
}

}  // namespace tco
