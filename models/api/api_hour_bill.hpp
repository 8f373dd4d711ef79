// One hour of an API's bill on plain numbers (issue 46 item 4), for the hourly model
// (models/api/api_bill.hpp) and the sweep kernel (engine/sweep/sweep_kernel.hpp, CPU and CUDA): one
// function, so a Monte Carlo path that draws nothing bills the deterministic run's bits.
//   taken     = min(tokens sent, rate limit x 60)     unserved = tokens sent - taken
//   input     = taken x s_in, of which cached = input x c; output = taken x (1 - s_in)
//   usd       = factor(h) x (input (1 - c) p_in + input c p_cached + output p_out) / 1e6
// Example: 1.2M tokens at s_in = 5/6, $0.50 / $2.00 per million, factor 1: 1M input x 0.50 / 1e6
// + 0.2M output x 2.00 / 1e6 = $0.90.
#pragma once

#include "core/hd.hpp"

namespace tco {

struct ApiHourBill {
  double input_tokens = 0.0;  // cached ones included
  double cached_input_tokens = 0.0;
  double output_tokens = 0.0;
  double unserved_tokens = 0.0;  // above the rate limit
  double usd = 0.0;

  TCO_HD double tokens() const { return input_tokens + output_tokens; }
};

// The API's prices and limit as plain numbers, for the hourly model and the sweep kernel (CPU and
// CUDA) alike: the one bill below serves both, so a path that draws nothing bills the same bits.
struct ApiPrices {
  double tokens_per_hour_limit = 0.0;  // infinity without a rate limit
  double usd_per_million_input_tokens = 0.0;
  double usd_per_million_cached_input_tokens = 0.0;
  double usd_per_million_output_tokens = 0.0;
  double cached_input_share = 0.0;

  bool operator==(const ApiPrices&) const = default;
};

// The bill of `tokens_sent` in an hour whose price factor is `factor`.
TCO_HD_STEP ApiHourBill api_hour_bill(const ApiPrices& api, double tokens_sent, double input_share, double factor) {
  ApiHourBill b;
  const double taken = api.tokens_per_hour_limit < tokens_sent ? api.tokens_per_hour_limit : tokens_sent;  // std::min
  b.unserved_tokens = tokens_sent - taken;
  b.input_tokens = taken * input_share;
  b.cached_input_tokens = b.input_tokens * api.cached_input_share;
  b.output_tokens = taken - b.input_tokens;
  b.usd = factor *
          ((b.input_tokens - b.cached_input_tokens) * api.usd_per_million_input_tokens +
           b.cached_input_tokens * api.usd_per_million_cached_input_tokens +
           b.output_tokens * api.usd_per_million_output_tokens) /
          1e6;
  return b;
}

}  // namespace tco
