// Every random input of the fluid model switched on, for a scenario shaped like
// tests/fixtures/sweep/rich.json (shared by the doctest sweep tests and the CUDA parity program,
// which is not a doctest binary).
#pragma once

#include "core/io/json_reader.hpp"

namespace tco::test {

inline void switch_on_random_inputs(Json& doc) {
  doc["monte_carlo"]["demand_growth_sigma_per_year"] = 0.1;
  doc["cloud"]["spot"]["availability"] = 0.9;
  doc["cloud"]["spot"]["preemptions_per_instance_hour"] = 0.05;
  doc["cloud"]["spot"]["price_sigma"] = 0.2;
  doc["onprem"]["power"]["monthly_price_sigma"] = 0.15;
  doc["onprem"]["ambient"]["noise_sigma_c"] = 2.0;
  doc["onprem"]["failures"]["afr_per_year"] = 0.5;
  doc["onprem"]["failures"]["afr_growth_per_year"] = 0.5;
}

}  // namespace tco::test
