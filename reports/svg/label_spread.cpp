#include "reports/svg/label_spread.hpp"

#include <algorithm>
#include <numeric>

namespace tco::svg {

namespace {

struct Cluster {
  std::size_t first = 0;  // index into the sorted order
  std::size_t count = 0;
  double wish_sum = 0.0;
  double top = 0.0;  // position of its first label

  double bottom(double gap) const { return top + static_cast<double>(count - 1) * gap; }
  void centre(double gap) { top = wish_sum / static_cast<double>(count) - static_cast<double>(count - 1) * gap / 2; }
};

}  // namespace

std::vector<double> spread_labels(const std::vector<double>& wanted, double gap, double lo, double hi) {
  std::vector<std::size_t> order(wanted.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return wanted[a] < wanted[b]; });

  std::vector<Cluster> clusters;
  for (std::size_t k = 0; k < order.size(); ++k) {
    Cluster c{k, 1, wanted[order[k]], wanted[order[k]]};
    while (!clusters.empty() && clusters.back().bottom(gap) + gap > c.top) {
      const Cluster previous = clusters.back();
      clusters.pop_back();
      c = {previous.first, previous.count + c.count, previous.wish_sum + c.wish_sum, 0.0};
      c.centre(gap);
    }
    clusters.push_back(c);
  }

  // Inside the bounds: one pass down from lo, one up from hi, one down again (when everything
  // cannot fit, the last pass wins and the labels run past hi).
  std::vector<double> sorted_positions(order.size());
  for (const Cluster& c : clusters)
    for (std::size_t i = 0; i < c.count; ++i) sorted_positions[c.first + i] = c.top + static_cast<double>(i) * gap;
  const std::size_t n = sorted_positions.size();
  for (std::size_t k = 0; k < n; ++k)
    sorted_positions[k] = std::max(sorted_positions[k], k == 0 ? lo : sorted_positions[k - 1] + gap);
  for (std::size_t k = n; k-- > 0;)
    sorted_positions[k] = std::min(sorted_positions[k], k + 1 == n ? hi : sorted_positions[k + 1] - gap);
  for (std::size_t k = 0; k < n; ++k)
    sorted_positions[k] = std::max(sorted_positions[k], k == 0 ? lo : sorted_positions[k - 1] + gap);

  std::vector<double> out(wanted.size());
  for (std::size_t k = 0; k < n; ++k) out[order[k]] = sorted_positions[k];
  return out;
}

}  // namespace tco::svg
