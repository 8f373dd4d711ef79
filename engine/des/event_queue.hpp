// The discrete-event replay's event queue: a 4-ary min-heap ordered by (time, priority,
// sequence number), so that events at the same instant run in a fixed order: the calendar
// first (month, then hour boundaries), then what frees capacity (repairs, finishes), then
// what takes it (preemptions, failures, timeouts, retries, arrivals). The sequence number
// (insertion order) breaks the remaining ties, so a run never depends on the heap's layout.
// Events are not removed when they become stale (a job preempted before its finish event):
// each carries the generation of the job or node it was scheduled for, and the simulator
// drops it on pop when the generation has moved on.
#pragma once

#include <cstdint>
#include <vector>

namespace tco::des {

enum class EventKind : std::uint8_t {
  month_boundary = 0,
  hour_boundary = 1,
  node_repair = 2,
  finish = 3,
  preemption = 4,
  node_failure = 5,
  max_wait = 6,    // a queued job has waited its max_wait_h: it bursts
  spot_retry = 7,
  release = 8,     // a deferred job's cheap window starts
  arrival = 9,
};
inline constexpr int kEventKindCount = 10;

struct Event {
  double time_h;
  std::uint64_t order;  // priority (kind) in the top 8 bits, sequence number below
  std::uint32_t target; // job slot or node index
  std::uint32_t generation;

  EventKind kind() const { return static_cast<EventKind>(order >> 56); }
};

class EventQueue {
 public:
  void clear() {
    heap_.clear();
    sequence_ = 0;
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }

  void push(double time_h, EventKind kind, std::uint32_t target, std::uint32_t generation) {
    heap_.push_back({time_h, (static_cast<std::uint64_t>(kind) << 56) | sequence_++, target, generation});
    sift_up(heap_.size() - 1);
  }

  Event pop() {
    Event out = heap_.front();
    const Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) refill_root(last);
    return out;
  }

 private:
  static bool before(const Event& a, const Event& b) {
    return a.time_h < b.time_h || (a.time_h == b.time_h && a.order < b.order);
  }
  // A 4-ary heap: half the depth of a binary one, and the four children share a cache line
  // or two, which makes pops (the common operation) cheaper.
  static constexpr std::size_t kArity = 4;
  void sift_up(std::size_t i) {
    const Event e = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  // Floyd's bottom-up pop: the hole left at the root moves down along the smaller children to
  // a leaf, and `e` (the former last element, which usually belongs near the bottom) rises from
  // there. Fewer comparisons than a top-down sift; the same heap order, so the same pops.
  void refill_root(const Event& e) {
    const std::size_t n = heap_.size();
    std::size_t i = 0;
    while (true) {
      const std::size_t first = kArity * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t last = first + kArity < n ? first + kArity : n;
      for (std::size_t c = first + 1; c < last; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
    sift_up(i);
  }

  std::vector<Event> heap_;
  std::uint64_t sequence_ = 0;
};

}  // namespace tco::des
