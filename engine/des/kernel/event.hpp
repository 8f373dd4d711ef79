// One event of the discrete-event replay and its order: (time, priority, sequence number), so
// that events at the same instant run in a fixed order: the calendar first (month, then hour
// boundaries), then what frees capacity (repairs, finishes), then a refresh's cutover (the runs
// that end at its instant end on the old fleet), then what takes capacity (failures, timeouts,
// releases, arrivals). The sequence number (insertion order) breaks the remaining
// ties, so a run never depends on how the queue stores its events. A job's life on spot and
// on-demand instances needs no events (engine/des/cloud/cloud_runs.hpp).
#pragma once

#include <bit>
#include <cstdint>

namespace tco::des {

enum class EventKind : std::uint8_t {
  month_boundary = 0,
  hour_boundary = 1,
  node_repair = 2,
  finish = 3,
  refresh = 4,     // a refresh's cutover to the successor fleet
  node_failure = 5,
  max_wait = 6,    // a queued job has waited its max_wait_h: it bursts
  release = 7,     // a deferred job's cheap window starts
  arrival = 8,
};
inline constexpr int kEventKindCount = 9;

struct Event {
  double time_h;
  std::uint64_t order;  // priority (kind) in the top 8 bits, sequence number below
  std::uint32_t target; // job slot or node index
  std::uint32_t generation;

  EventKind kind() const { return static_cast<EventKind>(order >> 56); }
};

inline std::uint64_t event_order(EventKind kind, std::uint64_t sequence) {
  return (static_cast<std::uint64_t>(kind) << 56) | sequence;
}

// Integer comparisons of (time, order) without short-circuits, so no branch the predictor
// cannot learn (which child of a heap node is the smallest is a coin toss). Event times are
// never negative (EventQueue stores -0 as +0), and the bits of non-negative doubles order as
// the numbers do.
inline bool before(const Event& a, const Event& b) {
  const std::uint64_t ta = std::bit_cast<std::uint64_t>(a.time_h), tb = std::bit_cast<std::uint64_t>(b.time_h);
  return (ta < tb) | ((ta == tb) & (a.order < b.order));
}

}  // namespace tco::des
