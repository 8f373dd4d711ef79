// A FIFO of events pushed in their own order (engine/des/kernel/event.hpp), as events scheduled at
// "now + a constant" are: a ring buffer whose front is its smallest event, so a push and a pop
// cost O(1) instead of a heap's O(log n). The caller checks the order (fits_after) first.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/des/kernel/cold.hpp"
#include "engine/des/kernel/event.hpp"

namespace tco::des {

class EventLane {
 public:
  void clear() { head_ = size_ = 0; }
  bool empty() const { return size_ == 0; }
  const Event& front() const { return ring_[head_]; }
  // Would `e` keep the lane in order behind its last event?
  bool fits_after(const Event& e) const { return size_ == 0 || !before(e, ring_[(head_ + size_ - 1) & mask_]); }

  void push(const Event& e) {
    if (size_ == ring_.size()) grow();
    ring_[(head_ + size_) & mask_] = e;
    ++size_;
  }

  Event pop() {
    const Event out = ring_[head_];
    head_ = (head_ + 1) & mask_;
    --size_;
    return out;
  }

 private:
  TCO_COLD void grow() {
    std::vector<Event> bigger(ring_.empty() ? 16 : 2 * ring_.size());
    for (std::size_t k = 0; k < size_; ++k) bigger[k] = ring_[(head_ + k) & mask_];
    ring_.swap(bigger);
    head_ = 0;
    mask_ = ring_.size() - 1;
  }

  std::vector<Event> ring_;  // a power-of-two size
  std::size_t mask_ = 0;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace tco::des
