// The fixture catalog with a successor server, for the refresh tests (tests/test_refresh.cpp,
// tests/test_refresh_replay.cpp): test-node-2x, 8 GPUs of perf 2 (ref-gpu-2x), $300,000, idle
// 3 kW, peak 12 kW, beside the fixture's test-node-8 (tests/scenario_builder.hpp).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "scenario_builder.hpp"

namespace tco::test {

inline std::string write_successor_catalog(const std::filesystem::path& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(fixture_catalog_dir()))
    std::filesystem::copy_file(entry.path(), dir / entry.path().filename(),
                               std::filesystem::copy_options::overwrite_existing);
  Json gpus = Json::parse(std::ifstream(dir / "gpus.json"));
  gpus["records"].push_back({{"id", "ref-gpu-2x"}, {"name", "successor GPU"}, {"perf_relative", 2.0},
                             {"memory_gb", 180}, {"tdp_w", 1000}, {"source", "test fixture"}, {"as_of", "2026-01-01"}});
  write_json_file(dir / "gpus.json", gpus);
  Json servers = Json::parse(std::ifstream(dir / "servers.json"));
  servers["records"].push_back({{"id", "test-node-2x"}, {"gpu_model", "ref-gpu-2x"}, {"gpus", 8},
                                {"price_usd", 300000}, {"idle_kw", 3.0}, {"peak_kw", 12.0},
                                {"source", "test fixture"}, {"as_of", "2026-01-01"}});
  write_json_file(dir / "servers.json", servers);
  return dir.string();
}

// Written once per test process, in a folder of its own (ctest runs the cases as parallel
// processes).
inline std::string successor_catalog_dir() {
  static const std::string dir = write_successor_catalog(scratch_dir("refresh-catalog-" + std::to_string(::getpid())));
  return dir;
}

// 16 GPUs steady for 24 months, discount 0: "buy-2" owns two $200,000 test-node-8 nodes (6%
// maintenance, colocation $100/kW-month + $500/rack-month, $0.10/kWh at PUE 1.5; resale 30% a
// year). The successor arrives in `arrival` with the resale step 0.5 and no rental step; "refresh"
// is buy-2 selling them `k` months later for one test-node-2x node.
inline Json refresh_scenario(const Json& arrival, int k) {
  Json doc = base_scenario_json();
  doc["catalog_dir"] = successor_catalog_dir();
  doc["horizon_months"] = 24;
  doc["onprem"]["residual"] = {{"enabled", true}, {"resale_decline_per_year", 0.3}};
  doc["next_generation"] = {{"predecessor_gpu", "ref-gpu"},
                            {"arrival_month", arrival},
                            {"rental_price_step_factor", 1.0},
                            {"resale_step_factor", 0.5},
                            {"successor_server", "test-node-2x"}};
  doc["plans"].push_back(
      {{"name", "refresh"}, {"kind", "hybrid"}, {"onprem_nodes", 2}, {"refresh", {{"months_after_arrival", k}, {"nodes", 1}}}});
  return doc;
}

}  // namespace tco::test
