#include "models/site/spares.hpp"

#include "models/input_limits.hpp"

namespace tco {

SparesSpec parse_spares(JsonObjectReader& r) {
  SparesSpec s;
  s.nodes = static_cast<int>(r.integer("nodes", 0, limits::kMaxNodes));
  s.swap_h = r.number_or("swap_h", s.swap_h, limits::kHours);
  s.repair_cost_usd_per_failure = r.number_or("repair_cost_usd_per_failure", 0.0, limits::kUsdPerItem);
  r.finish();
  return s;
}

Json to_json(const SparesSpec& s) {
  return {{"nodes", s.nodes}, {"swap_h", s.swap_h}, {"repair_cost_usd_per_failure", s.repair_cost_usd_per_failure}};
}

}  // namespace tco
