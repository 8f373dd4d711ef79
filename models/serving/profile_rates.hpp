// A serving profile's measured points as the request replay's rates (issue 47 item 2), for
// n = 1..max_concurrency active requests on one replica:
//   r(n), tokens/s per decoding request = the profile's interactivity (1000 / median TPOT ms),
//          linear in concurrency between measured points, exact at them; below the lowest
//          measured concurrency, that point's (a replica serves no slower with fewer requests);
//   p(n), prefill seconds per input token = median TTFT ms / 1000 / the benchmark's input length,
//          read the same way; a profile without TTFTs has no prefill time (its TTFT is the wait).
// A max_concurrency above the highest measured concurrency is a ModelError naming the profile
// and its range: the replay never extrapolates a profile.
// Example: points (16, TPOT 25 ms, TTFT 400 ms) and (32, 40 ms, 700 ms) at input length 1,000:
// r(24) = 1000 / 25 + (1000 / 40 - 1000 / 25) x 8 / 16 = 40 - 7.5 = 32.5 tokens/s,
// p(24) = (400 + 300 x 0.5) / 1000 / 1000 = 0.00055 s per input token.
#pragma once

#include <string>
#include <vector>

#include "models/serving/serving_profile.hpp"

namespace tco::serving {

// What one replica does at each active count n = 1..max_concurrency (index n - 1).
struct ReplicaRates {
  std::vector<double> decode_tokens_per_s_by_active;       // r(n), tokens/s per decoding request
  std::vector<double> prefill_s_per_input_token_by_active;  // p(n); empty: prefill takes no time
  int max_concurrency() const { return static_cast<int>(decode_tokens_per_s_by_active.size()); }
};

ReplicaRates replica_rates(const ServingProfile& profile, int max_concurrency, const std::string& profile_id);

}  // namespace tco::serving
