// `tcosim run --checkpoint-dir D` for the fluid Monte Carlo (engine/montecarlo/fluid_monte_carlo.hpp,
// docs/cluster.md "Long runs"): batches of 100 paths written to D, read back by a rerun with the
// same key, recomputed when damaged, never read under another key; the values are those of an
// uninterrupted run, bit for bit. (The mpirun side: mpi_run_checkpoint_rerun_fluid.)
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "test_sweep_support.hpp"

namespace fs = std::filesystem;

namespace tco::test {

namespace {

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("fluid checkpoints: batches of 100 paths, read back bit for bit, recomputed when damaged") {
  const Scenario s = load_sweep_scenario(random_sweep_json());
  const FluidMonteCarloRun reference = run_fluid_monte_carlo(s, 250, 7, 2);
  const fs::path dir = scratch_dir("fluid-checkpoints");

  const FluidMonteCarloRun first = run_fluid_monte_carlo(s, 250, 7, 2, nullptr, false, dir.string());
  CHECK(first.paths_from_checkpoints == 0);
  CHECK(first.npv_by_path == reference.npv_by_path);  // the batches change nothing
  const std::vector<std::string> names = files_in(dir);
  REQUIRE(names.size() == 3);
  CHECK(names[0].substr(16) == "-paths-0-100.bin");
  CHECK(names[1].substr(16) == "-paths-100-200.bin");
  CHECK(names[2].substr(16) == "-paths-200-250.bin");
  // A header line, then 100 paths x 3 plans x (NPV, nominal) x 8 bytes = 4,800 bytes.
  const fs::path batch0 = dir / names[0];
  const std::string text = read_text_file(batch0);
  CHECK(text.size() - (text.find('\n') + 1) == 4800);

  const FluidMonteCarloRun rerun = run_fluid_monte_carlo(s, 250, 7, 1, nullptr, false, dir.string());
  CHECK(rerun.paths_from_checkpoints == 250);
  CHECK(rerun.npv_by_path == reference.npv_by_path);
  CHECK(rerun.plans[1].npv_usd.mean == reference.plans[1].npv_usd.mean);

  // A file cut short is recomputed (and rewritten); the values do not change.
  fs::resize_file(dir / names[2], fs::file_size(dir / names[2]) - 8);
  const FluidMonteCarloRun damaged = run_fluid_monte_carlo(s, 250, 7, 2, nullptr, false, dir.string());
  CHECK(damaged.paths_from_checkpoints == 200);
  CHECK(damaged.npv_by_path == reference.npv_by_path);

  // Another seed has another key: nothing is read, three more files are written.
  const FluidMonteCarloRun other = run_fluid_monte_carlo(s, 250, 8, 2, nullptr, false, dir.string());
  CHECK(other.paths_from_checkpoints == 0);
  CHECK(other.npv_by_path != reference.npv_by_path);
  CHECK(files_in(dir).size() == 6);
}

}  // namespace tco::test
