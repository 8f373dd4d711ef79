// The least-active router's choice in O(1) (engine/des/serving/request_replay.cpp): each replica's
// outstanding requests (active + waiting) changes by one at a time, so the replicas sit in lists
// by count, and the lowest non-empty count is tracked as counts move. Within a count, the replica
// that has held it longest is chosen (it joined the list's tail, the choice is its head): the same
// choice on every machine, and one that spreads ties around.
#pragma once

#include <cstdint>
#include <vector>

namespace tco::serving {

class LeastLoaded {
 public:
  explicit LeastLoaded(std::uint32_t items) : count_(items, 0), next_(items), prev_(items), head_(1, kNone), tail_(1, kNone) {
    for (std::uint32_t i = 0; i < items; ++i) append(i, 0);
  }

  std::uint32_t choose() const { return head_[lowest_]; }

  // A parked item (a rented replica not running) is never chosen; at least one item stays unparked.
  bool parked(std::uint32_t item) const { return count_[item] == kNone; }
  void park(std::uint32_t item) {
    unlink(item, count_[item]);
    count_[item] = kNone;
    while (head_[lowest_] == kNone) ++lowest_;
  }
  void unpark(std::uint32_t item) {
    append(item, 0);
    count_[item] = 0;
    lowest_ = 0;
  }

  void set(std::uint32_t item, std::uint32_t count) {
    const std::uint32_t old = count_[item];
    if (count == old || parked(item)) return;
    unlink(item, old);
    append(item, count);
    count_[item] = count;
    if (count < lowest_) lowest_ = count;
    while (head_[lowest_] == kNone) ++lowest_;
  }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  void append(std::uint32_t item, std::uint32_t count) {
    if (head_.size() <= count) {
      head_.resize(count + 1, kNone);
      tail_.resize(count + 1, kNone);
    }
    prev_[item] = tail_[count];
    next_[item] = kNone;
    if (tail_[count] == kNone) head_[count] = item;
    else next_[tail_[count]] = item;
    tail_[count] = item;
  }

  void unlink(std::uint32_t item, std::uint32_t count) {
    if (prev_[item] == kNone) head_[count] = next_[item];
    else next_[prev_[item]] = next_[item];
    if (next_[item] == kNone) tail_[count] = prev_[item];
    else prev_[next_[item]] = prev_[item];
  }

  std::vector<std::uint32_t> count_, next_, prev_;
  std::vector<std::uint32_t> head_, tail_;  // per count
  std::uint32_t lowest_ = 0;
};

}  // namespace tco::serving
