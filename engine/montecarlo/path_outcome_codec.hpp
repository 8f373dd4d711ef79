// A replay path's outcome as bytes, for the gather of an MPI run (core/parallel/): a rank packs
// the outcomes of its block of paths, and the root unpacks them, in path order, into the very
// values the one-process reduction adds up, so the report's sums run in the same order and give
// the same bits. Per plan-path: 8 x (2 + months x (categories + 1) + 13) + 4 + 192 bytes;
// 36 months and 14 categories: 4,636 bytes.
#pragma once

#include <string>
#include <string_view>

#include "engine/des/simulator.hpp"

namespace tco {

void append_path_outcome(std::string& bytes, const des::PathOutcome& outcome);
// Reads one outcome at `offset` and moves `offset` past it; throws std::runtime_error on
// truncated bytes.
des::PathOutcome read_path_outcome(std::string_view bytes, std::size_t& offset);

}  // namespace tco
