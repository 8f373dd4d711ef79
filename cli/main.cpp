#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include <fmt/format.h>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/memory/freed_memory_reuse.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"

namespace {

// Where the output of ranks other than 0 goes under mpirun: rank 0 alone speaks.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
};

// Rank 0's standard error under mpirun, written a whole line at a time: mpirun prints its own
// notices (an MPI_Abort's) on the same stream, and a line written in pieces can be split by one.
class WholeLineStderr : public std::streambuf {
 public:
  ~WholeLineStderr() override { write_pending(); }

 protected:
  int overflow(int c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    pending_.push_back(traits_type::to_char_type(c));
    if (c == '\n' || c == '\r') write_pending();
    return c;
  }
  int sync() override {
    write_pending();
    return 0;
  }

 private:
  void write_pending() {
    if (pending_.empty()) return;
    std::fwrite(pending_.data(), 1, pending_.size(), stderr);
    std::fflush(stderr);
    pending_.clear();
  }
  std::string pending_;
};

// The last bytes of the standard output leave at its close: a close that fails (a full disk) loses
// them, so it is checked too. std::cout shares stdout's buffer (synchronised with stdio); it is
// detached first so that nothing writes to the closed stream at exit.
int closed_standard_output(int code) {
  std::cout.flush();
  const bool written = !std::cout.fail();
  std::cout.rdbuf(nullptr);
  errno = 0;
  const bool closed = std::fclose(stdout) == 0;
  if ((written && closed) || code >= tco::kExitBadInput) return code;  // run_main said why already
  std::cerr << "tcosim: error: writing to the standard output failed"
            << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
  return tco::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  tco::keep_freed_memory_for_reuse();
  tco::ProcessGroupScope group(argc, argv);
  if (!group.launch_problem().empty()) {
    std::cerr << "tcosim: error: " << group.launch_problem() << "\n";
    return tco::kExitBadInput;
  }
  if (tco::process_count() == 1) return closed_standard_output(tco::cli::run_main(argc, argv, std::cout, std::cerr));
  const bool root = tco::is_root_process();
  NullBuffer nothing;
  std::ostream quiet(&nothing);
  WholeLineStderr root_stderr_lines;
  std::ostream root_stderr(&root_stderr_lines);
  std::ostringstream errors;  // a rank other than 0 prints its error only when it failed alone
  const int code = tco::cli::run_main(argc, argv, root ? std::cout : quiet, root ? root_stderr : errors);
  root_stderr.flush();
  if (code != tco::kExitOk && !tco::error_known_to_every_rank()) {
    // Failed alone: the other ranks would wait for this one in their next collective. Say where,
    // then end the whole job with this exit code.
    if (!root) {
      std::string text = errors.str();
      if (text.rfind("tcosim: ", 0) == 0) text.erase(0, 8);
      std::cerr << fmt::format("tcosim (rank {} of {}): {}", tco::process_rank(), tco::process_count(), text);
      std::cerr.flush();
    }
    tco::abort_process_group(code);
  }
  return root ? closed_standard_output(code) : code;
}
