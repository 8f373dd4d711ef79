// Cloud prices in the replay grow as g(t) = e^{k t} (t in hours), k = ln(1 + price_change_per_year)
// / 8760. A run bills the integral of g over its time, which took two exp calls per run; here
// e^{k t} is a table of whole hours times a short series for the fraction, and the integral
//   G(a, b) = e^{k a} (e^{k d} - 1) / k,  d = b - a
// takes a series in y = k d while |y| <= 1e-3 (expm1 beyond), so it also loses no digits to the
// difference e^{k b} - e^{k a} of two nearly equal numbers.
// The series: |k| <= ln(10) / 8760 < 2.7e-4 per hour for any price change the scenario allows
// (-90% to +200% a year), so the fraction's x = k (t - floor t) is below 2.7e-4 and
// e^x = 1 + x + x^2/2 + x^3/6 + x^4/24 errs by x^5/120 < 1.2e-20; (e^y - 1) / y to y^4/120 errs
// by y^5/720 < 1.4e-18 for |y| <= 1e-3. Both far below a double's 1.1e-16.
// Example: a 10%/yr fall, k = ln(0.9) / 8760 = -1.2027e-5; a run over [0, 100] h pays
// G = (e^{-1.2027e-3} - 1) / k = 99.93988 hours at the starting price.
// A dated price schedule (models/price_path/price_schedule.hpp) is priced as the hourly model
// prices it: g(t) = f(floor t), the factor at the hour's start, and
//   G(a, b) = F(b) - F(a),  F(t) = sum_{h < floor t} f(h) + (t - floor t) f(floor t),
// from a table of prefix sums (one hour's run: f(h) (b - a), with no difference of sums).
// Example: f = 1.0 for h < 360, 0.75 after; a run over [350, 370] h pays 10 + 10 x 0.75 = 17.5 h.
#pragma once

#include <cmath>
#include <vector>

namespace tco::des {

class PriceGrowth {
 public:
  PriceGrowth() = default;
  // Tabulated for t in [0, hours]; beyond that the exp itself.
  PriceGrowth(double price_change_per_year, long hours, double hours_per_year)
      : k_(std::log1p(price_change_per_year) / hours_per_year) {
    if (k_ == 0.0) return;
    at_hour_.resize(static_cast<std::size_t>(hours) + 1);
    table_end_h_ = static_cast<double>(at_hour_.size());
    for (std::size_t h = 0; h < at_hour_.size(); ++h) at_hour_[h] = std::exp(k_ * static_cast<double>(h));
  }

  // g(t) = f(floor t) from the factor of each hour, f(h) for h = 0..size-1 (the last beyond).
  static PriceGrowth hourly(std::vector<double> factor_at_hour) {
    PriceGrowth g;
    g.hourly_ = true;
    g.cumulative_.assign(factor_at_hour.size() + 1, 0.0);
    for (std::size_t h = 0; h < factor_at_hour.size(); ++h)
      g.cumulative_[h + 1] = g.cumulative_[h] + factor_at_hour[h];
    g.at_hour_ = std::move(factor_at_hour);
    g.table_end_h_ = static_cast<double>(g.at_hour_.size());
    return g;
  }

  double k() const { return k_; }

  // e^{k floor(t)}
  double at_hour_of(double t_h) const {
    if (hourly_) return hourly_at(t_h);
    if (k_ == 0.0) return 1.0;
    if (t_h >= 0.0 && t_h < table_end_h_) return at_hour_[static_cast<std::size_t>(t_h)];
    return std::exp(k_ * std::floor(t_h));
  }

  // e^{k t}
  double at(double t_h) const {
    if (hourly_) return hourly_at(t_h);
    if (k_ == 0.0) return 1.0;
    if (!(t_h >= 0.0 && t_h < table_end_h_)) return std::exp(k_ * t_h);
    const auto h = static_cast<std::size_t>(t_h);
    const double x = k_ * (t_h - static_cast<double>(h));
    return at_hour_[h] * (1.0 + x * (1.0 + x * (0.5 + x * (1.0 / 6.0 + x * (1.0 / 24.0)))));
  }

  // The integral of e^{k t} over [a, b], given e^{k a}.
  double integral(double a_h, double b_h, double at_a) const {
    const double d = b_h - a_h;
    if (hourly_) return hourly_integral(a_h, b_h, at_a);
    if (k_ == 0.0) return d;
    const double y = k_ * d;
    if (std::fabs(y) > 1e-3) return at_a * std::expm1(y) / k_;
    return at_a * d * (1.0 + y * (0.5 + y * (1.0 / 6.0 + y * (1.0 / 24.0 + y * (1.0 / 120.0)))));
  }

 private:
  std::size_t hour_index(double t_h) const {
    if (!(t_h > 0.0)) return 0;
    return t_h < table_end_h_ ? static_cast<std::size_t>(t_h) : at_hour_.size() - 1;
  }
  double hourly_at(double t_h) const { return at_hour_[hour_index(t_h)]; }
  // F(t) of the opening comment; beyond the table the last hour's factor goes on.
  double hourly_cumulative(double t_h) const {
    if (!(t_h > 0.0)) return 0.0;
    const std::size_t h = hour_index(t_h);
    return cumulative_[h] + (t_h - static_cast<double>(h)) * at_hour_[h];
  }
  double hourly_integral(double a_h, double b_h, double at_a) const {
    if (hour_index(a_h) == hour_index(b_h)) return at_a * (b_h - a_h);
    return hourly_cumulative(b_h) - hourly_cumulative(a_h);
  }

  bool hourly_ = false;          // a schedule's table (hourly()), not e^{k t}
  std::vector<double> cumulative_;  // hourly: sum of f over hours below h, h = 0..size
  double k_ = 0.0;
  std::vector<double> at_hour_;  // e^{k h}, h = 0..hours
  double table_end_h_ = 0.0;     // at_hour_.size(): t below it has a tabulated whole hour
};

}  // namespace tco::des
