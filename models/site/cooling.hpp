// Cooling, rack density and airflow (SPEC §5, §12.8).
//   PUE(T) = pue                                               (constant model)
//          = pue_min + pue_slope_per_c x max(0, T - free_cooling_c)   (ambient model)
//   nodes_per_rack = floor(rack_limit_kw / peak_kw)   (0 is an error: the node fits no rack)
//   racks          = ceil(nodes / nodes_per_rack)
//   airflow_cfm    = 3.16 x rack_watts / delta_t_f, rack_watts = peak IT of the fullest rack
// Example: a 50 kW rack at delta T 20 °F needs 3.16 x 50,000 / 20 = 7,900 CFM.
#pragma once

#include <cmath>

#include "core/hd.hpp"
#include "models/catalog/records.hpp"

namespace tco {

// The PUE model as plain numbers, for the hot loop on host and device.
struct PueParams {
  bool ambient_driven = false;
  double pue = 1.0;
  double pue_min = 1.0;
  double pue_slope_per_c = 0.0;
  double free_cooling_c = 0.0;

  bool operator==(const PueParams&) const = default;
};

inline PueParams pue_params(const CoolingType& c) {
  return {c.pue_model == "ambient", c.pue, c.pue_min, c.pue_slope_per_c, c.free_cooling_c};
}

TCO_HD double pue_at(const PueParams& p, double ambient_c) {
  if (!p.ambient_driven) return p.pue;
  const double excess_c = ambient_c > p.free_cooling_c ? ambient_c - p.free_cooling_c : 0.0;
  return p.pue_min + p.pue_slope_per_c * excess_c;
}

// Throws ModelError when a node draws more than a rack may hold.
int nodes_per_rack(double rack_limit_kw, double node_peak_kw);

inline int racks_for(int nodes, int per_rack) { return nodes <= 0 ? 0 : (nodes + per_rack - 1) / per_rack; }

inline double airflow_cfm(double rack_watts, double delta_t_f) { return 3.16 * rack_watts / delta_t_f; }

}  // namespace tco
