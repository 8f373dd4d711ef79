// Electricity (SPEC §5, §12.1, §12.6). Per on-prem hour h with N_up nodes up and u_h the busy
// fraction of their GPUs:
//   IT_kW(h)       = N_up x (idle_kw + (peak_kw - idle_kw) x u_h)
//   facility_kW(h) = IT_kW(h) x PUE(T_h)
//   energy_usd(h)  = facility_kW(h) x 1 h x tariff(h) x (1 + escalation)^(h / 8760)
// plus, per month m, demand_charge_usd_per_kw_month x peak facility kW x (1 + escalation)^(m/12),
// booked as energy. Tariffs: flat, time-of-use (a rate for each hour of day, weekday and
// weekend), or an hourly price series file (models/site/hourly_series.hpp: tariff(h) = the file's
// usd_per_kwh at hour h). Example: 100 nodes x 0.815 kW x 0.70 busy = 57.05 kW; x 8760 h x $0.12 = $59,971/yr.
#pragma once

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "core/calendar.hpp"
#include "core/hd.hpp"
#include "core/io/json_reader.hpp"
#include "models/site/hourly_series.hpp"

namespace tco {

struct Tariff {
  enum class Kind { flat, time_of_use, hourly_series };
  Kind kind = Kind::flat;
  double flat_usd_per_kwh = 0.0;
  std::array<double, 24> weekday_usd_per_kwh{};
  std::array<double, 24> weekend_usd_per_kwh{};
  std::shared_ptr<const HourlySeries> series;  // kind hourly_series: column usd_per_kwh
};

struct PowerSpec {
  Tariff tariff;
  double escalation_per_year = 0.0;
  double demand_charge_usd_per_kw_month = 0.0;
  double g_co2_per_kwh = 0.0;
  // An hourly grid intensity (column g_co2_per_kwh), in place of the flat figure; null: flat.
  std::shared_ptr<const HourlySeries> g_co2_series;
  // Sigma of the mean-one lognormal monthly price multiplier (Monte Carlo; SPEC §12.10).
  double monthly_price_sigma = 0.0;
};

TCO_HD double it_kw(double nodes_up, double idle_kw, double peak_kw, double busy_fraction) {
  return nodes_up * (idle_kw + (peak_kw - idle_kw) * busy_fraction);
}

// (1 + rate)^(hour / 8760): escalation and cloud price change compound by the hour (§12.1).
// A rate of 0 returns 1 without the pow, which gives exactly 1 too (pow(1, y) = 1): most sites
// do not escalate, and a pow for each of 8,760 hours per plan was a tenth of a small run.
inline double hourly_growth_factor(double rate_per_year, long hour) {
  if (rate_per_year == 0.0) return 1.0;
  return std::pow(1.0 + rate_per_year, static_cast<double>(hour) / kHoursPerYear);
}

// (1 + rate)^(month / 12): for monthly charges that escalate (§12.1).
inline double monthly_growth_factor(double rate_per_year, int month) {
  if (rate_per_year == 0.0) return 1.0;
  return std::pow(1.0 + rate_per_year, static_cast<double>(month) / 12.0);
}

// The tariff's rate in hour `hour`, before escalation (and before any monthly price shock).
inline double tariff_usd_per_kwh(const Tariff& tariff, long hour, const Calendar& calendar) {
  if (tariff.kind == Tariff::Kind::flat) return tariff.flat_usd_per_kwh;
  if (tariff.kind == Tariff::Kind::hourly_series) return tariff.series->at(hour);
  const int hod = calendar.hour_of_day(hour);
  return calendar.is_weekend(hour) ? tariff.weekend_usd_per_kwh[hod] : tariff.weekday_usd_per_kwh[hod];
}

// Parses {"tariff": {...}, "escalation_per_year", "demand_charge_usd_per_kw_month",
// "g_co2_per_kwh" or "g_co2_per_kwh_series" ({"file", "repeat"}: an hourly intensity file),
// "monthly_price_sigma"}. `region_usd_per_kwh` / `region_g_co2_per_kwh`
// (from a power_region record, when the scenario names one) are the defaults of a flat
// tariff and of the carbon intensity; without a region both must be given. A tariff
// {"type": "hourly_series", "file": ..., "repeat": "none"|"week"|"year"} reads its file
// relative to `scenario_dir`.
PowerSpec parse_power(JsonObjectReader& r, const double* region_usd_per_kwh,
                      const double* region_g_co2_per_kwh, const std::string& scenario_dir);
Json to_json(const PowerSpec& spec);

}  // namespace tco
