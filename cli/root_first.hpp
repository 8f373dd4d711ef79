// Under mpirun (core/parallel/process_group.hpp), rank 0 checks a command's inputs and outputs
// before any rank computes, and tells every rank how that went (one broadcast): on a failure,
// rank 0 throws the usual error (printed, exit 2) and every other rank ends with the same exit
// code in silence, so a bad input ends the job at once on every K instead of leaving ranks
// waiting in a collective. On success rank 0 broadcasts the input files its check read
// (core/parallel/shared_inputs.hpp) and the other ranks run the same check on those bytes,
// without opening the files. One process: just `check()`. An index shard, or its merge, keeps
// what the check read for the shard file's digests (cli/shard/shard_header.hpp).
#pragma once

#include <utility>

#include "core/error.hpp"
#include "core/parallel/index_shards.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"
#include "core/parallel/shared_inputs.hpp"
#include "cli/shard/shard_header.hpp"

namespace tco::cli {

using tco::PeerFailed;

// The exit code run_main gives the exception in flight (call inside a catch block): a command
// line that does not parse 2, else as exit_code_of_current_error (core/parallel/rank_errors.hpp).
int exit_code_of_current_exception();

template <class Check>
auto root_first(Check&& check) {
  if (shard_role() != ShardRole::none) {
    // An index shard or its merge is one process: what the check reads is its inputs' digest.
    InputRecording recording;
    auto result = check();
    note_shard_inputs(recording.take());
    return result;
  }
  if (process_count() == 1) return check();
  InputRecording recording;  // what rank 0's check reads
  if (is_root_process()) {
    auto result = [&] {
      try {
        return check();
      } catch (...) {
        broadcast_int(exit_code_of_current_exception());
        mark_error_known_to_every_rank();  // the others now end with PeerFailed: no MPI_Abort
        throw;
      }
    }();
    broadcast_root_status(kExitOk);
    share_root_inputs(recording);
    return result;
  }
  broadcast_root_status(kExitOk);
  share_root_inputs(recording);
  return check();
}

}  // namespace tco::cli
