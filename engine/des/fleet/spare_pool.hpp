// The replay's hot spares (models/site/spares.hpp): how long a failed node's place stays empty.
// A failure takes a free spare when the swap is quicker than the repair: the place is back after
// swap_h, and the failed node joins the spares when its repair ends, repair_h after the failure.
// Without a free spare the place waits repair_h, as with no spares. Spares arrive with the fleet.
// Example: 1 spare, swap 2 h, repair 48 h; failures at t = 10 and t = 30: the first is back at 12
// (the spare returns at 58); the second finds none free and is back at 78.
#pragma once

namespace tco::des {

class SparePool {
 public:
  void deliver(int spares) { free_ = spares; }
  int free() const { return free_; }

  // The hours a failed node's place stays empty; takes a spare when one is free and quicker.
  double take_for_failure(double swap_h, double repair_h) {
    if (free_ == 0 || !(swap_h < repair_h)) return repair_h;
    --free_;
    return swap_h;
  }
  void repaired_node_back() { ++free_; }

 private:
  int free_ = 0;
};

}  // namespace tco::des
