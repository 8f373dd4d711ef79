#include "models/finance/procurement.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/random/random.hpp"
#include "core/whole_months.hpp"
#include "models/input_limits.hpp"

namespace tco {

// A lognormal's far tail can draw centuries; any slip past kMaxSlipMonths lands past every horizon.
int whole_slip_months(double slip_months) { return whole_months(slip_months, limits::kMaxSlipMonths); }

int planned_delivery_month(int purchase_month, const ProcurementSpec& p) {
  return purchase_month + whole_slip_months(p.slip_months(0.5));
}

int delivered_month(int purchase_month, const ProcurementSpec& p, std::uint64_t seed, std::uint32_t path) {
  if (!p.slip_drawn) return purchase_month + whole_slip_months(p.slip_fixed_months);
  return purchase_month + whole_slip_months(p.slip_months(uniform(seed, path, RandomSource::delivery_slip, 0, 0)));
}

UncertainDistribution parse_months_distribution(JsonObjectReader& r) {
  UncertainDistribution d;
  const std::string type = r.choice("type", {"triangular", "lognormal"});
  if (type == "triangular") {
    d.type = UncertainDistribution::Type::triangular;
    d.low = r.number("low_months", limits::kMonths);
    d.mode = r.number("mode_months", limits::kMonths);
    d.high = r.number("high_months", limits::kMonths);
    if (d.mode < d.low)
      throw InputError(r.file(), r.pointer_of("mode_months"),
                       fmt::format("expected mode_months >= low_months ({}), found {}", d.low, d.mode));
    if (d.high < d.mode)
      throw InputError(r.file(), r.pointer_of("high_months"),
                       fmt::format("expected high_months >= mode_months ({}), found {}", d.mode, d.high));
  } else {
    d.type = UncertainDistribution::Type::lognormal;
    d.median = r.number("median_months", Bounds{0.0, limits::kMonths.max, true});
    d.sigma = r.number("sigma", limits::kLogSigma);
  }
  r.finish();
  return d;
}

ProcurementSpec parse_procurement(JsonObjectReader& r, int purchase_month) {
  ProcurementSpec p;
  p.order_month = static_cast<int>(r.integer_or("order_month", purchase_month, 0, purchase_month));
  p.deposit_share = r.number_or("deposit_share", 0.0, Bounds::fraction());
  if (r.has("delivery_slip_months")) {
    const Json& v = r.value("delivery_slip_months");
    if (v.is_object()) {
      JsonObjectReader sr = r.object("delivery_slip_months");
      p.slip_drawn = true;
      p.slip = parse_months_distribution(sr);
    } else {
      p.slip_fixed_months = r.number("delivery_slip_months", limits::kMonths);
    }
  }
  r.finish();
  return p;
}

}  // namespace tco
