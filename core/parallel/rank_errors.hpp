// How an error on one rank ends every rank of an mpirun job alike (docs/cluster.md). Each helper
// is a collective (every rank calls it at the same point) and lets every rank leave it together:
// the rank that reports (the root) re-raises the error with the one-process message and exit
// code, and every other rank throws PeerFailed with that exit code, which the command line ends
// on in silence. Nobody is left waiting in a collective, so a bad input never hangs the job.
// One process: each helper is just the call of its work.
#pragma once

#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace tco {

// Another rank failed with this exit code; a rank that catches it ends quietly with the code.
class PeerFailed : public std::exception {
 public:
  explicit PeerFailed(int exit_code) : exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }
  const char* what() const noexcept override { return "another rank failed"; }

 private:
  int exit_code_;
};

// The exit code of the exception in flight (call inside a catch block): PeerFailed its own,
// InputError and ModelError 2, anything else 3 (core/error.hpp).
int exit_code_of_current_error();

// The root runs `work` and every rank receives its bytes (one process: `work()`); when the root
// throws, it re-raises the error and the other ranks throw PeerFailed.
std::string root_computes(const std::function<std::string()>& work, bool split_over_processes);

// The root runs `step` (one process: `step()`); the other ranks wait for it, and throw PeerFailed
// when it throws (the root re-raises its error).
void root_does(const std::function<void()>& step, bool split_over_processes);

// Every rank runs `work`; the root receives every rank's bytes in rank order (the others an empty
// list). When any rank throws, the root raises the lowest failing rank's error as one process
// would have: an InputError as the same InputError, another error of exit code 2 as ModelError
// with its text, anything else as std::runtime_error with its text (exit 3); the other ranks
// throw PeerFailed with that exit code.
std::vector<std::string> gather_results(const std::function<std::string()>& work, bool split_over_processes);

// Whether the error in flight is known to every rank, so that every rank leaves together: raised by
// one of the helpers here (the root's re-raise, PeerFailed elsewhere), or marked so by code that
// fails alike on every rank (a command line every rank parses the same way). An error no helper
// shared is a rank failing alone (a file unreadable on one node): the others would wait for it in
// their next collective, so cli/main.cpp ends the whole job with MPI_Abort instead.
bool error_known_to_every_rank();
void mark_error_known_to_every_rank();

// The root tells every rank that its step went well (`exit_code` 0) or not: the other ranks
// then throw PeerFailed with the code. Call on every rank; a non-root rank's code is ignored.
void broadcast_root_status(int exit_code);

}  // namespace tco
