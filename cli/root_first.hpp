// Under mpirun (core/parallel/process_group.hpp), rank 0 checks a command's inputs and outputs
// before any rank computes, and tells every rank how that went (one broadcast): on a failure,
// rank 0 throws the usual error (printed, exit 2) and every other rank ends with the same exit
// code in silence, so a bad input ends the job at once on every K instead of leaving ranks
// waiting in a collective. One process: just `check()`.
#pragma once

#include <exception>
#include <utility>

#include "core/error.hpp"
#include "core/parallel/process_group.hpp"

namespace tco::cli {

// Rank 0 failed with this exit code; a rank that catches it ends quietly with the code.
class PeerFailed : public std::exception {
 public:
  explicit PeerFailed(int exit_code) : exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }
  const char* what() const noexcept override { return "rank 0 failed"; }

 private:
  int exit_code_;
};

// The exit code run_main gives the exception in flight (call inside a catch block).
int exit_code_of_current_exception();

template <class Check>
auto root_first(Check&& check) {
  if (process_count() == 1) return check();
  if (is_root_process()) {
    try {
      auto result = check();
      broadcast_int(kExitOk);
      return result;
    } catch (...) {
      broadcast_int(exit_code_of_current_exception());
      throw;
    }
  }
  if (const int code = broadcast_int(kExitOk); code != kExitOk) throw PeerFailed(code);
  return check();
}

}  // namespace tco::cli
