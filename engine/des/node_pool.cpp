#include "engine/des/node_pool.hpp"

#include <algorithm>

namespace tco::des {

NodePool::NodePool(int nodes, int gpus_per_node, bool up)
    : gpus_per_node_(gpus_per_node), free_(nodes, up ? gpus_per_node : 0), up_(nodes, up ? 1 : 0), jobs_(nodes) {
  nodes_up_ = up ? nodes : 0;
  whole_free_ = nodes_up_;
}

bool NodePool::place(int gpus, std::uint32_t job, std::vector<int>& placed) {
  placed.clear();
  const int g = gpus_per_node_;
  if (gpus >= g) {
    const int need = (gpus + g - 1) / g;
    if (need > whole_free_) return false;
    for (int n = 0; n < nodes() && static_cast<int>(placed.size()) < need; ++n)
      if (up_[n] && free_[n] == g) placed.push_back(n);
    for (int n : placed) {
      free_[n] = 0;
      jobs_[n].push_back(job);
    }
    whole_free_ -= need;
    return true;
  }
  for (int n = 0; n < nodes(); ++n) {
    if (up_[n] && free_[n] >= gpus) {
      if (free_[n] == g) --whole_free_;
      free_[n] -= gpus;
      jobs_[n].push_back(job);
      placed.push_back(n);
      return true;
    }
  }
  return false;
}

void NodePool::release(int gpus, std::uint32_t job, const std::vector<int>& placed) {
  const int share = gpus >= gpus_per_node_ ? gpus_per_node_ : gpus;
  for (int n : placed) {
    auto& list = jobs_[n];
    const auto it = std::find(list.begin(), list.end(), job);
    if (it == list.end()) continue;  // the node failed and dropped it already
    *it = list.back();
    list.pop_back();
    if (!up_[n]) continue;
    free_[n] += share;
    if (free_[n] == gpus_per_node_) ++whole_free_;
  }
}

void NodePool::fail(int node, std::vector<std::uint32_t>& killed) {
  killed = jobs_[node];
  jobs_[node].clear();
  if (!up_[node]) return;
  if (free_[node] == gpus_per_node_) --whole_free_;
  free_[node] = 0;
  up_[node] = 0;
  --nodes_up_;
}

void NodePool::repair(int node) {
  if (up_[node]) return;
  up_[node] = 1;
  ++nodes_up_;
  free_[node] = gpus_per_node_;
  ++whole_free_;
}

void NodePool::bring_up_all() {
  for (int n = 0; n < nodes(); ++n) repair(n);
}

}  // namespace tco::des
