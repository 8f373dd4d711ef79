// The latency a plan's users see (issue 47; docs/des.md "Requests in a scenario"): the scenario's
// requests (workload.requests) replayed request by request (engine/des/serving/request_replay.hpp)
// on the replicas the plan serves with, its serving profile's rates at max_concurrency.
//   owned replicas   floor(on-prem nodes x GPUs a node x w / GPUs a replica), w = 1 when the nodes
//                    hold the profile's GPU, else their GPU's perf_relative / the profile GPU's
//                    (the work they do in the profile's GPUs; hot spares stand by and serve none)
//   rented replicas  a plan that rents (cloud, or hybrid bursting to the cloud) has, all through
//                    the replay, the whole replicas of the replayed hours' peak:
//                    ceil(max_h tokens(h) / (3,600 x replica tokens/s at the slo)), at least its owned
//                    with workload.requests.rented_scaling, it holds its owned replicas (or, with
//                    none, min_replicas rented ones) and launches up to max_replicas more while
//                    requests wait (engine/des/serving/request_replay.hpp RentedScaling)
//   a plan of kind api, or one with no replica, serves no request here (null figures)
// With "overflow": "api", a request still waiting max_wait_s goes to the plan's API (its own, else
// the first API plan's), priced at the horizon start's prices:
//   api $ a path = (input tokens x input price + output tokens x output price) / 1e6 x factor(0) / paths
// and rented replicas are billed from launch at the cloud offer's on-demand price:
//   rented $ a path = rented replica-hours a path x GPUs a replica x on-demand $/h / GPUs an instance x factor(0)
// With workload.requests.venues, a request still waiting max_wait_s goes first through the plan's
// venues named there (in the plan's order), each billed from launch at its own price:
//   venue $ a path = billed replica-hours a path x GPUs a replica x venue $/instance-hour / GPUs an
//                    instance x (on-demand factor(0), or spot factor(0) x spot_overhead_factor)
// Basis: these $ are the replayed hours' only, at the horizon start's prices, undiscounted; they
// are not in the plan's NPV, which prices the same capacity hour by hour (docs/decisions.md §21).
// A request is within the slo when its TTFT is at most the slo's max_p90_ttft_ms (when given) and
// its output tokens / decode time reach min_interactivity_tokens_per_s_per_user.
// Each figure that varies path by path is kept per path for its Monte Carlo statistics
// (plans[].latency.across_paths, summarized as costs are: core/stats/statistics.hpp): TTFT, time per
// output token and end-to-end at p50/p90/p99 and the share within the slo (of the path's requests),
// the tokens served by owned and rented replicas and the API, the requests dropped, the rented $
// and the API overflow's $ of the path. A path's rented $ and API $ are the formulas above without
// the / paths, so their mean over the paths is the pooled figure.
// Example: 2 owned nodes of 8 H200 and a profile of 8 H200 a replica: 2 replicas; a cloud plan with
// a peak hour of 10.56M tokens at 1,466.7 tokens/s a replica: ceil(10.56e6 / 5.28e6) = 2 replicas.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/des/serving/request_replay.hpp"
#include "models/scenario.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

// What the replay's rented and API $ are (docs/decisions.md §21), said beside them in every format.
inline constexpr const char* kReplayUsdBasis =
    "the replayed hours only, at the horizon start's prices, undiscounted; not in the plan's cost "
    "(npv_usd), which prices the same capacity hour by hour";

// One figure's values, path by path in path order; a percentile or share is left out for a path
// with no request counted, so such a figure may hold fewer values than paths.
struct LatencyPathFigure {
  const char* key = "";  // its name in plans[].latency.across_paths: "ttft_p99_s"
  std::vector<double> values;
};

// An overflow venue of the plan (its venues named in workload.requests.venues, in the plan's
// order): replicas of its offer, at its price (on-demand, or spot x spot_overhead_factor) x the
// plan's price factor at the horizon's start; a path's figures are the pooled ones / paths.
struct VenueLatency {
  std::string name;
  int max_replicas = 0;           // min(the spec's, the venue's quota in whole replicas)
  double max_wait_s = 0.0, startup_s = 0.0, idle_s = 0.0;
  double usd_per_replica_hour = 0.0;
  double billed_replica_hours = 0.0;  // a path
  double usd = 0.0;                   // a path
};

struct PlanLatency {
  int replicas = 0;               // held all through; 0: the plan serves no request here (figures null)
  int owned_replicas = 0;         // of those, owned (the rest rented)
  int max_scaled_replicas = 0;    // rented ones it may launch beside (0: no rented scaling)
  double rented_replica_hours = 0.0;  // a path: the held rented ones' hours + the scaled ones' billed hours
  double rented_usd = 0.0;        // a path, at the on-demand price, the venues' included
  std::vector<VenueLatency> venues;  // the overflow venues, in order (stats.venues beside)
  double api_usd = 0.0;           // a path, the overflow's
  int gpus_per_replica = 0;
  int max_concurrency = 0;
  long hours = 0;                 // replayed from the horizon's start
  long paths = 0;
  double hourly_model_tokens = 0.0;  // the hourly model's tokens over the replayed hours
  serving::RequestReplayStats stats;  // pooled over the paths
  std::vector<LatencyPathFigure> across_paths;  // latency_path_figure_keys() order
};

// The keys of PlanLatency::across_paths, in order.
const std::vector<const char*>& latency_path_figure_keys();

// The replicas of the plan's owned nodes.
int owned_replicas(const Plan& plan, const TokenDemand& serving);

// Whether the plan rents replicas: cloud, or hybrid bursting to the cloud (not to an API).
bool rents_replicas(const Plan& plan);

// The replicas plan `plan` serves `serving` with over `hours.tokens`' first `replay_hours` hours.
int plan_replicas(const Plan& plan, const TokenDemand& serving, const std::vector<double>& hour_tokens,
                  long replay_hours);

// Replays the scenario's requests for `plan` (s.workload.requests must be set); nullopt for a plan
// of kind api. `hour_tokens` is the hourly model's token series (token_hours(...).tokens).
std::optional<PlanLatency> plan_latency(const Scenario& s, const Plan& plan, const std::vector<double>& hour_tokens);

}  // namespace tco
