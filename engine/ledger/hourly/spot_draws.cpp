#include "engine/ledger/hourly/spot_draws.hpp"

#include <cmath>

namespace tco {

namespace {

constexpr double kTwoTo32 = 4294967296.0;

// A probability as a 32-bit threshold: a uniform word is below it with that probability
// (to 2^-32).
std::uint32_t word_threshold(double probability) {
  const double scaled = std::round(probability * kTwoTo32);
  return scaled >= kTwoTo32 - 1.0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(scaled);
}

}  // namespace

double SpotDraws::expected_preemption_factor() const {
  double expected_preemptions = 0.0;
  for (int k = 0; k < preemption_levels; ++k) expected_preemptions += (kTwoTo32 - preemption_cdf[k]) / kTwoTo32;
  return preemption_base_factor + expected_preemptions * preemption_loss_h;
}

SpotDraws spot_draws(const Plan& plan) {
  SpotDraws d;
  if (!plan.cloud || plan.spot_share <= 0.0) return d;
  const CloudSpec& c = *plan.cloud;
  const SpotSpec& spot = c.spot;
  d.expected_availability = spot.availability;
  d.unavailable_below = word_threshold(1.0 - spot.availability);
  const double rate = spot.preemptions_per_instance_hour;
  if (rate <= 0.0) return d;
  // Young's interval for the checkpoint write cost; the work since the last checkpoint (half
  // an interval on average) is lost, unless an emergency checkpoint fits in the notice.
  const double write_h = spot.checkpoint_write_h;
  const double tau_h = write_h > 0.0 ? std::sqrt(2.0 * write_h / rate) : 0.0;
  const double notice_h = c.offer.spot_notice_s.value_or(0.0) / 3600.0;
  const bool saved_in_notice = spot.emergency_checkpoint && notice_h >= write_h;
  d.preemption_base_factor = 1.0 + (tau_h > 0.0 ? write_h / tau_h : 0.0);
  d.preemption_loss_h = (saved_in_notice ? 0.0 : 0.5 * tau_h) + spot.restart_h;
  // Poisson(rate) inverted on a 32-bit word: at least k + 1 preemptions when word >= cdf[k].
  double term = std::exp(-rate);
  double cdf = term;
  for (int k = 0; k < kSpotPreemptionLevels; ++k) {
    if (cdf * kTwoTo32 >= kTwoTo32 - 0.5) break;
    d.preemption_cdf[k] = word_threshold(cdf);
    d.preemption_levels = k + 1;
    term *= rate / (k + 1);
    cdf += term;
  }
  return d;
}

}  // namespace tco
