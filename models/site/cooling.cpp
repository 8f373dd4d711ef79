#include "models/site/cooling.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

int nodes_per_rack(double rack_limit_kw, double node_peak_kw) {
  // The small tolerance keeps 40 kW / 10 kW at 4 despite rounding in the inputs. The ratio is
  // capped before the conversion: a rack of more than a million nodes is as good as endless,
  // and a double above INT_MAX has no int.
  constexpr double kMaxNodesPerRack = 1e6;
  const int per_rack =
      static_cast<int>(std::min(std::floor(rack_limit_kw / node_peak_kw + 1e-9), kMaxNodesPerRack));
  if (per_rack < 1) {
    throw ModelError(fmt::format(
        "a {} kW node cannot go in a {} kW rack: choose a cooling type with a higher rack_limit_kw",
        node_peak_kw, rack_limit_kw));
  }
  return per_rack;
}

}  // namespace tco
