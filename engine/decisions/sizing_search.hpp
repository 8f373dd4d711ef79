// A bracketing search over the node counts of a sizing range (issue #44): it evaluates a coarse
// grid, then halves the stride around the best point of every risk measure until the best
// points' neighbours one count away are evaluated too, so it stops only on a point no
// neighbour beats. The points are evaluated in rounds (each round one replay of the new points
// on the same paths: common random numbers make the comparisons paired).
//   stride s0 = ceil((n - 1) / kCoarseIntervals); round 0: indices 0, s0, 2 s0, ..., n - 1
//   round r:  every best b missing b - s or b + s (inside the range) gets it evaluated;
//             when none is missing, s = ceil(s / 2); after s = 1 with none missing: done
// Example: 33 counts (0..32): s0 = 4, round 0 evaluates 0, 4, ..., 32 (9 points); a best at 12
// adds 10 and 14 (s = 2), then 11 and 13 (s = 1): 13 points instead of 33 when the three
// measures agree. The search assumes a curve without a second valley narrower than s0; the
// coarse grid is its guard, and `--search all` evaluates every count.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace tco {

// The most node counts evaluated one by one when --search is "auto".
inline constexpr std::size_t kFullGridNodeCounts = 12;
inline constexpr std::size_t kCoarseIntervals = 8;

struct SearchTrace {
  std::vector<std::size_t> order;  // indices in the order evaluated (round by round, ascending)
  long rounds = 0;
};

// `evaluate(indices)` evaluates those points (ascending, none evaluated before); `bests()` returns
// the index of the best evaluated point of each risk measure. Every index is below `count`.
SearchTrace bracket_search(std::size_t count, const std::function<void(const std::vector<std::size_t>&)>& evaluate,
                           const std::function<std::vector<std::size_t>()>& bests);

}  // namespace tco
