// The CUDA backend's parity probe (docs/sweep.md "Parity probe"): before a sweep's first block
// runs on a device, a small built-in grid is evaluated on the CPU and on the device, and every
// per-path NPV and total must agree to 1e-9 relative, |c - g| / max(1, |c|, |g|) (the device's
// exp/log differ from glibc's in the last bits; nothing else may). Each point of the grid
// switches on one kernel input (a price schedule, a price process, spot, failures, the carbon
// price, each commitment kind, venues with a savings plan, time shifting), so the first point
// that differs names the input at fault. `--backend auto` then runs on the CPU and says why;
// `--backend cuda` stops (DeviceError, exit 3). Example: a device whose two-regime price
// process differed by 2e-6 relative fails at "price process (two regimes)".
// The device is a pair of functions (SweepDevice), so tests replace it without a GPU.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/sweep/sweep_backend.hpp"

namespace tco {

inline constexpr double kParityRelativeTolerance = 1e-9;

// A device that gave figures the CPU does not, under `--backend cuda` (cli/app.cpp: exit 3).
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
inline constexpr long kParityProbePaths = 8;

// One point of the probe's grid: the kernel input it switches on, and its scenario (every record
// inline, so that it loads against any catalog folder).
struct ParityProbeCase {
  std::string input;
  Json scenario;
  bool draws = false;  // the input is random (its paths differ); otherwise every path is the hourly model's
};
std::vector<ParityProbeCase> parity_probe_cases();
// The scenario every case patches: two months of a diurnal 20 GPUs, a cloud plan and a hybrid
// plan "probe" (one node), nothing random.
Json parity_probe_base_scenario();

// A device as the sweep uses it: how many are visible (and why none), and a chunk's per-path
// values on it. cuda_sweep_device() is the CUDA backend.
struct SweepDevice {
  std::function<int(std::string* why)> count;
  std::function<SweepPathValues(const SweepChunk& chunk, long paths)> evaluate;
};
SweepDevice cuda_sweep_device();

struct ParityProbeResult {
  bool passed = false;
  double seconds = 0.0;  // preparing the grid and running it on both backends
  int inputs = 0;        // points of the grid
  long figures = 0;      // per-path values compared (NPV and total)
  double largest_relative_difference = 0.0;
  std::string first_differing_input;  // empty when passed
  std::string detail;                 // where and by how much, or the device's error
};

// The probe's points prepared against `catalog_dir` (any folder of catalog files) and packed in
// one chunk, the inputs in the same order.
struct ParityProbeGrid {
  std::vector<std::string> inputs;
  SweepChunk chunk;
};
ParityProbeGrid parity_probe_grid(const std::string& catalog_dir);

// The comparison alone: `device` against `cpu` on the grid's chunk. The first differing figure,
// in point, plan, path order, names its point's input; a figure that is not a number differs.
ParityProbeResult compare_parity(const ParityProbeGrid& grid, const SweepPathValues& cpu,
                                 const SweepPathValues& device);

// The whole probe: the grid on `threads` CPU threads and on the device (a device that throws has
// failed the probe, its message in `detail`).
ParityProbeResult run_parity_probe(const std::string& catalog_dir, const SweepDevice& device, int threads);

// One line for standard error and the summary: "passed: 13 inputs, 416 figures, largest relative
// difference 2.1e-15, 0.31 s" or what differed.
std::string parity_probe_words(const ParityProbeResult& probe);
// The line a command writes on standard error after the probe: that the device passed, or that
// it failed and the CPU runs instead (`command`: "sweep", "optimize").
std::string parity_probe_console(const ParityProbeResult& probe, const std::string& command);
// The report's run block entry (docs/report.md).
Json parity_probe_json(const ParityProbeResult& probe);

}  // namespace tco
