#include "models/serving/replica_capacity.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/time/seconds_per_hour.hpp"
#include "core/error.hpp"

namespace tco {

namespace {


struct Sample {
  double concurrency, tokens_per_s_per_gpu, interactivity, ttft_ms;
};

bool meets(const Sample& s, const ServingSlo& slo) {
  return s.interactivity >= slo.min_interactivity_tokens_per_s_per_user &&
         (!slo.max_p90_ttft_ms || s.ttft_ms <= *slo.max_p90_ttft_ms);
}

double lerp(double a, double b, double t) { return a + (b - a) * t; }

// The largest t in [0, 1] with a + (b - a) t on the good side of `limit` (>= when `at_least`),
// given that t = 0 is on it.
double last_t_within(double a, double b, double limit, bool at_least) {
  const bool end_ok = at_least ? b >= limit : b <= limit;
  if (end_ok) return 1.0;
  return (limit - a) / (b - a);
}

}  // namespace

ReplicaCapacity replica_capacity(const ServingProfile& profile, const ServingSlo& slo, const std::string& profile_id) {
  std::vector<Sample> samples;
  for (const ServingPoint& p : profile.points) {
    if (!p.interactivity_tokens_per_s_per_user)
      throw ModelError(fmt::format("serving profile \"{}\" has no interactivity (TPOT) at concurrency {}: a latency "
                                   "target cannot be read from it",
                                   profile_id, p.concurrency));
    if (slo.max_p90_ttft_ms && !p.p90_ttft_ms)
      throw ModelError(fmt::format("serving profile \"{}\" has no p90 TTFT at concurrency {}: the target's "
                                   "max_p90_ttft_ms cannot be read from it",
                                   profile_id, p.concurrency));
    samples.push_back({p.concurrency, p.tokens_per_s_per_gpu, *p.interactivity_tokens_per_s_per_user,
                       p.p90_ttft_ms.value_or(0.0)});
  }
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.concurrency < b.concurrency; });
  ReplicaCapacity capacity;
  capacity.gpus_per_replica = profile.gpus_per_replica;
  // From the top: the first measured point that meets the target bounds c* from below; the
  // segment above it (whose upper point misses) holds c* itself.
  for (std::size_t k = samples.size(); k-- > 0;) {
    const Sample& lo = samples[k];
    if (!meets(lo, slo)) continue;
    double t = 0.0;
    if (k + 1 < samples.size()) {
      const Sample& hi = samples[k + 1];
      t = last_t_within(lo.interactivity, hi.interactivity, slo.min_interactivity_tokens_per_s_per_user, true);
      if (slo.max_p90_ttft_ms) t = std::min(t, last_t_within(lo.ttft_ms, hi.ttft_ms, *slo.max_p90_ttft_ms, false));
      capacity.concurrency = lerp(lo.concurrency, hi.concurrency, t);
      capacity.tokens_per_s_per_gpu = lerp(lo.tokens_per_s_per_gpu, hi.tokens_per_s_per_gpu, t);
    } else {
      capacity.concurrency = lo.concurrency;
      capacity.tokens_per_s_per_gpu = lo.tokens_per_s_per_gpu;
    }
    return capacity;
  }
  const Sample& first = samples.front();
  throw ModelError(fmt::format(
      "serving profile \"{}\" cannot meet the target (>= {} tokens/s per user{}) at any measured concurrency: it "
      "was measured at concurrency {} to {}, and at {} serves {:.4g} tokens/s per user{} (no extrapolation)",
      profile_id, slo.min_interactivity_tokens_per_s_per_user,
      slo.max_p90_ttft_ms ? fmt::format(", p90 TTFT <= {} ms", *slo.max_p90_ttft_ms) : std::string(),
      first.concurrency, samples.back().concurrency, first.concurrency, first.interactivity,
      slo.max_p90_ttft_ms ? fmt::format(" with a p90 TTFT of {:.4g} ms", first.ttft_ms) : std::string()));
}

double gpus_for_hour_tokens(double tokens, const ReplicaCapacity& capacity) {
  if (tokens <= 0.0) return 0.0;
  return std::ceil(tokens / (kSecondsPerHour * capacity.replica_tokens_per_s())) * capacity.gpus_per_replica;
}

}  // namespace tco
