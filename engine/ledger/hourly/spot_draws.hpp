// How the Monte Carlo draws a spot hour of the fluid model (SPEC §4, §9; engine/sweep/sweep_kernel.hpp),
// and the expectation of that draw, which the deterministic run takes (docs/model.md §3):
//   capacity     the hour has none when its word w < (1 - availability) 2^32;  E = availability
//   preemptions  K ~ Poisson(rate) per instance, inverted on a word up to kSpotPreemptionLevels;
//                factor = 1 + write_h / tau + K loss_h, tau = sqrt(2 write_h / rate) (Young),
//                loss_h = tau / 2 + restart_h (restart_h alone when an emergency checkpoint fits
//                in the notice);  E[factor] = base + loss_h E[K], E[K] = sum_k P(w >= cdf_k)
// E[K] is the rate itself to 2^-32 up to about 4 preemptions an hour; above, the 16 levels cut
// the tail and E[K] is that of the draw actually made (rate 10: 9.70).
// Example: rate 0.05, write 0.05 h, restart 0.05 h: tau = sqrt(2 x 0.05 / 0.05) = 1.414 h,
// base = 1 + 0.05 / 1.414 = 1.0354, loss = 0.707 + 0.05 = 0.757 h, E[factor] = 1.0354 + 0.05 x
// 0.757 = 1.0732.
#pragma once

#include <cstdint>

#include "models/scenario.hpp"

namespace tco {

inline constexpr int kSpotPreemptionLevels = 16;

struct SpotDraws {
  double expected_availability = 1.0;     // the deterministic run's a
  std::uint32_t unavailable_below = 0;    // the Monte Carlo's threshold on the hour's word
  int preemption_levels = 0;              // 0: no preemptions (rate 0)
  std::uint32_t preemption_cdf[kSpotPreemptionLevels] = {};  // K >= k + 1 when the word >= cdf[k]
  double preemption_base_factor = 1.0;
  double preemption_loss_h = 0.0;

  // E[1 + write_h / tau + K loss_h] of the draw above (1 without preemptions).
  double expected_preemption_factor() const;
};

// The draws of a plan's spot hours; the defaults (always available, no preemption) for a plan
// without spot.
SpotDraws spot_draws(const Plan& plan);

}  // namespace tco
