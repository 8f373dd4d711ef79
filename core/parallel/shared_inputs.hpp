// Rank 0's inputs on every rank (issue #26, docs/cluster.md): a collective that follows a check
// rank 0 ran while an InputRecording kept what it read (core/io/input_snapshot.hpp). Rank 0
// broadcasts the recorded bytes and every rank, rank 0 included, installs them, so that every
// later read of those paths gives every rank the same bytes and only rank 0 ever opened them.
// One process: nothing happens (the recording is dropped).
#pragma once

#include "core/io/input_snapshot.hpp"

namespace tco {

// Every rank calls it at the same point, after rank 0's check succeeded.
void share_root_inputs(InputRecording& recording);

}  // namespace tco
