// What a site can feed (docs/model.md "Site power"): power_cap_mw of IT load (critical IT power,
// the figure a data-centre is quoted by), available from energized_month on. A plan whose fleet
// draws more, N x peak_kw > 1000 x power_cap_mw, or whose hardware would arrive before the site is
// energized, is an input error naming the plan. Example: a 1 MW site feeds 98 nodes of 10.2 kW
// (999.6 kW); 99 nodes need 1,009.8 kW and are refused.
#pragma once

#include <optional>

namespace tco {

struct SiteCapacity {
  std::optional<double> power_cap_mw;  // absent: no cap
  int energized_month = 0;
  bool operator==(const SiteCapacity&) const = default;
};

}  // namespace tco
