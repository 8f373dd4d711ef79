// The two heaps of the request replay (engine/des/serving/request_replay.cpp), both ordered by
// (key, id) so that ties break the same way on every machine:
//   KeyedHeap    a binary min-heap of (key, id) pairs: a replica's prefill ends (key: time) and
//                decode finishes (key: attained service); size <= the replica's concurrency
//   IndexedHeap  one key per item 0..n-1, changed in place in O(log n): the replicas' next event
//                times, and their outstanding requests for the least-active router
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace tco::serving {

struct KeyedItem {
  double key;
  std::uint32_t id;
};

inline bool before(const KeyedItem& a, const KeyedItem& b) { return a.key < b.key || (a.key == b.key && a.id < b.id); }

class KeyedHeap {
 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const KeyedItem& top() const { return items_.front(); }

  void push(KeyedItem item) {
    std::size_t i = items_.size();
    items_.push_back(item);
    while (i > 0) {
      const std::size_t parent = (i - 1) / 2;
      if (!before(item, items_[parent])) break;
      items_[i] = items_[parent];
      i = parent;
    }
    items_[i] = item;
  }

  KeyedItem pop() {
    const KeyedItem out = items_.front();
    const KeyedItem last = items_.back();
    items_.pop_back();
    const std::size_t n = items_.size();
    if (n == 0) return out;
    std::size_t i = 0;
    while (true) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(items_[child + 1], items_[child])) ++child;
      if (!before(items_[child], last)) break;
      items_[i] = items_[child];
      i = child;
    }
    items_[i] = last;
    return out;
  }

 private:
  std::vector<KeyedItem> items_;
};

class IndexedHeap {
 public:
  explicit IndexedHeap(std::uint32_t items, double key = 0.0) : key_(items, key), heap_(items), place_(items) {
    for (std::uint32_t i = 0; i < items; ++i) heap_[i] = place_[i] = i;
  }

  std::uint32_t top() const { return heap_.front(); }
  double top_key() const { return key_[heap_.front()]; }
  double key(std::uint32_t item) const { return key_[item]; }

  void set(std::uint32_t item, double key) {
    const double old = key_[item];
    key_[item] = key;
    if (less(key, item, old, item)) up(place_[item]);
    else down(place_[item]);
  }

 private:
  static bool less(double ka, std::uint32_t a, double kb, std::uint32_t b) { return ka < kb || (ka == kb && a < b); }
  bool less_at(std::uint32_t i, std::uint32_t j) const { return less(key_[heap_[i]], heap_[i], key_[heap_[j]], heap_[j]); }
  void swap_at(std::uint32_t i, std::uint32_t j) {
    std::swap(heap_[i], heap_[j]);
    place_[heap_[i]] = i;
    place_[heap_[j]] = j;
  }
  void up(std::uint32_t i) {
    while (i > 0 && less_at(i, (i - 1) / 2)) {
      swap_at(i, (i - 1) / 2);
      i = (i - 1) / 2;
    }
  }
  void down(std::uint32_t i) {
    const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
    while (true) {
      std::uint32_t best = i;
      const std::uint32_t left = 2 * i + 1, right = left + 1;
      if (left < n && less_at(left, best)) best = left;
      if (right < n && less_at(right, best)) best = right;
      if (best == i) return;
      swap_at(i, best);
      i = best;
    }
  }

  std::vector<double> key_;
  std::vector<std::uint32_t> heap_;   // items in heap order
  std::vector<std::uint32_t> place_;  // item -> its index in heap_
};

}  // namespace tco::serving
