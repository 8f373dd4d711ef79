// A step that a next GPU generation's arrival puts on a price of its predecessor (docs/model.md
// "Next generation"): factor f from hour t_a = 730 x arrival_month on, 1 before.
//   rental price in hour h:  catalog price x schedule/rate factor x (h >= t_a ? f_rent : 1)
//   resale at the horizon's end H: residual x (arrival_month < H ? f_resale : 1)
// Example: arrival month 6, f_rent 0.7: hour 4,379 pays 1.0, hour 4,380 (month 6) pays 0.7.
#pragma once

namespace tco {

struct GenerationStep {
  long from_hour = -1;  // -1: no step
  double factor = 1.0;

  bool active() const { return from_hour >= 0 && factor != 1.0; }
  double at(long hour) const { return from_hour >= 0 && hour >= from_hour ? factor : 1.0; }
};

}  // namespace tco
