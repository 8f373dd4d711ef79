// A dated price schedule of one price kind of a cloud offer (docs/model.md "Dated price
// schedules"). Points (t_i, v_i): t_i in model hours from the scenario start (24 h per
// calendar day from the start date), v_i > 0 a factor on the offer's catalog price.
//   step:        v(t) = v_i                                        for t_i <= t < t_{i+1}
//   log_linear:  v(t) = exp(ln v_i + (t - t_i) / (t_{i+1} - t_i) (ln v_{i+1} - ln v_i))
//   v(t) = v_0 before t_0 and v_n after t_n.
// The factor that multiplies the catalog price in hour h (priced at its start, as the constant
// rate is):
//   no schedule:                    (1 + r)^(h / 8760)             r = price_change_per_year
//   "factor" points (multiply):     (1 + r)^(h / 8760) v(h)
//   "usd_per_gpu_hour" points:      v(h) = usd_per_gpu_hour(h) / catalog USD per GPU-hour
//                                   (replaces the constant rate)
// Example: $2.00 per GPU-hour from the start, $1.50 from day 15 (t = 360 h), step: month 0
// bills 360 h x $2.00 + 370 h x $1.50 = $1,275 per GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"

namespace tco {

struct PriceSchedule {
  enum class Interpolation { step, log_linear };
  Interpolation interpolation = Interpolation::step;
  bool replaces_rate = false;        // "usd_per_gpu_hour" points: the rate does not apply
  std::vector<double> hours;         // t_i, strictly increasing
  std::vector<double> factors;       // v_i
  Json as_written;                   // the scenario's object, echoed in the report

  double at(double t_h) const;
};

// The price kinds a schedule may move. (Capacity blocks join when the engine prices them.)
struct CloudPriceSchedules {
  std::optional<PriceSchedule> on_demand;
  std::optional<PriceSchedule> spot;
  std::optional<PriceSchedule> reserved;

  bool any() const { return on_demand || spot || reserved; }
};

// The factor on a catalog price in hour h (the table in the file's opening comment).
double price_factor(const std::optional<PriceSchedule>& schedule, double price_change_per_year, long hour);

// Reads one kind's schedule. catalog_usd_per_gpu_hour converts "usd_per_gpu_hour" points into
// factors; nullopt means the kind takes "factor" points only (reserved: its price depends on
// the plan's term).
PriceSchedule parse_price_schedule(JsonObjectReader& r, const Date& start,
                                   std::optional<double> catalog_usd_per_gpu_hour);

}  // namespace tco
