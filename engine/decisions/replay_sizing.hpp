// Base-load sizing of a scenario of jobs (`tcosim optimize --nodes` on a scenario with `jobs`,
// issue #44; docs/decisions.md §1): the plan is replayed by the discrete-event Monte Carlo
// (engine/montecarlo/monte_carlo.hpp) at each evaluated point, as a variant of the plan beside
// the others in one scenario. Path p's jobs, spot draws, preemptions and node failures depend
// on (seed, p) and entities that do not depend on the plan (job ids, node indices), never on N:
// every point sees the same world on path p (common random numbers), whichever round of the
// search evaluates it, so the curve's differences are paired.
// Per point, beside the fluid sizing's figures (engine/decisions/sizing.hpp): the jobs' service
// (waited and unserved GPU-hours, mean first wait, deadline misses, bursts; means per path).
// A plan with scheduling.time_shift is replayed at each point beside its twin without shifting
// (the same point and paths): deadline_misses_added_by_shifting = its misses - the twin's.
// A point meets the service limits when its deadline misses per path <= the baseline's, for a
// plan that shifts time shifting adds none (added <= 0 on the paths' mean) and, for
// a plan that never bursts, its mean first wait <= the plan's scheduling.max_wait_h (a plan that
// bursts keeps that limit by construction: a job leaves the queue for the cloud at max_wait_h);
// the best point of each risk measure is chosen among those (among all, flagged, when none does).
// With more than kFullGridNodeCounts node counts and nothing sized jointly, the counts are
// searched (engine/decisions/sizing_search.hpp) instead of all evaluated.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"
#include "engine/decisions/sizing.hpp"

namespace tco {

SizingResult optimize_replay_sizing(const Json& document, const std::string& file, const std::string& dir,
                                    const std::string& catalog_dir, const SizingOptions& options);

}  // namespace tco
