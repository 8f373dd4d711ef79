// A pool of N nodes (or reserved instances) of G GPUs each (SPEC §4, §12.15). A job of
// g >= G GPUs takes ceil(g / G) whole free nodes; a smaller job packs into the first node
// with g free GPUs (first fit, lowest index). A node that is down holds no jobs and offers
// no GPUs until it is repaired.
// Example: 2 nodes x 8 GPUs holding a 6-GPU job on node 0: a 2-GPU job packs beside it on
// node 0, a 4-GPU job goes to node 1, an 8-GPU job waits.
#pragma once

#include <cstdint>
#include <vector>

namespace tco::des {

class NodePool {
 public:
  NodePool() = default;
  NodePool(int nodes, int gpus_per_node, bool up);

  int nodes() const { return static_cast<int>(free_.size()); }
  int gpus_per_node() const { return gpus_per_node_; }
  int nodes_up() const { return nodes_up_; }
  // Could a job of `gpus` ever run here (with every node up)?
  // (ceil(g / G) whole nodes of N for g >= G, one node for less: both say g <= N x G.)
  bool could_fit(int gpus) const { return gpus <= nodes() * gpus_per_node_; }
  // Places a job; fills `placed` with its nodes; false (and no change) when it does not fit now.
  bool place(int gpus, std::uint32_t job, std::vector<int>& placed);
  void release(int gpus, std::uint32_t job, const std::vector<int>& placed);
  // Takes node n down; `killed` receives the jobs that were on it (each once).
  void fail(int node, std::vector<std::uint32_t>& killed);
  void repair(int node);
  void bring_up_all();
  bool is_up(int node) const { return up_[node] != 0; }
  const std::vector<std::uint32_t>& jobs_on(int node) const { return jobs_[node]; }

 private:
  int gpus_per_node_ = 0;
  int nodes_up_ = 0;
  int whole_free_ = 0;  // up nodes with every GPU free
  std::vector<int> free_;
  std::vector<std::uint8_t> up_;
  std::vector<std::vector<std::uint32_t>> jobs_;
};

}  // namespace tco::des
