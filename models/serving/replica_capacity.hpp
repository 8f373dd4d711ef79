// From tokens to GPUs (issue 46 item 3). A latency target (`slo`) gives a minimum interactivity
// (tokens/s per user) and, optionally, a maximum p90 TTFT (ms). One replica of a serving profile
// serves at the largest concurrency c* whose interactivity and TTFT meet the target:
//   between two measured points (c0, c1), interactivity, TTFT and tokens/s per GPU are linear in
//   concurrency (monotone between the points, exact at them, never past the measured range);
//   replica tokens/s          = tokens/s per GPU at c* x GPUs per replica
//   GPUs needed in an hour    = ceil(tokens in the hour / (3,600 s x replica tokens/s)) x GPUs per replica
// Example: points (16, 150 tokens/s/GPU, 40 tokens/s/user) and (32, 200, 25) on 8 GPUs, target 30
// tokens/s/user: c* = 16 + 16 x (40 - 30) / (40 - 25) = 26.67, 150 + 50 x 10.67 / 16 = 183.3
// tokens/s per GPU, 1,466.7 per replica; 1e7 tokens in an hour need ceil(1e7 / 5.28e6) = 2
// replicas = 16 GPUs.
// When even the lowest measured concurrency misses the target, that is a ModelError naming the
// profile and its measured range; a target every point meets reads the largest measured concurrency.
#pragma once

#include <optional>
#include <string>

#include "models/serving/serving_profile.hpp"

namespace tco {

struct ServingSlo {
  double min_interactivity_tokens_per_s_per_user = 0.0;
  std::optional<double> max_p90_ttft_ms;
};

struct ReplicaCapacity {
  double concurrency = 0.0;           // c*, the largest concurrency meeting the target
  double tokens_per_s_per_gpu = 0.0;  // total tokens/s per GPU at c*
  int gpus_per_replica = 1;
  double replica_tokens_per_s() const { return tokens_per_s_per_gpu * gpus_per_replica; }
};

// Throws ModelError naming `profile_id` when the profile lacks what the target reads
// (an interactivity, or a p90 TTFT under a TTFT target, at some point) or when no measured
// concurrency can meet it.
ReplicaCapacity replica_capacity(const ServingProfile& profile, const ServingSlo& slo, const std::string& profile_id);

// Whole replicas for `tokens` in one hour, in GPUs: ceil(tokens / (3,600 x replica tokens/s)) x
// GPUs per replica (0 for no tokens).
double gpus_for_hour_tokens(double tokens, const ReplicaCapacity& capacity);

}  // namespace tco
