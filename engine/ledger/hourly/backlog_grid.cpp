#include "engine/ledger/hourly/backlog_grid.hpp"

#include <algorithm>
#include <cmath>

namespace tco {

std::vector<GridState> backlog_grid(const std::vector<BacklogGroup>& groups, std::size_t max_states) {
  std::vector<GridState> out;
  if (groups.size() <= max_states) {
    out.reserve(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) out.push_back({groups[g].backlog_gpu_hours(), {{g, 1.0}}});
    return out;
  }
  // The state of no backlog stays where it is: holding nothing back is not a neighbour's average.
  const std::size_t zero = groups.front().backlog_gpu_hours() < 1e-12 ? 1 : 0;
  if (zero) out.push_back({0.0, {{0, 1.0}}});
  const std::size_t points = max_states - zero;
  const double lo = groups[zero].backlog_gpu_hours(), hi = groups.back().backlog_gpu_hours();
  const double step = (hi - lo) / static_cast<double>(points - 1);
  const auto grid_at = [&](std::size_t k) { return k + 1 == points ? hi : lo + static_cast<double>(k) * step; };
  std::vector<GridState> grid(points);
  for (std::size_t k = 0; k < points; ++k) grid[k].backlog_gpu_hours = grid_at(k);
  for (std::size_t g = zero; g < groups.size(); ++g) {
    const double b = groups[g].backlog_gpu_hours();
    const std::size_t k = std::min(points - 2, static_cast<std::size_t>(std::max(0.0, std::floor((b - lo) / step))));
    const double upper = std::clamp((b - grid_at(k)) / (grid_at(k + 1) - grid_at(k)), 0.0, 1.0);
    if (upper < 1.0) grid[k].parts.push_back({g, 1.0 - upper});
    if (upper > 0.0) grid[k + 1].parts.push_back({g, upper});
  }
  for (GridState& s : grid)
    if (!s.parts.empty()) out.push_back(std::move(s));
  return out;
}

}  // namespace tco
