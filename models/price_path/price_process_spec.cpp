#include "models/price_path/price_process_spec.hpp"

#include <cmath>

#include "core/error.hpp"
#include "models/input_limits.hpp"

namespace tco {

PriceProcessSpec parse_price_process(JsonObjectReader& r) {
  PriceProcessSpec s;
  const std::string type = r.choice("type", {"lognormal_jumps"});
  const double volatility_per_year = r.number_or("volatility_per_year", 0.0, limits::kPriceVolatilityPerYear);
  const double jumps_per_year = r.number_or("jumps_per_year", 0.0, limits::kPriceJumpsPerYear);
  const double jump_log_size = r.number_or("jump_log_size", 0.0, limits::kPriceJumpLogSize);
  if (jumps_per_year > 0.0 && !r.has("jump_log_size"))
    r.fail("jump_log_size", "a jump_log_size (ln of the price ratio at a jump, e.g. -0.36 for a 30% cut) when "
                            "jumps_per_year is above 0",
           nullptr);
  r.finish();
  PriceProcessParams& p = s.params;
  p.sigma_per_month = volatility_per_year / std::sqrt(12.0);
  p.jumps_per_month = jumps_per_year / 12.0;
  p.jump_log_size = jump_log_size;
  p.compensator_per_month =
      -0.5 * p.sigma_per_month * p.sigma_per_month - p.jumps_per_month * std::expm1(p.jump_log_size);
  s.as_written = {{"type", type},
                  {"volatility_per_year", volatility_per_year},
                  {"jumps_per_year", jumps_per_year},
                  {"jump_log_size", jump_log_size}};
  return s;
}

CloudPriceProcesses parse_price_processes(JsonObjectReader& r, bool has_spot, const std::string& offer_id) {
  CloudPriceProcesses out;
  if (r.has("on_demand")) {
    JsonObjectReader kr = r.object("on_demand");
    out.on_demand = parse_price_process(kr);
  }
  if (r.has("spot")) {
    if (!has_spot)
      throw InputError(r.file(), r.pointer_of("spot"),
                       "expected no spot price process: the offer \"" + offer_id + "\" has no spot price");
    JsonObjectReader kr = r.object("spot");
    out.spot = parse_price_process(kr);
  }
  if (r.has("reserved"))
    throw InputError(r.file(), r.pointer_of("reserved"),
                     "expected no reserved price process: a reserved price is fixed when its term starts and is the "
                     "same on every path (give it a dated price_schedule instead)");
  r.finish();
  return out;
}

}  // namespace tco
