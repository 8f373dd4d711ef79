// The discrete-event Monte Carlo a decision runs for its caller (calibration, spares sizing):
// its paths, seed, threads, progress and MPI split as the caller was given them, the batch
// and stopping rules at their defaults.
#pragma once

#include <cstdint>
#include <optional>

#include "core/progress/progress_counter.hpp"
#include "engine/montecarlo/monte_carlo.hpp"

namespace tco {

inline MonteCarloOptions decision_monte_carlo(std::optional<long> paths, std::optional<std::uint64_t> seed,
                                              int threads, ProgressCounter* progress, bool split_over_processes) {
  MonteCarloOptions o;
  o.paths = paths;
  o.seed = seed;
  o.threads = threads;
  o.progress = progress;
  o.split_over_processes = split_over_processes;
  return o;
}

}  // namespace tco
