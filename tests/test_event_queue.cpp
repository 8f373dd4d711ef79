// The discrete-event replay's queue (engine/des/kernel/event_queue.hpp: a 4-ary heap plus a FIFO lane
// for max-wait timeouts) gives the events in exactly the order of one plain priority queue
// ordered by (time, priority, sequence number), on random mixes of pushes and pops that include
// ties in time, timeouts pushed in and out of order, and -0.
#include <cstdint>
#include <queue>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "engine/des/kernel/event_queue.hpp"

namespace tco::des {

namespace {

// std::priority_queue puts the largest first: "later" is "larger".
struct Later {
  bool operator()(const Event& a, const Event& b) const {
    return a.time_h > b.time_h || (a.time_h == b.time_h && a.order > b.order);
  }
};
using ReferenceQueue = std::priority_queue<Event, std::vector<Event>, Later>;

void check_same(const Event& got, const Event& want) {
  REQUIRE(got.time_h == want.time_h);
  REQUIRE(got.order == want.order);
  REQUIRE(got.target == want.target);
  REQUIRE(got.generation == want.generation);
}

// A delay as the simulator makes them: often none (same-instant events), timeouts at a fixed
// max_wait (in order, so they go to the lane) or, now and then, at another (out of order).
double delay_h(std::mt19937_64& rng, EventKind kind) {
  if (rng() % 4 == 0) return 0.0;
  if (kind == EventKind::max_wait) return rng() % 5 == 0 ? 0.5 : 1.0;
  if (rng() % 7 == 0) return 0.5 * static_cast<double>(rng() % 3);
  return static_cast<double>(rng() % 1000) / 100.0;
}

}  // namespace

TEST_CASE("DES event queue: heap and timeout lane pop in the order of one priority queue") {
  std::mt19937_64 rng(20261122);
  long popped = 0;
  long timeouts = 0;
  for (int trial = 0; trial < 300; ++trial) {
    EventQueue queue;
    ReferenceQueue reference;
    std::uint64_t sequence = 0;
    double now_h = 0.0;
    const int steps = 1 + static_cast<int>(rng() % 2000);
    for (int step = 0; step < steps; ++step) {
      if (rng() % 3 < 2 || reference.empty()) {
        const auto kind = static_cast<EventKind>(rng() % kEventKindCount);
        // now - now is +0 or, for the first event, a -0 the queue must store as +0.
        const double time_h = step == 0 ? -0.0 : now_h + delay_h(rng, kind);
        const auto target = static_cast<std::uint32_t>(rng() % 100);
        queue.push(time_h, kind, target, static_cast<std::uint32_t>(step));
        reference.push({time_h + 0.0, event_order(kind, sequence++), target, static_cast<std::uint32_t>(step)});
      } else {
        const Event got = queue.pop();
        check_same(got, reference.top());
        reference.pop();
        now_h = got.time_h;
        ++popped;
        timeouts += got.kind() == EventKind::max_wait ? 1 : 0;
      }
    }
    while (!reference.empty()) {
      check_same(queue.pop(), reference.top());
      reference.pop();
    }
    CHECK(queue.empty());
  }
  CHECK(popped > 50000);          // the mixes are not trivially short
  CHECK(timeouts > 10000);  // and timeouts, the lane's events, are among them
}

}  // namespace tco::des
