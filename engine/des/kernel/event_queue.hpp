// The discrete-event replay's event queue: events come out in their order (engine/des/kernel/event.hpp:
// time, priority, sequence number). Most wait in a 4-ary heap; max-wait timeouts, scheduled at
// "now + the same max_wait_h" and hence pushed in order, wait in a FIFO lane beside it (O(1)
// each; one pushed out of order goes to the heap), and a pop takes the smaller of the heap's top
// and the lane's front: the same events in the same order as one heap.
// Events are not removed when they become stale (a job preempted before its finish event):
// each carries the generation of the job or node it was scheduled for, and the simulator
// drops it on pop when the generation has moved on.
#pragma once

#include <cstdint>

#include "engine/des/kernel/event.hpp"
#include "engine/des/kernel/event_heap.hpp"
#include "engine/des/kernel/event_lane.hpp"

namespace tco::des {

class EventQueue {
 public:
  void clear() {
    heap_.clear();
    lane_.clear();
    sequence_ = 0;
  }
  bool empty() const { return heap_.empty() && lane_.empty(); }

  void push(double time_h, EventKind kind, std::uint32_t target, std::uint32_t generation) {
    const Event e{time_h + 0.0, event_order(kind, sequence_++), target, generation};  // + 0.0: -0 becomes +0
    if (kind == EventKind::max_wait && lane_.fits_after(e)) {
      lane_.push(e);
      return;
    }
    heap_.push(e);
  }

  // The next event, or null when there is none; pop_peeked() removes it (no push in between).
  const Event* peek() {
    if (lane_.empty()) {
      from_lane_ = false;
      return heap_.empty() ? nullptr : &heap_.top();
    }
    from_lane_ = heap_.empty() || before(lane_.front(), heap_.top());
    return from_lane_ ? &lane_.front() : &heap_.top();
  }
  Event pop_peeked() { return from_lane_ ? lane_.pop() : heap_.pop(); }

  Event pop() {
    peek();
    return pop_peeked();
  }

 private:
  EventHeap heap_;
  EventLane lane_;
  bool from_lane_ = false;
  std::uint64_t sequence_ = 0;
};

}  // namespace tco::des
