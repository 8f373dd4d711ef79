// The sweep's backends: both evaluate every path of every point of a chunk with the TCO_HD
// functions of engine/sweep/sweep_kernel.hpp and store each result at its own index, so any thread
// count, any split of points and either backend give the same per-path numbers (CPU and CUDA
// to 1e-9 relative: the device's exp/log differ from the host's in the last bits).
//   CPU  (engine/sweep/sweep_cpu.cpp):  OpenMP over (path, block of points); month by month, the
//        month's draws are laid out once for the block, plans alike at several points run once
//        (SweepChunk::same_as), and each plan's 730 hours run through step_hour in 8-wide lanes
//        that the compiler vectorises (AVX-512 / AVX2 clones, no FMA contraction, so every
//        clone gives the same bits).
//   CUDA (engine/sweep/sweep_cuda.cu):  one thread per (point, path), hours in the loop; then one
//        block per point reduces the per-path values to means and standard errors on the device
//        (quantiles are taken on the host from the per-path values).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/progress/progress_counter.hpp"
#include "engine/sweep/sweep_prepare.hpp"

namespace tco {

// Both backends add each (point, path) item they finish to `progress` (when not null), from any
// thread, as soon as it is done.
// Paths first_path .. first_path + paths - 1 (stored at 0 .. paths - 1): a rank's block under mpirun.
SweepPathValues run_sweep_cpu(const SweepChunk& chunk, long paths, int threads, ProgressCounter* progress = nullptr,
                              long first_path = 0);

// Means and standard errors reduced on the device, per (point, plan) in chunk plan order.
struct SweepDeviceMoments {
  std::vector<double> npv_mean_usd;
  std::vector<double> npv_stderr_usd;
  std::vector<double> saving_mean_usd;
  std::vector<double> saving_stderr_usd;
};

// True when this build has the CUDA backend.
bool sweep_cuda_built();
// Visible CUDA devices (0 without the backend or without a device); `why` says why none.
int sweep_cuda_devices(std::string* why = nullptr);
// Throws ModelError when the backend is missing or the device fails.
SweepPathValues run_sweep_cuda(const SweepChunk& chunk, long paths, SweepDeviceMoments* moments,
                               ProgressCounter* progress = nullptr);

}  // namespace tco
