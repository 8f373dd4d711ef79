// One hour of an API's bill from its spec (issue 46 item 4): the plain-number bill of
// models/api/api_hour_bill.hpp (its formula and example) at the spec's prices, rate limit and the
// hour's price factor.
#pragma once

#include "models/api/api_hour_bill.hpp"
#include "models/api/api_spec.hpp"

namespace tco {

inline ApiPrices api_prices(const ApiSpec& api) {
  return {api.tokens_per_hour_limit(), api.usd_per_million_input_tokens, api.usd_per_million_cached_input_tokens,
          api.usd_per_million_output_tokens, api.cached_input_share};
}

inline ApiHourBill api_hour_bill(const ApiSpec& api, double tokens_sent, double input_share, long hour) {
  return api_hour_bill(api_prices(api), tokens_sent, input_share, api.price_factor_at(hour));
}

}  // namespace tco
