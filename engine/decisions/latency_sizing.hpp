// Sizing a serving plan's owned replicas at a latency target (`tcosim optimize --latency-replicas`,
// issue 47 item 5; docs/decisions.md §19). The plan is replayed request by request
// (engine/des/serving/plan_latency.hpp) at each owned replica count R of the range, bought as the
// fewest whole nodes N(R) that hold R replicas (the replay serves with all of N(R)'s replicas; counts
// that need the same N are one point), and, for a plan that rents with workload.requests.rented_scaling,
// at each wait threshold T of a list. The paths are the scenario's (workload.requests.paths, its seed):
// the same arrivals at every point.
//   share_p         = requests within the slo / requests arrived on path p (a path with none meets)
//   meets the slo   <=> (paths with share_p >= target) / paths >= probability
//                       (probability 1, the default: on every path)
//   cost            = the plan's NPV at N in the scenario's deterministic run (the replay's rented and
//                     API dollars are replay figures, not in it: they break ties between thresholds
//                     at one N, the lower first, then the higher threshold)
//   chosen          = the cheapest point that meets the slo (none when no point does)
// Example: six requests 0.01 s apart on replicas of one slot each, 2.1 s a request, a 1 s TTFT
// target: on R replicas R requests start at once and the rest wait past 2 s: share R / 6, so a 99%
// target needs R = 6 and a 50% one R = 3.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/decisions/sizing.hpp"

namespace tco {

struct LatencySizingOptions {
  std::string plan;                        // "" = the scenario's first plan that owns nodes
  IntRange replicas{1, 16, 1};
  double slo_share = 0.99;                 // the share of a path's requests within the slo
  double probability = 1.0;                // the share of paths that must reach it
  std::vector<double> wait_thresholds_s;   // empty: the scenario's own (or none)
};

struct LatencySizingPoint {
  long replicas_asked = 0;   // R of the range (the first that gave this N)
  long nodes = 0;            // N(R)
  int owned_replicas = 0;    // N(R)'s replicas, those replayed
  std::optional<double> wait_threshold_s;
  double npv_usd = 0.0;
  double replay_usd_per_path = 0.0;  // the replay's rented and API overflow dollars, mean a path
  std::optional<double> min_share_within_slo, mean_share_within_slo;  // over the paths
  double paths_meeting_share = 0.0;  // the share of paths with share_p >= the target
  bool meets = false;
};

struct LatencySizingResult {
  std::string plan;
  double slo_share = 0.0;
  double probability = 1.0;
  long paths = 0;
  long hours = 0;
  std::vector<LatencySizingPoint> points;  // by N, then threshold, ascending
  std::optional<std::size_t> chosen;
};

// Whether a point with these per-path shares meets the target at the probability (above).
// Example: shares {1, 0.98, 0.995, 0.999}, target 0.99: 3 of 4 paths reach it, so it meets at
// probability 0.75 and not at 0.8.
bool meets_slo_share(const std::vector<double>& shares, double target, double probability);

// Sizes plan `options.plan` of a scenario document (loaded by load_scenario_json). Input errors (no
// workload.requests, a plan that owns no nodes, a threshold list for a scenario without rented
// scaling, a share or probability outside (0, 1]) name the option or the pointer.
LatencySizingResult optimize_latency_replicas(const Json& document, const std::string& file, const std::string& dir,
                                              const std::string& catalog_dir, const LatencySizingOptions& options);

}  // namespace tco
