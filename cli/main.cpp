#include <iostream>
#include <ostream>
#include <streambuf>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/parallel/process_group.hpp"

namespace {

// Where the output of ranks other than 0 goes under mpirun: rank 0 alone speaks.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
};

}  // namespace

int main(int argc, char** argv) {
  tco::ProcessGroupScope group(argc, argv);
  if (!group.launch_problem().empty()) {
    std::cerr << "tcosim: error: " << group.launch_problem() << "\n";
    return tco::kExitBadInput;
  }
  if (tco::is_root_process()) return tco::cli::run_main(argc, argv, std::cout, std::cerr);
  NullBuffer nothing;
  std::ostream quiet(&nothing);
  return tco::cli::run_main(argc, argv, quiet, quiet);
}
