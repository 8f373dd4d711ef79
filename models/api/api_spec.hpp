// An API priced per token (issue 46 item 4): the scenario's `api` section, which a plan of kind
// "api" buys all its tokens from and a hybrid plan with "overflow_to": "api" its overflow.
//   blended $/M tokens  = s_in ((1 - c) p_in + c p_cached) + s_out p_out
//                         s_in = input / (input + output) tokens per request, c = cached_input_share
//   hour h's price      = blended x factor(h)   factor: (1 + r)^(h / 8760) x the schedule's v(h)
//                         (models/price_path/price_schedule.hpp; "factor" points only)
//   tokens the API takes in an hour <= rate_limit_tokens_per_minute x 60 (the rest is unserved)
// Example: 2,000 input and 400 output tokens a request at $0.50 / $2.00 per million, none cached:
// s_in = 5/6, blended = 5/6 x 0.50 + 1/6 x 2.00 = $0.75 per million tokens.
#pragma once

#include <optional>
#include <string>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"
#include "models/price_path/price_schedule.hpp"

namespace tco {

struct ApiSpec {
  std::string name;  // "openrouter/deepseek/deepseek-r1" (the report's label; the provenance id)
  double usd_per_million_input_tokens = 0.0;
  double usd_per_million_output_tokens = 0.0;
  double usd_per_million_cached_input_tokens = 0.0;  // defaults to the input price
  double cached_input_share = 0.0;                   // of input tokens billed at the cached price
  double price_change_per_year = 0.0;                // compounding by the hour, as a cloud price's
  std::optional<PriceSchedule> price_schedule;       // dated factors on the prices
  std::optional<double> rate_limit_tokens_per_minute;
  Provenance provenance;                             // kind "api_price", id = name

  // The price factor of hour h (1 at hour 0 without a schedule).
  double price_factor_at(long hour) const { return price_factor(price_schedule, price_change_per_year, hour); }
  // The blended list price per million tokens for a request mix whose input share is `input_share`.
  double blended_usd_per_million_tokens(double input_share) const {
    const double input_price = (1.0 - cached_input_share) * usd_per_million_input_tokens +
                               cached_input_share * usd_per_million_cached_input_tokens;
    return input_share * input_price + (1.0 - input_share) * usd_per_million_output_tokens;
  }
  // The most tokens it takes in one hour (infinity without a rate limit).
  double tokens_per_hour_limit() const;
};

// Reads the merged `api` section (the reader is at its pointer). Prices >= 0, a rate limit > 0,
// `source` and `as_of` required; an unknown key is refused.
ApiSpec parse_api(JsonObjectReader& r, const Date& start);

Json to_json(const ApiSpec& api);

}  // namespace tco
