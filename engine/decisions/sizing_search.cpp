#include "engine/decisions/sizing_search.hpp"

#include <algorithm>

namespace tco {

SearchTrace bracket_search(std::size_t count, const std::function<void(const std::vector<std::size_t>&)>& evaluate,
                           const std::function<std::vector<std::size_t>()>& bests) {
  SearchTrace trace;
  if (count == 0) return trace;
  std::vector<bool> done(count, false);
  auto run = [&](std::vector<std::size_t> next) {
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    for (std::size_t i : next) done[i] = true;
    evaluate(next);
    trace.order.insert(trace.order.end(), next.begin(), next.end());
    ++trace.rounds;
  };
  std::size_t stride = std::max<std::size_t>(1, (count - 1 + kCoarseIntervals - 1) / kCoarseIntervals);
  std::vector<std::size_t> coarse;
  for (std::size_t i = 0; i < count; i += stride) coarse.push_back(i);
  if (coarse.back() != count - 1) coarse.push_back(count - 1);
  run(coarse);
  for (;;) {
    std::vector<std::size_t> next;
    for (std::size_t b : bests()) {
      if (b >= stride && !done[b - stride]) next.push_back(b - stride);
      if (b + stride < count && !done[b + stride]) next.push_back(b + stride);
    }
    if (!next.empty()) {
      run(next);
      continue;
    }
    if (stride == 1) break;
    stride = (stride + 1) / 2;
  }
  return trace;
}

}  // namespace tco
