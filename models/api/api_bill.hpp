// One hour of an API's bill (issue 46 item 4): the tokens sent to it, split as the requests are,
// priced at the hour's factor, up to its rate limit.
//   taken     = min(tokens sent, rate limit x 60)     unserved = tokens sent - taken
//   input     = taken x s_in, of which cached = input x c; output = taken x (1 - s_in)
//   usd       = factor(h) x (input (1 - c) p_in + input c p_cached + output p_out) / 1e6
// Example: 1.2M tokens at s_in = 5/6, $0.50 / $2.00 per million, factor 1: 1M input x 0.50 / 1e6
// + 0.2M output x 2.00 / 1e6 = $0.90.
#pragma once

#include <algorithm>

#include "models/api/api_spec.hpp"

namespace tco {

struct ApiHourBill {
  double input_tokens = 0.0;  // cached ones included
  double cached_input_tokens = 0.0;
  double output_tokens = 0.0;
  double unserved_tokens = 0.0;  // above the rate limit
  double usd = 0.0;

  double tokens() const { return input_tokens + output_tokens; }
};

inline ApiHourBill api_hour_bill(const ApiSpec& api, double tokens_sent, double input_share, long hour) {
  ApiHourBill b;
  const double taken = std::min(tokens_sent, api.tokens_per_hour_limit());
  b.unserved_tokens = tokens_sent - taken;
  b.input_tokens = taken * input_share;
  b.cached_input_tokens = b.input_tokens * api.cached_input_share;
  b.output_tokens = taken - b.input_tokens;
  b.usd = api.price_factor_at(hour) *
          ((b.input_tokens - b.cached_input_tokens) * api.usd_per_million_input_tokens +
           b.cached_input_tokens * api.usd_per_million_cached_input_tokens +
           b.output_tokens * api.usd_per_million_output_tokens) /
          1e6;
  return b;
}

}  // namespace tco
