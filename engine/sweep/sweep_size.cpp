#include "engine/sweep/sweep_size.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace {

constexpr double kBlockPathHours = 8e9;  // seconds on a GPU, tens of seconds on a CPU
constexpr long kMaxBlockPoints = 4096;
constexpr double kDocumentBytesPerPointPlan = 1024.0;

}  // namespace

long default_block_points(double path_hours_per_point, double bytes_per_point) {
  const double by_time = kBlockPathHours / std::max(path_hours_per_point, 1.0);
  const double by_memory = kMaxSweepBlockBytes / std::max(2.0 * bytes_per_point, 1.0);
  return static_cast<long>(std::clamp(std::min(by_time, by_memory), 1.0, static_cast<double>(kMaxBlockPoints)));
}

SweepSize estimate_sweep_size(long points, long paths, int plans, long horizon_hours, long block_points,
                              double bytes_per_point) {
  SweepSize s;
  s.points = points;
  s.paths = paths;
  s.plans = plans;
  s.horizon_hours = horizon_hours;
  s.block_points = block_points;
  const double n = static_cast<double>(points);
  const double block = std::min(static_cast<double>(block_points), n);
  s.path_hours = n * static_cast<double>(paths) * static_cast<double>(horizon_hours);
  s.cpu_seconds_one_thread = s.path_hours / kCpuPathHoursPerSecondPerThread;
  s.prepare_seconds_one_thread = n * static_cast<double>(horizon_hours) / kPreparePointHoursPerSecondPerThread;
  s.memory_bytes = block * 2.0 * bytes_per_point + block * static_cast<double>(paths) * plans * 16.0 +
                   n * plans * kDocumentBytesPerPointPlan;
  return s;
}

std::string sweep_size_words(const SweepSize& s, int threads) {
  const int t = std::max(threads, 1);
  return fmt::format("{} points x {} paths x {} hours = {:.6g} path-hours ({} plans): about {:.3g} s on {} thread{}, "
                     "after {:.3g} s preparing the points; about {:.3g} GB of memory",
                     s.points, s.paths, s.horizon_hours, s.path_hours, s.plans, s.cpu_seconds_one_thread / t, t,
                     t == 1 ? "" : "s", s.prepare_seconds_one_thread / t, s.memory_bytes / 1e9);
}

void check_sweep_size(const SweepSize& s, const std::string& grid_file) {
  const std::string estimate =
      fmt::format("{} points x {} paths x {} plans: {:.3g} path-hours (about {:.3g} CPU hours on one thread), "
                  "about {:.3g} GB of memory",
                  s.points, s.paths, s.plans, s.path_hours, s.cpu_seconds_one_thread / 3600.0, s.memory_bytes / 1e9);
  if (s.points > kMaxSweepPoints)
    throw InputError(grid_file, "", fmt::format("the grid has more than {} points ({}); split it into several grids",
                                                kMaxSweepPoints, estimate));
  if (s.path_hours > kMaxSweepPathHours)
    throw InputError(grid_file, "", fmt::format("the sweep is larger than {:.0e} path-hours ({}); use fewer points or "
                                                "--paths", kMaxSweepPathHours, estimate));
  if (s.memory_bytes > kMaxSweepMemoryBytes)
    throw InputError(grid_file, "", fmt::format("the sweep would need more than {:.0f} GB of memory ({}); use fewer "
                                                "points, --paths or --block-points",
                                                kMaxSweepMemoryBytes / 1e9, estimate));
}

}  // namespace tco
