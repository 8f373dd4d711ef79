// One hour of a plan's on-prem site as the hourly model reads it (built by site_hours in
// engine/ledger/plan_evaluator.hpp from the cooling, tariff and ambient models).
#pragma once

namespace tco {

struct SiteHour {
  double pue = 1.0;
  double usd_per_kwh = 0.0;  // escalated
  double work_rate = 1.0;    // 1 - throttle_fraction in a throttled hour
};

}  // namespace tco
