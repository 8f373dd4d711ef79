#include "reports/json/refresh_json.hpp"

namespace tco {

Json refresh_json(const RefreshFigures& f, int months_after_arrival) {
  return {{"successor_server", f.server},
          {"months_after_arrival", months_after_arrival},
          {"month", f.month},
          {"inside_horizon", f.inside_horizon},
          {"nodes", f.nodes},
          {"old_fleet_sale_usd", f.old_fleet_sale_usd},
          {"successor_capex_usd", f.successor_capex_usd},
          {"successor_sale_usd", f.successor_sale_usd},
          {"successor_racks", f.successor_racks}};
}

}  // namespace tco
