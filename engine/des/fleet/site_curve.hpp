// The on-prem site of one path as the replay reads it: each hour's PUE, energy price and work
// rate, with running sums, so that the energy of a span between two events costs O(1) however
// many hours it covers (the replay used to step through every hour of the horizon).
//   facility kWh over [a, b] = IT kW x the integral of PUE over [a, b]
//   energy USD over [a, b]   = IT kW x the month's price shock x the integral of PUE x price
//   work clock W(t)          = the integral of the work rate over [0, t]
// The PUE sums restart at every month (a span never crosses a month boundary: months are
// events), which keeps them small, so a difference of two loses no digits worth having.
// Example: PUE 1.2 in hour 0 and 1.5 in hour 1 of a month: the integral over [0.5, 1.25] is
// 0.5 x 1.2 + 0.25 x 1.5 = 0.975: the whole hour 0 (1.2), less its first half (0.6), plus a
// quarter of hour 1 (0.375).
// Plans whose sites are alike (same hours, ambient and cooling) share one curve per path:
// DesPlan::site_group names the group, and PathSites builds each group's curve once.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "engine/ledger/plan_evaluator.hpp"

namespace tco::des {

struct DesPlan;

class SiteCurve {
 public:
  struct Hour {
    double pue = 1.0;
    double usd_per_kwh = 0.0;
    double work_rate = 1.0;
    double pue_usd_per_kwh = 0.0;         // pue x usd_per_kwh
    double pue_before = 0.0;              // sum of PUE over the month's earlier hours
    double pue_usd_per_kwh_before = 0.0;  // sum of PUE x price over the month's earlier hours
    double work_before = 0.0;             // sum of the work rate over every earlier hour
    double throttled_through = 0.0;       // hours up to and including this one with a work rate
                                          // below 1 (a double keeps the hour at 64 bytes)
  };

  // PUE x the hour's grid intensity (g/kWh), with the month's sum before it: only for a site with
  // an hourly intensity series (a flat one multiplies the facility kWh).
  struct IntensityHour {
    double pue_g_co2 = 0.0;
    double pue_g_co2_before = 0.0;
  };

  SiteCurve() = default;
  explicit SiteCurve(const std::vector<SiteHour>& site) { assign(site); }
  void assign(const std::vector<SiteHour>& site);
  // After assign: the hourly grid intensity, one value per hour of the site.
  void assign_intensity(const std::vector<double>& g_co2_per_kwh);
  bool has_intensity() const { return !intensity_.empty(); }

  long hours() const { return hour_count_; }
  bool empty() const { return hour_count_ == 0; }
  const Hour& at(long h) const { return hours_[h]; }
  // The hour holding t (the last hour for t at the end).
  long hour_of(double t_h) const { return std::min(static_cast<long>(t_h), hours() - 1); }

  // Integrals over [a, b], a and b in one month (b may be the month's end).
  double pue_integral(double a_h, double b_h) const {
    return integral<&Hour::pue, &Hour::pue_before>(hours_, a_h, b_h);
  }
  double pue_usd_integral(double a_h, double b_h) const {
    return integral<&Hour::pue_usd_per_kwh, &Hour::pue_usd_per_kwh_before>(hours_, a_h, b_h);
  }
  // Grams of CO2 per IT kW over [a, b] (has_intensity() only).
  double pue_g_co2_integral(double a_h, double b_h) const {
    return integral<&IntensityHour::pue_g_co2, &IntensityHour::pue_g_co2_before>(intensity_, a_h, b_h);
  }
  // The work clock W(t), t in [0, hours].
  double work_clock(double t_h) const {
    const long h = hour_of(t_h);
    return hours_[h].work_before + hours_[h].work_rate * (t_h - static_cast<double>(h));
  }
  // The first hour after after_h whose work rate differs from the hour before (hours() when
  // none). `cursor` starts at 0 and remembers where the last search ended: after_h must not
  // decrease from one call to the next.
  long next_rate_change(long after_h, std::size_t& cursor) const {
    while (cursor < rate_changes_.size() && rate_changes_[cursor] <= after_h) ++cursor;
    return cursor < rate_changes_.size() ? rate_changes_[cursor] : hours();
  }
  // The largest PUE among hours first_h..last_h (inclusive; 0 when last_h < first_h): the hour's
  // PUE everywhere when it never changes, else the maxima of whole blocks of kPueBlockHours and
  // the hours at the ends. A maximum is exact, so this is the hour-by-hour loop's value; that
  // loop read 64 bytes for each hour of the horizon on every path and plan.
  double pue_max(long first_h, long last_h) const {
    if (last_h < first_h) return 0.0;
    if (uniform_pue_) return hours_[first_h].pue;
    double out = 0.0;
    const long first_block = first_h / kPueBlockHours, last_block = last_h / kPueBlockHours;
    if (last_block - first_block < 2) {
      for (long h = first_h; h <= last_h; ++h) out = std::max(out, hours_[h].pue);
      return out;
    }
    for (long h = first_h; h < (first_block + 1) * kPueBlockHours; ++h) out = std::max(out, hours_[h].pue);
    for (long b = first_block + 1; b < last_block; ++b) out = std::max(out, pue_block_max_[b]);
    for (long h = last_block * kPueBlockHours; h <= last_h; ++h) out = std::max(out, hours_[h].pue);
    return out;
  }
  // Throttled hours among first_h..last_h (inclusive; none when last_h < first_h).
  long throttled_between(long first_h, long last_h) const {
    if (last_h < first_h) return 0;
    const double before = first_h > 0 ? hours_[first_h - 1].throttled_through : 0.0;
    return static_cast<long>(hours_[last_h].throttled_through - before);
  }

 private:
  // Both cases are computed and one is picked without a branch: whether a span between two
  // events stays inside one hour is a coin toss to the branch predictor.
  template <auto Value, auto Before, class Row>
  double integral(const std::vector<Row>& rows, double a_h, double b_h) const {
    const long ha = static_cast<long>(a_h), hb = static_cast<long>(b_h);
    const Row& first = rows[ha];
    const double within_hour = first.*Value * (b_h - a_h);
    // Whole hours ha .. hb - 1 (all in a's month), less a's part, plus b's part.
    const Row& last_whole = rows[hb > ha ? hb - 1 : ha];
    const double whole = last_whole.*Before + last_whole.*Value - first.*Before;
    const double tail = hb < hours() ? rows[hb].*Value * (b_h - static_cast<double>(hb)) : 0.0;
    const double across_hours = whole - first.*Value * (a_h - static_cast<double>(ha)) + tail;
    const std::uint64_t pick_within = -static_cast<std::uint64_t>(hb == ha);
    return std::bit_cast<double>((std::bit_cast<std::uint64_t>(within_hour) & pick_within) |
                                 (std::bit_cast<std::uint64_t>(across_hours) & ~pick_within));
  }

  static constexpr long kPueBlockHours = 32;

  std::vector<Hour> hours_;
  std::vector<double> pue_block_max_;  // the largest PUE of hours 32 b .. 32 b + 31
  bool uniform_pue_ = true;            // every hour has hour 0's PUE
  std::vector<IntensityHour> intensity_;  // empty unless assign_intensity
  long hour_count_ = 0;  // hours_.size(), kept: the replay asks for it at every accrual
  std::vector<long> rate_changes_;  // hours h >= 1 whose work rate differs from hour h - 1's
};

// The path's hourly ambient noise z_h, h < hours (standard normal, source ambient, entity h).
void ambient_noise(std::uint64_t seed, std::uint32_t path, long hours, std::vector<double>& z);

// The curve of a plan's site on one path: the deterministic site, or the site under the path's
// ambient noise z_h (PUE and work rate at the hour's temperature + sigma z_h).
void build_site_curve(const DesPlan& plan, const std::vector<double>& ambient_noise, SiteCurve& curve);

// One path's site curves, built on first use and shared by the path's plans of one site group.
// A thread keeps one and restarts it for each path (its memory stays).
class PathSites {
 public:
  void start_path(std::uint64_t seed, std::uint32_t path);
  const SiteCurve& curve(const DesPlan& plan);

 private:
  std::uint64_t seed_ = 0;
  std::uint32_t path_ = 0;
  std::vector<double> noise_;          // z_h, drawn for the path's first noisy site
  std::vector<SiteCurve> curves_;      // by site group
  std::vector<std::uint8_t> built_;    // by site group
};

}  // namespace tco::des
