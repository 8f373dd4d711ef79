// Helpers of the importer tests: a text file written into a scratch folder, a drop count by reason.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "models/importers/jobs/trace_import.hpp"

namespace tco::test {

inline std::string write_file(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The count of `reason`, or -1 when the import does not list it.
inline long drop_count(const ImportCounts& c, const std::string& reason) {
  for (const auto& [name, count] : c.dropped)
    if (name == reason) return count;
  return -1;
}

struct BadInput {
  const char* name;
  std::string text;
  std::string where;  // the line and column or JSON pointer the error must name
};

// Each input, written to dir/file_name and imported by `COMMAND import --format FORMAT`, exits 2
// with a message naming the file and `where`, and leaves no output file.
inline void check_rejected(const std::string& command, const std::string& format, const std::string& file_name,
                           const std::vector<BadInput>& inputs, const std::filesystem::path& dir) {
  const std::string out = (dir / "out.csv").string();
  for (const BadInput& input : inputs) {
    INFO(input.name);
    const CliResult r =
        run_cli({command, "import", "--format", format, write_file(dir, file_name, input.text), "-o", out});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(file_name) != std::string::npos);
    CHECK(r.err.find(input.where) != std::string::npos);
    CHECK(!std::filesystem::exists(out));
  }
}

}  // namespace tco::test
