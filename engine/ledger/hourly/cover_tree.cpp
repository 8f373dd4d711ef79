#include "engine/ledger/hourly/cover_tree.hpp"

namespace tco {

void CoverTree::add(const std::vector<int>& order, const std::vector<double>& instances, double probability) {
  int at = kRoot;
  nodes_[at].probability += probability;
  for (const int venue : order) {
    const double count = instances[venue];
    int child = nodes_[at].first_child;
    int last = -1;
    while (child >= 0 && nodes_[child].instances != count) {
      last = child;
      child = nodes_[child].next_sibling;
    }
    if (child < 0) {
      child = static_cast<int>(nodes_.size());
      nodes_.push_back(Node{count, 0.0, -1, -1});
      if (last < 0) nodes_[at].first_child = child;
      else nodes_[last].next_sibling = child;
    }
    nodes_[child].probability += probability;
    at = child;
  }
}

}  // namespace tco
