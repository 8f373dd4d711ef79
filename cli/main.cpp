#include <iostream>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"

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
  if (tco::process_count() == 1) return tco::cli::run_main(argc, argv, std::cout, std::cerr);
  const bool root = tco::is_root_process();
  NullBuffer nothing;
  std::ostream quiet(&nothing);
  std::ostringstream errors;  // a rank other than 0 prints its error only when it failed alone
  const int code = tco::cli::run_main(argc, argv, root ? std::cout : quiet, root ? std::cerr : errors);
  if (code != tco::kExitOk && !tco::error_known_to_every_rank()) {
    // Failed alone: the other ranks would wait for this one in their next collective. Say where,
    // then end the whole job with this exit code.
    if (!root) {
      std::string text = errors.str();
      if (text.rfind("tcosim: ", 0) == 0) text.erase(0, 8);
      std::cerr << "tcosim (rank " << tco::process_rank() << " of " << tco::process_count() << "): " << text;
      std::cerr.flush();
    }
    tco::abort_process_group(code);
  }
  return code;
}
