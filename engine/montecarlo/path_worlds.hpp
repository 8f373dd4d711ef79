// A scenario of jobs alone with an `uncertain` section (docs/decisions.md): the discrete-event
// Monte Carlo replays path p in path p's world, the scenario document with the inputs' values for
// path p written at their pointers (draw_uncertain_values, engine/montecarlo/uncertain_paths.hpp:
// the seed, source and rank correlation the hourly uncertainty analysis draws with), loaded as a
// scenario file is. The replay's own streams on path p are the same in every world, so a path
// draws the inputs together with the model's own randomness, and all plans on path p see one
// world: the comparisons stay paired.
// Example: 3 inputs, 200 paths: 200 scenario loads (one per path, whatever the number of plans),
// each world's plans prepared for the replay once.
#pragma once

#include <functional>
#include <string>

#include "engine/montecarlo/monte_carlo.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"

namespace tco {

// Jobs, an `uncertain` section and no hourly workload: the replay draws the inputs.
bool draws_uncertain_in_replay(const Scenario& scenario);

struct PathWorlds {
  // The scenario of path p (called from several threads at once); empty: every path replays the
  // scenario as written.
  std::function<Scenario(long path)> scenario_of_path;
  bool jobs_drawn = false;  // an input points into /jobs: each world builds its own job catalog
};

// The worlds of `in`'s inputs drawn over in.paths paths (a run's paths, or its ceiling under a
// target half-width: the rank correlation reorders the sample it is given).
PathWorlds uncertain_path_worlds(const UncertaintyInputs& in);

// run_monte_carlo with path p replayed in worlds.scenario_of_path(p). Every rank of a split run
// loads the worlds of its own paths, the root those of every path (their fixed costs and
// discount rate price the path).
MonteCarloRun run_monte_carlo(const Scenario& scenario, const MonteCarloOptions& options, const PathWorlds& worlds);

}  // namespace tco
