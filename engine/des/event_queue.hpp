// The discrete-event replay's event queue: events come out in their order (engine/des/event.hpp:
// time, priority, sequence number). Most wait in a 4-ary heap; max-wait timeouts and spot
// retries, scheduled at "now + the same delay" and hence pushed in order, wait in FIFO lanes
// beside it (O(1) each; one pushed out of order goes to the heap), and a pop takes the smallest
// of the heap's top and the lanes' fronts: the same events in the same order as one heap.
// Events are not removed when they become stale (a job preempted before its finish event):
// each carries the generation of the job or node it was scheduled for, and the simulator
// drops it on pop when the generation has moved on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "engine/des/event.hpp"
#include "engine/des/event_heap.hpp"
#include "engine/des/event_lane.hpp"

namespace tco::des {

class EventQueue {
 public:
  void clear() {
    heap_.clear();
    for (EventLane& lane : lanes_) lane.clear();
    sequence_ = 0;
  }
  bool empty() const { return heap_.empty() && lanes_[0].empty() && lanes_[1].empty(); }
  const Event& top() const {
    const int s = smallest_source();
    return s == kHeap ? heap_.top() : lanes_[s].front();
  }
  // The next event, or null when there is none.
  const Event* peek() const { return empty() ? nullptr : &top(); }

  void push(double time_h, EventKind kind, std::uint32_t target, std::uint32_t generation) {
    const Event e{time_h, event_order(kind, sequence_++), target, generation};
    const int l = lane_of(kind);
    if (l != kHeap && lanes_[l].fits_after(e)) {
      lanes_[l].push(e);
      return;
    }
    heap_.push(e);
  }

  Event pop() {
    const int s = smallest_source();
    return s == kHeap ? heap_.pop() : lanes_[s].pop();
  }

 private:
  static constexpr int kHeap = -1;
  static int lane_of(EventKind kind) {
    return kind == EventKind::max_wait ? 0 : kind == EventKind::spot_retry ? 1 : kHeap;
  }
  int smallest_source() const {
    int s = kHeap;
    const Event* best = heap_.empty() ? nullptr : &heap_.top();
    for (int l = 0; l < static_cast<int>(lanes_.size()); ++l) {
      if (lanes_[l].empty()) continue;
      if (!best || before(lanes_[l].front(), *best)) {
        best = &lanes_[l].front();
        s = l;
      }
    }
    return s;
  }

  EventHeap heap_;
  std::array<EventLane, 2> lanes_;
  std::uint64_t sequence_ = 0;
};

}  // namespace tco::des
