// The parity grids (issue 51): one grid per kernel input kind, each the built-in parity probe's
// point for that input (engine/sweep/sweep_parity_probe.cpp: spot, failures, demand/power/ambient
// shocks, both price processes, venues with a savings plan, both price schedule kinds, the
// carbon price, each commitment kind, time shifting) at three loads, 12, 20 and 36 GPUs, over
// its two months on 6 paths. The device parity program (tests/cuda/test_sweep_cuda.cpp) runs
// each grid on both backends; without a device, tests/test_sweep_parity_grids.cpp runs the CPU
// half: each grid through the CPU backend against the hourly model. Shared by the doctest binary
// and the CUDA program, which is not one.
#pragma once

#include <string>
#include <vector>

#include "engine/sweep/sweep_parity_probe.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "models/scenario.hpp"

namespace tco::test {

inline constexpr long kParityGridPaths = 6;
inline constexpr int kParityGridLoadsGpus[] = {12, 20, 36};

struct ParityGrid {
  std::string input;
  bool draws = false;
  std::vector<Json> documents;  // per point
  std::vector<SweepPoint> points;
  SweepChunk chunk;
};

// The probe case's scenario at `gpus` GPUs of steady load.
inline Json parity_grid_document(const Json& scenario, int gpus) {
  Json doc = scenario;
  doc["workload"]["profiles"][0]["gpus"] = gpus;
  return doc;
}

// `catalog_dir`: any folder of catalog files (the probe's records are inline).
inline std::vector<ParityGrid> parity_grids(const std::string& catalog_dir) {
  std::vector<ParityGrid> grids;
  for (const ParityProbeCase& c : parity_probe_cases()) {
    ParityGrid g;
    g.input = c.input;
    g.draws = c.draws;
    for (int gpus : kParityGridLoadsGpus) {
      g.documents.push_back(parity_grid_document(c.scenario, gpus));
      const Scenario s = load_scenario_json(g.documents.back(), "parity-grid.json", ".", catalog_dir);
      g.points.push_back(prepare_sweep_point(s, s.monte_carlo.seed));
    }
    g.chunk = make_sweep_chunk(g.points);
    grids.push_back(std::move(g));
  }
  return grids;
}

}  // namespace tco::test
