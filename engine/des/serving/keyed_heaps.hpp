// The two heaps of the request replay (engine/des/serving/request_replay.cpp), both ordered by
// (key, id) so that ties break the same way on every machine:
//   KeyedHeap    a binary min-heap of (key, id) pairs: a replica's prefill ends (key: time) and
//                decode finishes (key: attained service); size <= the replica's concurrency
//   IndexedHeap  one key per item 0..n-1, changed in place in O(log n) (8-ary): the replicas' next
//                event times
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
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
  // An 8-ary heap: a third of the levels of a binary one (400 replicas: 3 below the top, not 9),
  // with the keys and the items in two arrays, so that a node's eight children are eight adjacent
  // keys, padded past the last item with keys that sort last (+inf, id kPad): the least of them
  // is seven min's and one equality mask, the items compared only when two keys tie. The top is
  // the least (key, id) whatever the heap's shape, so the order of events is that of any heap.
  // (On the bench, docs/performance.md "Request replay": 8-ary 13% faster than 4-ary; 16-ary slower.)
  explicit IndexedHeap(std::uint32_t items, double key = 0.0)
      : n_(items), key_(items + kArity, kInf), id_(items + kArity, kPad), place_(items) {
    for (std::uint32_t i = 0; i < items; ++i) {
      key_[i] = key;
      id_[i] = i;
      place_[i] = i;
    }
  }

  std::uint32_t top() const { return id_.front(); }
  double top_key() const { return key_.front(); }

  void set(std::uint32_t item, double key) {
    const std::uint32_t at = place_[item];
    const double old = key_[at];
    if (key == old) return;  // (key, item) unchanged: the heap stays as it is
    if (key < old) up(at, key, item);
    else down(at, key, item);
  }

 private:
  static constexpr std::uint32_t kArity = 8;
  static constexpr std::uint32_t kPad = 0xffffffffu;
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  bool before_at(std::uint32_t a, double key, std::uint32_t item) const {
    return key_[a] < key || (key_[a] == key && id_[a] < item);
  }

  // (key, item) goes into the hole at i or above it.
  void up(std::uint32_t i, double key, std::uint32_t item) {
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / kArity;
      if (!(key < key_[parent] || (key == key_[parent] && item < id_[parent]))) break;
      put(i, key_[parent], id_[parent]);
      i = parent;
    }
    put(i, key, item);
  }
  void down(std::uint32_t i, double key, std::uint32_t item) {
    while (true) {
      const std::uint32_t first = kArity * i + 1;
      if (first >= n_) break;
      // key_ holds n_ + kArity entries, so a node's children are all there (padding past n_)
      const double* k = &key_[first];
      double least = k[0];
      for (std::uint32_t j = 1; j < kArity; ++j) least = std::min(least, k[j]);
      unsigned ties = 0;
      for (std::uint32_t j = 0; j < kArity; ++j) ties |= static_cast<unsigned>(k[j] == least) << j;
      std::uint32_t child = first + static_cast<std::uint32_t>(std::countr_zero(ties));
      if (ties & (ties - 1)) {  // equal keys: the least id
        for (std::uint32_t c = child + 1; c < first + kArity; ++c)
          if (k[c - first] == least && id_[c] < id_[child]) child = c;
      }
      if (!before_at(child, key, item)) break;
      put(i, key_[child], id_[child]);
      i = child;
    }
    put(i, key, item);
  }
  void put(std::uint32_t i, double key, std::uint32_t item) {
    key_[i] = key;
    id_[i] = item;
    place_[item] = i;
  }

  std::uint32_t n_;                   // items
  std::vector<double> key_;           // in heap order, then padding
  std::vector<std::uint32_t> id_;     // the item at each place of key_
  std::vector<std::uint32_t> place_;  // item -> its place
};

}  // namespace tco::serving
