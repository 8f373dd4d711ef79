// The size of a sweep, estimated before anything runs, and its caps (docs/sweep.md "Size").
//   path-hours   = points x paths x horizon hours
//   cpu seconds  = path-hours / 2.5e8 per thread (docs/performance.md: 5e8 on 2 cores)
//   memory bytes = block points x bytes of one prepared point (hourly series and plan
//                  parameters, twice: the point and its copy in the block's chunk)
//                + block points x paths x plans x 16 (per-path NPV and total)
//                + points x plans x 1 KB (the statistics kept for the document)
// Example: 5,000 points of a 3-year, 3-plan scenario at 1 path, 1.25 MB a prepared point: a
// default block of 858 points (2 GiB / 2.5 MB) and about 2.1 GB in all.
#pragma once

#include <string>

namespace tco {

inline constexpr long kMaxSweepPoints = 1'000'000;
// Above this many points (of the grid, or of the shard) `sweep` asks for --yes (or a larger
// --max-points) after printing its estimate: 8,000 points at 4 paths once ran 346 s and 1.1 GB.
inline constexpr long kDefaultMaxSweepPoints = 5'000;
// Preparing (building and validating) points, before any path: 49,500 points of a 3-year
// scenario took 40 s on 2 threads (issue 43), about 1.6e7 point-hours a second a thread.
inline constexpr double kPreparePointHoursPerSecondPerThread = 1.6e7;
inline constexpr double kMaxSweepPathHours = 1e15;           // ~23 days on 2 cores, hours on a GPU
inline constexpr double kMaxSweepMemoryBytes = 16.0 * (1L << 30);
inline constexpr double kCpuPathHoursPerSecondPerThread = 2.5e8;
// A block's prepared points and their chunk, at most (the default block's memory cap).
inline constexpr double kMaxSweepBlockBytes = 2.0 * (1L << 30);

struct SweepSize {
  long points = 0;
  long paths = 0;
  int plans = 0;
  long horizon_hours = 0;
  long block_points = 0;
  double path_hours = 0.0;
  double cpu_seconds_one_thread = 0.0;
  double prepare_seconds_one_thread = 0.0;  // building and validating the points
  double memory_bytes = 0.0;
};

// Points per resumable block when --block-points is not given: about 8e9 path-hours, between 1
// and 4096 points, and at most 2 GiB of prepared points.
long default_block_points(double path_hours_per_point, double bytes_per_point);

// Bytes of a prepared point before one is prepared: about 6 doubles an hour of the horizon
// (1.25 MB for 3 years, as measured).
inline double typical_prepared_point_bytes(long horizon_hours) { return 48.0 * static_cast<double>(horizon_hours); }

SweepSize estimate_sweep_size(long points, long paths, int plans, long horizon_hours, long block_points,
                              double bytes_per_point);

// "9 points x 6 paths x 8760 hours = 473040 path-hours (3 plans): about 0.00189 s on 1 thread, after
// 0.00493 s preparing the points; about 0.0076 GB of memory": what `sweep` prints before it starts.
std::string sweep_size_words(const SweepSize& size, int threads);

// Throws InputError (naming `grid_file`) when the sweep is past a cap; the message gives the
// estimate and what to change.
void check_sweep_size(const SweepSize& size, const std::string& grid_file);

}  // namespace tco
