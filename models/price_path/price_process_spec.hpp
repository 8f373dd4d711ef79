// A cloud offer's stochastic price processes as the scenario writes them (`cloud.price_process`,
// docs/scenario.md), read strictly into the plain numbers of models/price_path/price_process.hpp.
// Example: {"on_demand": {"type": "lognormal_jumps", "volatility_per_year": 0.3,
// "jumps_per_year": 1, "jump_log_size": -0.36}} gives s = 0.3 / sqrt(12) = 0.0866 a month,
// lambda = 1/12 a month, J = -0.36 (a 30% cut per jump).
#pragma once

#include <optional>

#include "core/io/json_reader.hpp"
#include "models/price_path/price_process.hpp"

namespace tco {

struct PriceProcessSpec {
  PriceProcessParams params;
  Json as_written;  // the scenario's object, echoed in the report
};

// The kinds a process may move. Reserved prices are fixed when a term starts and are the same on
// every path (a process on them is rejected with its pointer).
struct CloudPriceProcesses {
  std::optional<PriceProcessSpec> on_demand;
  std::optional<PriceProcessSpec> spot;

  bool any() const { return on_demand || spot; }
  PriceProcessParams on_demand_params() const { return on_demand ? on_demand->params : PriceProcessParams{}; }
  PriceProcessParams spot_params() const { return spot ? spot->params : PriceProcessParams{}; }
};

// Reads one kind's process object.
PriceProcessSpec parse_price_process(JsonObjectReader& r);

// Reads `price_process` ({"on_demand": ..., "spot": ...}); has_spot says whether the offer sells spot.
CloudPriceProcesses parse_price_processes(JsonObjectReader& r, bool has_spot, const std::string& offer_id);

}  // namespace tco
