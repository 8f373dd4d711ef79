#include "engine/des/time_shift_policy.hpp"

#include <algorithm>
#include <cmath>

namespace tco::des {

double ShiftCurve::before(double t_h) const {
  const long h = std::min(static_cast<long>(t_h), hours());
  const double whole = pue_usd_before[static_cast<std::size_t>(h)];
  if (h == hours()) return whole;
  const double next = pue_usd_before[static_cast<std::size_t>(h) + 1];
  return whole + (next - whole) * (t_h - static_cast<double>(h));
}

ShiftCurve shift_curve(const std::vector<SiteHour>& site) {
  ShiftCurve c;
  c.pue_usd_before.assign(site.size() + 1, 0.0);
  c.full_rate.assign(site.size(), 0);
  for (std::size_t h = 0; h < site.size(); ++h) {
    c.pue_usd_before[h + 1] = c.pue_usd_before[h] + site[h].pue * site[h].usd_per_kwh;
    c.full_rate[h] = site[h].work_rate >= 1.0;
  }
  return c;
}

std::optional<ShiftDecision> TimeShiftPolicy::choose(const ShiftRequest& r) const {
  if (!curve_ || r.gpus <= 0 || r.run_h <= 0.0) return std::nullopt;
  const double horizon_h = static_cast<double>(curve_->hours());
  if (r.now_h + r.run_h > horizon_h) return std::nullopt;
  const double energy_now = r.kw * curve_->pue_usd_integral(r.now_h, r.now_h + r.run_h);
  const long first = static_cast<long>(std::floor(r.now_h)) + 1;
  const double last_start = std::min({r.latest_start_h, r.now_h + static_cast<double>(kSearchHours), horizon_h - r.run_h});
  if (static_cast<double>(first) > last_start) return std::nullopt;
  const long last = static_cast<long>(std::floor(last_start));
  const int room = r.pool_gpus - r.reserve_gpus - r.load_gpus;  // GPUs promises may take per hour
  if (r.gpus > room) return std::nullopt;
  std::optional<ShiftDecision> best;
  double best_net = energy_now;  // holding must beat starting now
  for (long h = first; h <= last; ++h) {
    const double t = static_cast<double>(h);
    const double hold = waiting_usd_per_gpu_hour_ * r.gpus * (t - r.now_h);
    if (hold >= best_net) break;  // later hours hold longer still (energy is never negative)
    if (!curve_->full_rate[static_cast<std::size_t>(h)]) continue;
    const double energy = r.kw * curve_->pue_usd_integral(t, t + r.run_h);
    const double net = energy + hold;
    if (!(net < best_net) || !fits(h, r.run_h, r.gpus, room)) continue;
    best_net = net;
    best = ShiftDecision{t, energy_now - energy, hold};
  }
  return best;
}

bool TimeShiftPolicy::fits(long start_h, double run_h, int gpus, int room) const {
  const long end = std::min<long>(static_cast<long>(std::ceil(static_cast<double>(start_h) + run_h)),
                                  static_cast<long>(promised_gpus_.size()));
  for (long h = start_h; h < end; ++h)
    if (promised_gpus_[static_cast<std::size_t>(h)] + gpus > room) return false;
  return true;
}

void TimeShiftPolicy::add(double start_h, double run_h, int gpus) {
  const long first = static_cast<long>(start_h);
  const long end = std::min<long>(static_cast<long>(std::ceil(start_h + run_h)), static_cast<long>(promised_gpus_.size()));
  for (long h = first; h < end; ++h) promised_gpus_[static_cast<std::size_t>(h)] += gpus;
}

}  // namespace tco::des
