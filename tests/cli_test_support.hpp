// The command line run in-process (cli::run_main) by a test: the exit code and what it wrote
// to stdout and stderr.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace tco::test {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline CliResult run_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = tco::cli::run_main(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace tco::test
