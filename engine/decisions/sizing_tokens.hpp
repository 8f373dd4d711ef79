// The token figures of each point of a serving plan's sizing curve (issue 46 item 6;
// docs/decisions.md §1 "A serving plan", docs/tokens.md §6): the plan evaluated at its node
// count N in the scenario as written (the deterministic hourly run, as deterministic_npv_usd):
//   owned replicas = floor(N x GPUs per node / GPUs per replica of the plan's serving profile)
//   $/M tokens     = plan_tokens' reservation and usage bases at N (the whole nominal cost, and
//                    that of the busy GPU-hours, over the tokens served, x 1e6)
//   over the paths: the reservation basis of each Monte Carlo path = the path's nominal cost x 1e6 /
//                   the path's tokens served (the sweep kernel's, engine/sweep/sweep_kernel.hpp:
//                   its drawn growth, its world's request rate and tokens per request, its backlog)
// Example: 12 HGX nodes of 8 GPUs serving with an 8-GPU replica own 12 replicas; a 16-GPU
// replica, 6.
#pragma once

#include <optional>
#include <vector>

#include "core/stats/statistics.hpp"
#include "models/scenario.hpp"

namespace tco {

struct SizingTokens {
  long owned_replicas = 0;
  int gpus_per_replica = 1;
  double tokens_served = 0.0;
  double tokens_unserved = 0.0;
  // Absent when nothing was served.
  std::optional<double> reservation_usd_per_million_tokens;
  std::optional<double> usage_usd_per_million_tokens;
  // The reservation basis over the point's Monte Carlo paths (absent when a path served nothing).
  std::optional<Summary> reservation_usd_per_million_tokens_paths;
};

// The figures of plan `plan` of `point` (a scenario at one point of the grid); nullopt when its
// workload has no tokens.
std::optional<SizingTokens> sizing_point_tokens(const Scenario& point, int plan);

// Each path's nominal cost `total_by_path_usd` x 1e6 / its `tokens_by_path`, summarized into
// t.reservation_usd_per_million_tokens_paths (left absent when a path served no token).
void add_path_usd_per_million_tokens(SizingTokens& t, const std::vector<double>& total_by_path_usd,
                                     const std::vector<double>& tokens_by_path);

}  // namespace tco
