// A pool of N nodes (or reserved instances) of G GPUs each (SPEC §4, §12.15). A job of
// g >= G GPUs takes ceil(g / G) whole free nodes (the lowest indices); a smaller job packs into
// the first node with g free GPUs (first fit, lowest index). A node that is down holds no jobs
// and offers no GPUs until it is repaired.
// Example: 2 nodes x 8 GPUs holding a 6-GPU job on node 0: a 2-GPU job packs beside it on
// node 0, a 4-GPU job goes to node 1, an 8-GPU job waits.
// A small job's search builds a bit mask of the nodes that qualify, 64 at a time, without a
// branch per node (which node fits is a coin toss to the branch predictor), and a node that is
// down offers -1 GPUs, so it never qualifies. The nodes that are up and wholly free are a mask
// kept up to date, so a big job takes its nodes without a search. Each small job remembers its
// place in its node's job list, so a release needs no search. Inline, so that the replay's
// CPU-specific clone compiles it too.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "engine/des/kernel/trivial_vector.hpp"

namespace tco::des {

// A job's nodes (or reserved instances).
using NodeList = TrivialVector<int>;

class NodePool {
 public:
  NodePool() = default;
  NodePool(int nodes, int gpus_per_node, bool up)
      : nodes_(nodes), gpus_per_node_(gpus_per_node), free_(nodes, up ? gpus_per_node : kDown), jobs_(nodes),
        whole_mask_((nodes + 63) / 64, 0) {
    nodes_up_ = up ? nodes : 0;
    whole_free_ = nodes_up_;
    if (up)
      for (int n = 0; n < nodes; ++n) set_whole(n, true);
  }

  int nodes() const { return nodes_; }
  int gpus_per_node() const { return gpus_per_node_; }
  int nodes_up() const { return nodes_up_; }
  // Could a job of `gpus` ever run here (with every node up)?
  // (ceil(g / G) whole nodes of N for g >= G, one node for less: both say g <= N x G.)
  bool could_fit(int gpus) const { return gpus <= nodes() * gpus_per_node_; }
  bool is_up(int node) const { return free_[node] != kDown; }
  const TrivialVector<std::uint32_t>& jobs_on(int node) const { return jobs_[node]; }

  // Places a job; fills `placed` with its nodes; false (and no change) when it does not fit now.
  bool place(int gpus, std::uint32_t job, NodeList& placed) {
    placed.clear();
    const int g = gpus_per_node_;
    if (gpus >= g) {
      const int need = (gpus + g - 1) / g;
      if (need > whole_free_) return false;
      for (std::size_t w = 0; w < whole_mask_.size() && static_cast<int>(placed.size()) < need; ++w) {
        for (std::uint64_t m = whole_mask_[w]; m != 0 && static_cast<int>(placed.size()) < need; m &= m - 1)
          placed.push_back(static_cast<int>(64 * w) + std::countr_zero(m));
      }
      for (int n : placed) {
        free_[n] = 0;
        set_whole(n, false);
        jobs_[n].push_back(job);
      }
      whole_free_ -= need;
      return true;
    }
    for (int base = 0; base < nodes(); base += 64) {
      const std::uint64_t m = mask_at_least(base, gpus);
      if (m == 0) continue;
      const int n = base + std::countr_zero(m);
      if (free_[n] == g) {
        --whole_free_;
        set_whole(n, false);
      }
      free_[n] -= gpus;
      remember_place(job, static_cast<std::uint32_t>(jobs_[n].size()));
      jobs_[n].push_back(job);
      placed.push_back(n);
      return true;
    }
    return false;
  }

  void release(int gpus, std::uint32_t job, const NodeList& placed) {
    if (gpus >= gpus_per_node_) {
      // Whole nodes: each lists this job alone, or nothing when it failed and dropped it (a
      // node that is down takes no job until it is repaired).
      for (int n : placed) {
        if (jobs_[n].empty()) continue;
        jobs_[n].clear();
        if (free_[n] == kDown) continue;
        free_[n] = gpus_per_node_;
        set_whole(n, true);
        ++whole_free_;
      }
      return;
    }
    const int n = placed.front();
    auto& list = jobs_[n];
    const std::uint32_t i = place_of_[job];
    if (i >= list.size() || list[i] != job) return;  // the node failed and dropped it already
    list[i] = list.back();
    place_of_[list[i]] = i;
    list.pop_back();
    if (free_[n] == kDown) return;
    free_[n] += gpus;
    if (free_[n] == gpus_per_node_) {
      ++whole_free_;
      set_whole(n, true);
    }
  }

  // Takes node n down; `killed` receives the jobs that were on it (each once).
  void fail(int node, TrivialVector<std::uint32_t>& killed) {
    killed = jobs_[node];
    jobs_[node].clear();
    if (free_[node] == kDown) return;
    if (free_[node] == gpus_per_node_) --whole_free_;
    set_whole(node, false);
    free_[node] = kDown;
    --nodes_up_;
  }

  void repair(int node) {
    if (free_[node] != kDown) return;
    ++nodes_up_;
    free_[node] = gpus_per_node_;
    set_whole(node, true);
    ++whole_free_;
  }

  void bring_up_all() {
    for (int n = 0; n < nodes(); ++n) repair(n);
  }

 private:
  static constexpr int kDown = -1;  // the free GPUs of a node that is down: no job fits

  // Bit k: node base + k is up with at least `gpus` free (k < 64, base + k < N).
  std::uint64_t mask_at_least(int base, int gpus) const {
    const int count = std::min(64, nodes() - base);
    const int* f = free_.data() + base;
    std::uint64_t m = 0;
    for (int k = 0; k < count; ++k) m |= static_cast<std::uint64_t>(f[k] >= gpus) << k;
    return m;
  }

  // Bit n of whole_mask_: node n is up with every GPU free.
  void set_whole(int node, bool whole) {
    const std::uint64_t bit = std::uint64_t{1} << (node % 64);
    std::uint64_t& word = whole_mask_[node / 64];
    word = whole ? word | bit : word & ~bit;
  }

  void remember_place(std::uint32_t job, std::uint32_t index) {
    if (job >= place_of_.size()) place_of_.resize(std::max<std::size_t>(2 * place_of_.size(), job + 1));
    place_of_[job] = index;
  }

  int nodes_ = 0;
  int gpus_per_node_ = 0;
  int nodes_up_ = 0;
  int whole_free_ = 0;                     // up nodes with every GPU free
  std::vector<int> free_;                  // free GPUs by node; kDown when down
  std::vector<TrivialVector<std::uint32_t>> jobs_;
  std::vector<std::uint32_t> place_of_;    // a small job's index in its node's list
  std::vector<std::uint64_t> whole_mask_;  // the nodes up with every GPU free, 64 a word
};

}  // namespace tco::des
