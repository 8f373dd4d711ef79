// Items [0, n) of a command's work split over the ranks of an mpirun job (docs/cluster.md):
// rank r runs its contiguous block index_block(n, r, K) and returns the block's results as
// bytes (core/parallel/byte_codec.hpp); the root receives every rank's bytes in rank order,
// which is item order, and decodes them into exactly the values one process computes. Errors
// end every rank alike (core/parallel/rank_errors.hpp). One process, or split false: the one
// block [0, n). Example: 10 tornado evaluations over 4 ranks: [0,3) [3,6) [6,8) [8,10).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"

namespace tco {

// A collective under split: every rank calls it with the same n. On the root, each rank's bytes
// (a rank without items still runs `run_block` on its empty block); on the others, an empty list.
inline std::vector<std::string> gather_item_blocks(long n, bool split,
                                                   const std::function<std::string(IndexBlock)>& run_block) {
  const int ranks = split ? process_count() : 1;
  const int rank = split ? process_rank() : 0;
  const IndexBlock mine = index_block(n, rank, ranks);
  return gather_results([&] { return run_block(mine); }, split);
}

}  // namespace tco
