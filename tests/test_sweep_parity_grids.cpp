// The CPU half of the parity grids (tests/sweep_parity_grids.hpp; the device half is
// tests/cuda/test_sweep_cuda.cpp): each kernel input's grid through the CPU backend against the
// hourly model. Every path of every plan equals the device's hour-by-hour loop run on the host
// (sweep_plan_path: the CUDA kernel's code) to 1e-12; where the input draws nothing, every path
// equals the deterministic hourly model (evaluate_plan) to 1e-12; where it draws, the paths
// differ, and with venues each path is the hourly model with that path's venue draws. And each
// grid really switches its input on: the probe plan's mean NPV moves from the base scenario's.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/ledger/plan_evaluator.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_kernel.hpp"
#include "models/workload/workload.hpp"
#include "scenario_builder.hpp"
#include "sweep_parity_grids.hpp"

namespace tco::test {

namespace {

double parity_relative(double a, double b) { return std::fabs(a - b) / std::max({1.0, std::fabs(a), std::fabs(b)}); }

}  // namespace

TEST_CASE("parity grids: one grid per kernel input, each switching it on, through the CPU backend against the hourly model") {
  const std::vector<ParityGrid> grids = parity_grids(fixture_catalog_dir());
  REQUIRE(grids.size() == 13);
  for (const ParityGrid& g : grids) {
    INFO("grid: " << g.input);
    REQUIRE(g.points.size() == 3);
    const SweepPathValues cpu = run_sweep_cpu(g.chunk, kParityGridPaths, 2);
    std::vector<double> scratch(static_cast<std::size_t>(g.chunk.max_failure_scratch) + 1);
    double device_loop = 0.0, hourly = 0.0, spread = 0.0;
    for (std::size_t i = 0; i < g.points.size(); ++i) {
      INFO("point " << i);
      const SweepPointHeader& pt = g.chunk.points[i];
      const Scenario s = load_scenario_json(g.documents[i], "parity-grid.json", ".", fixture_catalog_dir());
      const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
      for (int j = 0; j < pt.plan_count; ++j) {
        double mean = 0.0;
        for (long k = 0; k < kParityGridPaths; ++k) {
          const double npv = cpu.npv_usd[cpu.index(pt, k, j)];
          const double total = cpu.total_usd[cpu.index(pt, k, j)];
          const SweepPathResult d = sweep_plan_path(pt, g.chunk.plans[pt.first_plan + j], g.chunk.data.data(),
                                                    static_cast<std::uint32_t>(k), scratch.data());
          REQUIRE(d.status == kSweepOk);
          device_loop = std::max({device_loop, parity_relative(npv, d.npv_usd), parity_relative(total, d.total_usd)});
          if (!g.draws) hourly = std::max(hourly, parity_relative(npv, g.points[i].deterministic_npv_usd[j]));
          spread = std::max(spread, std::fabs(npv - cpu.npv_usd[cpu.index(pt, 0, j)]));
          mean += npv / static_cast<double>(kParityGridPaths);
        }
        if (j == 1) {
          // The input is on: the probe plan's mean NPV is not the base scenario's at that load.
          const Json base = parity_grid_document(parity_probe_base_scenario(), kParityGridLoadsGpus[i]);
          const Scenario plain = load_scenario_json(base, "parity-base.json", ".", fixture_catalog_dir());
          const double base_npv =
              evaluate_plan(plain, plain.plans[1],
                            demand_gpus_by_hour(plain.workload, plain.horizon_hours(), plain.calendar))
                  .npv_usd;
          CHECK(std::fabs(mean - base_npv) > 1.0);
        }
      }
      if (g.input == "venues with a savings plan") {
        // Each path is the hourly model with that path's venue draws (engine/ledger/hourly/venue_hour.hpp).
        for (long k = 0; k < kParityGridPaths; ++k) {
          EvaluationOptions options;
          options.venue_draws = VenueDrawKey{s.monte_carlo.seed, static_cast<std::uint32_t>(k)};
          const PlanResult drawn = evaluate_plan(s, s.plans[1], demand, options);
          CHECK(cpu.total_usd[cpu.index(pt, k, 1)] == doctest::Approx(drawn.total_usd).epsilon(1e-11));
        }
      }
    }
    CHECK(device_loop <= 1e-12);
    CHECK(hourly <= 1e-12);
    if (g.draws) CHECK(spread > 1.0);
    else CHECK(spread == 0.0);
  }
}

}  // namespace tco::test
