// A range of grid points evaluated by the ranks of an mpirun job (docs/cluster.md). On the CPU
// the paths split in contiguous blocks (core/parallel/process_group.hpp: index_block): every rank
// evaluates every point of the range on its block of paths, so each path's random inputs, which
// the points share, are drawn on one rank only. With CUDA the points split instead (a rank's
// device reduces each of its points over every path). Either way the per-path values (NPV and
// nominal total of every plan and path, each point's deterministic NPVs, the device's moments
// with CUDA) are gathered to the root in rank order and joined in point and path order. A
// point's values on a path depend neither on the points that share its chunk nor on the other
// paths (engine/sweep/sweep_backend.hpp), so the root holds exactly what evaluate_grid_points
// gives one process, and computes every statistic from them as one process does.
// Example: 1,000 paths over 4 ranks: paths [0,250) [250,500) [500,750) [750,1000).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/sweep/sweep_run.hpp"

namespace tco {

// On the root (or one process, or split false): evaluate_grid_points(in, range, ...); on the
// other ranks an empty list. A collective under split: every rank calls it with the same range.
// An error on any rank is raised on the root, with its message and exit code, and as PeerFailed
// on the others (core/parallel/rank_errors.hpp). `progress` counts this rank's items.
// `root_points` (the root's alone; null elsewhere): the range's points already prepared there,
// which the CPU's split broadcasts instead of every rank preparing them again (the CUDA split,
// where each rank prepares only its points, leaves them).
std::vector<SweepPointValues> evaluate_grid_points_over_ranks(const SweepInputs& in, PointRange range,
                                                              SweepBackend backend, int threads, bool split,
                                                              ProgressCounter* progress = nullptr,
                                                              std::int64_t items_total = 0,
                                                              std::int64_t items_done = 0,
                                                              const PreparedGridPoints* root_points = nullptr);

// The bytes of points' values and back (exact: the doubles' bits), as gathered.
std::string sweep_point_values_bytes(const std::vector<SweepPointValues>& values);
std::vector<SweepPointValues> sweep_point_values_from_bytes(const std::string& bytes);

// The bytes of prepared points and back (exact), as broadcast.
std::string prepared_grid_points_bytes(const PreparedGridPoints& prepared);
PreparedGridPoints prepared_grid_points_from_bytes(const std::string& bytes);

}  // namespace tco
