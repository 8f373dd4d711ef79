#include "models/api/api_spec.hpp"

#include <limits>

namespace tco {

namespace {

// Read as models/input_limits.hpp's bounds are (kept here, not in that table, only so that adding
// them did not rebuild every file that includes it): the dearest API token is ~$600 per million (a
// frontier model's output), 100 times that is allowed; a billion tokens a second is a thousand
// times a large provider's traffic.
constexpr Bounds kUsdPerMillionTokens{0.0, 1e5};
constexpr Bounds kTokensPerMinute{0.0, 6e10, true};

}  // namespace

double ApiSpec::tokens_per_hour_limit() const {
  return rate_limit_tokens_per_minute ? *rate_limit_tokens_per_minute * 60.0 : std::numeric_limits<double>::infinity();
}

ApiSpec parse_api(JsonObjectReader& r, const Date& start) {
  ApiSpec a;
  a.name = r.string("name");
  a.usd_per_million_input_tokens = r.number("usd_per_million_input_tokens", kUsdPerMillionTokens);
  a.usd_per_million_output_tokens = r.number("usd_per_million_output_tokens", kUsdPerMillionTokens);
  a.usd_per_million_cached_input_tokens =
      r.number_or("usd_per_million_cached_input_tokens", a.usd_per_million_input_tokens, kUsdPerMillionTokens);
  a.cached_input_share = r.number_or("cached_input_share", 0.0, Bounds::fraction());
  a.price_change_per_year = r.number_or("price_change_per_year", 0.0, Bounds::between(-0.9, 2.0));
  if (r.has("price_schedule")) {
    JsonObjectReader pr = r.object("price_schedule");
    a.price_schedule = parse_price_schedule(pr, start, std::nullopt);
  }
  r.allow("price_schedule");
  a.rate_limit_tokens_per_minute = r.optional_number("rate_limit_tokens_per_minute", kTokensPerMinute);
  a.provenance = parse_provenance(r, "api_price", a.name);
  r.finish();
  return a;
}

Json to_json(const ApiSpec& a) {
  Json out = {{"name", a.name},
              {"usd_per_million_input_tokens", a.usd_per_million_input_tokens},
              {"usd_per_million_output_tokens", a.usd_per_million_output_tokens},
              {"usd_per_million_cached_input_tokens", a.usd_per_million_cached_input_tokens},
              {"cached_input_share", a.cached_input_share},
              {"price_change_per_year", a.price_change_per_year},
              {"rate_limit_tokens_per_minute",
               a.rate_limit_tokens_per_minute ? Json(*a.rate_limit_tokens_per_minute) : Json(nullptr)},
              {"source", a.provenance.source},
              {"as_of", a.provenance.as_of}};
  if (a.price_schedule) out["price_schedule"] = a.price_schedule->as_written;
  return out;
}

}  // namespace tco
