// A plan's savings plan in the discrete-event replay (docs/des.md "Commitments"). The plan's
// on-demand runs (on its offer, or on each venue it covers) book their instance-hours and their
// bill hour by hour here; at the horizon the commitment C_h of each hour covers min(instance-
// hours_h, C_h / r) of them at the rate r, venue after venue in the savings plan's order (the rule
// of the hourly model, models/commitment/savings_plan.hpp), and those instance-hours' on-demand
// bill (at the hour's mean price) comes off the on-demand cost of the hour's month.
// The commitment itself is a fixed bill, booked with the plan's other commitments.
// Example: C = $9/h, r = $6: 1.5 instance-hours covered an hour. A 2-instance run over [0.5, 3.5)
// at $10 an instance-hour books 1, 2, 2 and 1 instance-hours in hours 0 to 3: covered 1, 1.5,
// 1.5 and 1 = 5 instance-hours, $50 off its $60 bill, 5 x 8 = 40 GPU-hours used.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/des/des_plan.hpp"
#include "engine/des/month_index.hpp"
#include "engine/des/simulator.hpp"
#include "models/commitment/savings_plan.hpp"

namespace tco::des {

class SavingsPlanMeter {
 public:
  SavingsPlanMeter() = default;
  explicit SavingsPlanMeter(const DesPlan::SavingsPlan& terms)
      : terms_(terms.instrument >= 0 ? &terms : nullptr),
        instance_hours_(terms_ ? terms.usd_by_hour.size() : 0, 0.0),
        usd_(instance_hours_.size(), 0.0) {}

  bool active() const { return terms_ != nullptr; }

  // An on-demand run of `instances` over [a_h, b_h) at usd_per_h (all its instances, before
  // growth), its price's growth and the months' shocks, and the granules billed past b_h.
  void add_run(double instances, double a_h, double b_h, double usd_per_h, const PriceGrowth& growth,
               const MonthIndex& month_index, const double* shock, double extra_h) {
    const long last = static_cast<long>(instance_hours_.size()) - 1;
    if (last < 0) return;
    for (long h = static_cast<long>(std::floor(a_h)); h <= last && static_cast<double>(h) < b_h; ++h) {
      const double lo = std::max(a_h, static_cast<double>(h));
      const double hi = std::min(b_h, static_cast<double>(h + 1));
      if (!(hi > lo)) continue;
      instance_hours_[h] += instances * (hi - lo);
      usd_[h] += usd_per_h * growth.integral(lo, hi, growth.at(lo)) * shock[month_index.at(lo)];
    }
    if (extra_h > 0.0) {
      const long h = std::clamp(static_cast<long>(std::floor(b_h)), 0L, last);
      instance_hours_[h] += instances * extra_h;
      usd_[h] += usd_per_h * extra_h * growth.at_hour_of(b_h) * shock[month_index.at(b_h)];
    }
  }

  const DesPlan::SavingsPlan* terms() const { return terms_; }
  double instance_hours_at(std::size_t h) const { return instance_hours_[h]; }
  double usd_at(std::size_t h) const { return usd_[h]; }

 private:
  const DesPlan::SavingsPlan* terms_ = nullptr;
  std::vector<double> instance_hours_;
  std::vector<double> usd_;
};

// Where a meter's cover goes: the cost rows of its runs (the plan's offer, or one venue).
struct SavingsPlanShare {
  const SavingsPlanMeter* meter = nullptr;
  std::vector<CostRow>* cost_by_month = nullptr;
  double gpus_per_instance = 8.0;
};

// What a savings plan's cover came to on a path: the on-demand GPU-hours it covered and the
// dollars of commitment that spent (covered instance-hours x rate).
struct SavingsPlanUse {
  double covered_gpu_hours = 0.0;
  double used_usd = 0.0;
};

// At the horizon: each hour's commitment C_h covers the shares' instance-hours in the order the
// savings plan reaches them (DesPlan::SavingsPlan::order, highest discount first), each at its
// rate r: covered = min(instance-hours_h, left / r), left -= covered x r (savings_plan_cover_step);
// each share's covered bill comes off its cost rows' on-demand category. Returns the covered
// GPU-hours and the commitment's dollars they used. Meters without terms are skipped.
inline SavingsPlanUse settle_savings_plan(std::vector<SavingsPlanShare> shares, const MonthIndex& month_index) {
  std::erase_if(shares, [](const SavingsPlanShare& s) { return !s.meter->active(); });
  if (shares.empty()) return {};
  std::stable_sort(shares.begin(), shares.end(), [](const SavingsPlanShare& a, const SavingsPlanShare& b) {
    return a.meter->terms()->order < b.meter->terms()->order;
  });
  const int on_demand = static_cast<int>(Category::cloud_on_demand);
  const std::vector<double>& commitment_usd_by_hour = shares.front().meter->terms()->usd_by_hour;
  std::vector<double> covered_instance_hours(shares.size(), 0.0);
  for (std::size_t h = 0; h < commitment_usd_by_hour.size(); ++h) {
    double left_usd = commitment_usd_by_hour[h];
    for (std::size_t k = 0; k < shares.size(); ++k) {
      const SavingsPlanMeter& meter = *shares[k].meter;
      const double used = meter.instance_hours_at(h);
      if (!(used > 0.0) || !(left_usd > 0.0)) continue;
      const double covered = savings_plan_cover_step(left_usd, meter.terms()->usd_per_instance_hour, used);
      (*shares[k].cost_by_month)[month_index.at(static_cast<double>(h))][on_demand] -= meter.usd_at(h) * (covered / used);
      covered_instance_hours[k] += covered;
    }
  }
  SavingsPlanUse use;
  for (std::size_t k = 0; k < shares.size(); ++k) {
    use.covered_gpu_hours += covered_instance_hours[k] * shares[k].gpus_per_instance;
    use.used_usd += covered_instance_hours[k] * shares[k].meter->terms()->usd_per_instance_hour;
  }
  return use;
}

}  // namespace tco::des
