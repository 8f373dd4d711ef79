// The two heaps of the request replay (engine/des/serving/request_replay.cpp), both ordered by
// (key, id) so that ties break the same way on every machine:
//   KeyedHeap    a binary min-heap of (key, id) pairs: a replica's prefill ends (key: time) and
//                decode finishes (key: attained service); size <= the replica's concurrency
//   IndexedHeap  one key per item 0..n-1, changed in place in O(log n): the replicas' next event
//                times
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
  explicit IndexedHeap(std::uint32_t items, double key = 0.0) : heap_(items), place_(items) {
    for (std::uint32_t i = 0; i < items; ++i) {
      heap_[i] = {key, i};
      place_[i] = i;
    }
  }

  std::uint32_t top() const { return heap_.front().id; }
  double top_key() const { return heap_.front().key; }

  void set(std::uint32_t item, double key) {
    const std::uint32_t at = place_[item];
    const KeyedItem moved{key, item};
    if (before(moved, heap_[at])) up(at, moved);
    else down(at, moved);
  }

 private:
  // `moved` goes into the hole at i or above it.
  void up(std::uint32_t i, const KeyedItem& moved) {
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / 2;
      if (!before(moved, heap_[parent])) break;
      put(i, heap_[parent]);
      i = parent;
    }
    put(i, moved);
  }
  void down(std::uint32_t i, const KeyedItem& moved) {
    const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
    while (true) {
      std::uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], moved)) break;
      put(i, heap_[child]);
      i = child;
    }
    put(i, moved);
  }
  void put(std::uint32_t i, const KeyedItem& item) {
    heap_[i] = item;
    place_[item.id] = i;
  }

  std::vector<KeyedItem> heap_;       // (key, item) in heap order
  std::vector<std::uint32_t> place_;  // item -> its index in heap_
};

}  // namespace tco::serving
