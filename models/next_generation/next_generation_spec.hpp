// The next-generation event as the scenario writes it (`next_generation`, docs/scenario.md);
// models/next_generation/next_generation.hpp reads it and puts its steps on the plans.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

struct NextGenerationSpec {
  std::string predecessor_gpu;  // the catalog id of the GPU model whose market steps
  int arrival_month = 0;        // the successor ramps at the start of this month
  double rental_price_step_factor = 1.0;
  double resale_step_factor = 1.0;
  Json as_written;  // echoed in the report's inputs
};

}  // namespace tco
