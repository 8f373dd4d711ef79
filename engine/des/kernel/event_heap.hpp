// A 4-ary min-heap of events in their order (engine/des/kernel/event.hpp): half the depth of a binary
// heap, and the four children share a cache line or two, which makes pops (the common
// operation) cheaper. Pops use Floyd's bottom-up refill; the same heap order, so the same pops.
#pragma once

#include <cstddef>

#include "engine/des/kernel/event.hpp"
#include "engine/des/kernel/trivial_vector.hpp"

namespace tco::des {

class EventHeap {
 public:
  void clear() { heap_.clear(); }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }

  void push(const Event& e) {
    heap_.push_uninitialized();  // a hole at the end, filled by sift_up
    sift_up(heap_.size() - 1, e);
  }

  Event pop() {
    const Event out = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) refill_root(last);
    return out;
  }

 private:
  static constexpr std::size_t kArity = 4;

  // `e` goes into the hole at i or one above it. It comes in registers: reading it back from
  // the hole just written would stall on store forwarding.
  void sift_up(std::size_t i, const Event& e) {
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  // The hole left at the root moves down along the smallest children to a leaf, and `e` (the
  // former last element, which usually belongs near the bottom) rises from there. Fewer
  // comparisons than a top-down sift.
  void refill_root(const Event& e) {
    const std::size_t n = heap_.size();
    std::size_t i = 0;
    while (true) {
      const std::size_t first = kArity * i + 1;
      if (first >= n) break;
      std::size_t best;
      if (first + kArity <= n) {
        // Four children: a branch-free tournament.
        const std::size_t a = first + before(heap_[first + 1], heap_[first]);
        const std::size_t b = first + 2 + before(heap_[first + 3], heap_[first + 2]);
        best = before(heap_[b], heap_[a]) ? b : a;
      } else {
        best = first;
        for (std::size_t c = first + 1; c < n; ++c)
          if (before(heap_[c], heap_[best])) best = c;
      }
      heap_[i] = heap_[best];
      i = best;
    }
    sift_up(i, e);
  }

  TrivialVector<Event> heap_;
};

}  // namespace tco::des
