#include "engine/des/fleet/time_shift_policy.hpp"

#include <algorithm>
#include <cmath>

namespace tco::des {

namespace {
constexpr double kArrivalSigmas = 1.0;  // z: the arrivals' margin above their mean load
}  // namespace

double ShiftCurve::before(double t_h) const {
  const long h = std::min(static_cast<long>(t_h), hours());
  const double whole = pue_usd_before[static_cast<std::size_t>(h)];
  if (h == hours()) return whole;
  const double next = pue_usd_before[static_cast<std::size_t>(h) + 1];
  return whole + (next - whole) * (t_h - static_cast<double>(h));
}

ShiftCurve shift_curve(const std::vector<SiteHour>& site, const std::vector<double>& carbon_usd_per_kwh) {
  ShiftCurve c;
  c.pue_usd_before.assign(site.size() + 1, 0.0);
  c.full_rate.assign(site.size(), 0);
  for (std::size_t h = 0; h < site.size(); ++h) {
    c.pue_usd_before[h + 1] = c.pue_usd_before[h] + site[h].pue * (site[h].usd_per_kwh + carbon_usd_per_kwh[h]);
    c.full_rate[h] = site[h].work_rate >= 1.0;
  }
  return c;
}

void TimeShiftPolicy::observe_arrival(int gpus, double run_h) {
  const double g = static_cast<double>(gpus);
  arrived_gpus_ += g;
  arrived_gpu_h_ += g * run_h;
  arrived_gpu2_h_ += g * g * run_h;
}

double TimeShiftPolicy::arrival_gpus(double now_h, long hour) const {
  const double elapsed_h = std::max(now_h, kWarmupHours);
  const double ahead_h = static_cast<double>(hour + 1) - now_h;
  const double mean = std::min(arrived_gpu_h_ / elapsed_h, arrived_gpus_ / elapsed_h * ahead_h);
  return mean + kArrivalSigmas * std::sqrt(arrived_gpu2_h_ / elapsed_h);
}

std::optional<ShiftDecision> TimeShiftPolicy::choose(const ShiftRequest& r) const {
  if (!curve_ || r.gpus <= 0 || r.run_h <= 0.0 || r.now_h < kWarmupHours) return std::nullopt;
  const double horizon_h = static_cast<double>(curve_->hours());
  if (r.now_h + r.run_h > horizon_h) return std::nullopt;
  const double energy_now = r.kw * curve_->pue_usd_integral(r.now_h, r.now_h + r.run_h);
  const long first = static_cast<long>(std::floor(r.now_h)) + 1;
  const double last_start = std::min({r.latest_start_h, r.now_h + static_cast<double>(kSearchHours), horizon_h - r.run_h});
  if (static_cast<double>(first) > last_start) return std::nullopt;
  const long last = static_cast<long>(std::floor(last_start));
  std::optional<ShiftDecision> best;
  double best_net = energy_now;  // holding must beat starting now
  for (long h = first; h <= last; ++h) {
    const double t = static_cast<double>(h);
    const double hold = waiting_usd_per_gpu_hour_ * r.gpus * (t - r.now_h);
    if (hold >= best_net) break;  // later hours hold longer still (energy is never negative)
    if (!curve_->full_rate[static_cast<std::size_t>(h)]) continue;
    const double energy = r.kw * curve_->pue_usd_integral(t, t + r.run_h);
    const double net = energy + hold;
    if (!(net < best_net) || !fits(r, h)) continue;
    best_net = net;
    best = ShiftDecision{t, energy_now, energy_now - energy, hold};
  }
  return best;
}

bool TimeShiftPolicy::fits(const ShiftRequest& r, long start_h) const {
  const long end = std::min<long>(static_cast<long>(std::ceil(static_cast<double>(start_h) + r.run_h)),
                                  static_cast<long>(promised_gpus_.size()));
  const long base = static_cast<long>(std::floor(r.now_h));
  const double room = static_cast<double>(r.pool_gpus - r.reserve_gpus - r.gpus);
  for (long h = start_h; h < end; ++h) {
    const std::size_t k = static_cast<std::size_t>(h - base);
    const int known = k < r.known_gpus.size() ? r.known_gpus[k] : r.queued_gpus;
    if (static_cast<double>(promised_gpus_[static_cast<std::size_t>(h)] + known) + arrival_gpus(r.now_h, h) > room)
      return false;
  }
  return true;
}

void TimeShiftPolicy::add(double start_h, double run_h, int gpus) {
  const long first = static_cast<long>(start_h);
  const long end = std::min<long>(static_cast<long>(std::ceil(start_h + run_h)), static_cast<long>(promised_gpus_.size()));
  for (long h = first; h < end; ++h) promised_gpus_[static_cast<std::size_t>(h)] += gpus;
}

}  // namespace tco::des
