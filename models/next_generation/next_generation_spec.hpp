// The next-generation event as the scenario writes it (`next_generation`, docs/scenario.md);
// models/next_generation/next_generation.hpp reads it and puts its steps on the plans.
#pragma once

#include <optional>
#include <string>

#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"
#include "models/next_generation/arrival_draw.hpp"

namespace tco {

struct NextGenerationSpec {
  std::string predecessor_gpu;  // the catalog id of the GPU model whose market steps
  int arrival_month = 0;        // the successor ramps at the start of this month (drawn: the median's)
  ArrivalDraw arrival_draw;     // drawn per Monte Carlo path when arrival_month is a distribution
  double rental_price_step_factor = 1.0;
  double resale_step_factor = 1.0;
  // The server a plan's refresh buys (`successor_server`, a catalog reference as onprem.server
  // takes; null = none named), resolved by the scenario's loader.
  Json successor_server_ref;
  std::optional<ServerModel> successor_server;
  GpuModel successor_gpu;
  Json as_written;  // echoed in the report's inputs
};

}  // namespace tco
