// An hour's availability combinations as the savings plan's cover sees them (engine/ledger/
// venue_hour.hpp): a tree over the covered venues in the order the plan's dollars reach them.
// A node at depth j holds one count of instances of the j-th covered venue, after its parent's
// counts, and the summed probability of the combinations below it; combinations whose covered
// venues hold the same instances share a path. The cover of venue j depends on the counts down to
// depth j only, so E[covered_j] over the pairs of this hour's and the last hour's combinations is
// a sum over the pairs of their depth-j nodes: about 4^j pairs at depth j for binary availability,
// against 4^n pairs of whole combinations times n venues (docs/performance.md "Venues'
// expectation").
// Example, one covered venue holding 5 instances with p 0.9 and 13 with p 0.1, in one
// combination each of two uncovered venues: the root (p 1) has two children, 5 (p 0.9) and 13
// (p 0.1).
#pragma once

#include <vector>

namespace tco {

class CoverTree {
 public:
  struct Node {
    double instances = 0.0;
    double probability = 0.0;
    int first_child = -1;
    int next_sibling = -1;
  };

  CoverTree() { clear(); }
  void clear() { nodes_.assign(1, Node{}); }

  // A combination of probability `probability` whose covered venues hold instances[order[j]]
  // at depth j; a new count becomes its parent's last child (the order combinations came in).
  void add(const std::vector<int>& order, const std::vector<double>& instances, double probability);

  const Node& node(int index) const { return nodes_[index]; }
  static constexpr int kRoot = 0;

 private:
  std::vector<Node> nodes_;
};

}  // namespace tco
