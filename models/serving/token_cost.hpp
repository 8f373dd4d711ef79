// $ per million tokens (issue 46 item 5), the figures a plan's report will give:
//   at a GPU-hour price:   $/M tokens = $/GPU-hour x 1e6 / (tokens/s per GPU x 3,600 s)
//   reservation basis:     $/M tokens = the plan's whole cost / tokens served x 1e6
//   usage basis:           $/M tokens = the cost of the busy GPU-hours / tokens served x 1e6
// Example: $2.50 per H100-hour at 1,000 tokens/s per GPU: 2.5 x 1e6 / 3.6e6 = $0.6944 per
// million tokens.
#pragma once

namespace tco {

inline double usd_per_million_tokens_at(double usd_per_gpu_hour, double tokens_per_s_per_gpu) {
  return usd_per_gpu_hour * 1e6 / (tokens_per_s_per_gpu * 3600.0);
}

// A cost spread over the tokens it served (either basis: the caller says which cost).
inline double usd_per_million_tokens(double cost_usd, double tokens_served) { return cost_usd / tokens_served * 1e6; }

}  // namespace tco
