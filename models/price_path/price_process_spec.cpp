#include "models/price_path/price_process_spec.hpp"

#include <cmath>

#include "core/error.hpp"
#include "models/input_limits.hpp"

namespace tco {

// The two-regime process (models/price_path/price_process.hpp): levels as written, normalised so
// that the stationary mean is one.
static PriceProcessSpec parse_two_regime(JsonObjectReader& r) {
  PriceProcessSpec s;
  const double glut_level = r.number("glut_level", limits::kPriceRegimeLevel);
  const double shortage_level = r.number("shortage_level", limits::kPriceRegimeLevel);
  const double a = r.number("glut_to_shortage_per_month", Bounds::fraction());
  const double b = r.number("shortage_to_glut_per_month", Bounds::fraction());
  if (a + b <= 0.0)
    r.fail("shortage_to_glut_per_month",
           "a switching probability above 0 in at least one direction (with both at 0 the regimes have no "
           "stationary mean to normalise to)",
           nullptr);
  r.finish();
  PriceProcessParams& p = s.params;
  p.two_regime = 1;
  p.glut_to_shortage_per_month = a;
  p.shortage_to_glut_per_month = b;
  const double pi_s = shortage_share(p);
  const double mean = (1.0 - pi_s) * glut_level + pi_s * shortage_level;
  p.glut_multiplier = glut_level / mean;
  p.shortage_multiplier = shortage_level / mean;
  if (glut_level == shortage_level) p.glut_multiplier = p.shortage_multiplier = 1.0;
  s.as_written = {{"type", "two_regime"},
                  {"glut_level", glut_level},
                  {"shortage_level", shortage_level},
                  {"glut_to_shortage_per_month", a},
                  {"shortage_to_glut_per_month", b}};
  return s;
}

PriceProcessSpec parse_price_process(JsonObjectReader& r) {
  PriceProcessSpec s;
  const std::string type = r.choice("type", {"lognormal_jumps", "two_regime"});
  if (type == "two_regime") return parse_two_regime(r);
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
