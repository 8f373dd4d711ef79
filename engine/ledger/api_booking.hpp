// A plan's API bill, hour by hour (models/api/api_bill.hpp), booked in the ledger's `api` category
// at the end of each month, as the cloud's usage bills are.
//   tokens sent to the API in hour h = max(0, tokens(h) - fleet work(h) x tokens per reference GPU-hour)
//   tokens per reference GPU-hour    = the serving profile's tokens/s per GPU at the slo x 3,600
//                                      / its GPU's perf_relative (docs/tokens.md §5)
// fleet work is what the plan's owned nodes and reserved instances did that hour (reference
// GPU-hours); a plan of kind "api" has none, so it sends every token.
// Example: 864M tokens in an hour, a base fleet that did 800 reference GPU-hours at 660,000 tokens
// each (183.3 tokens/s x 3,600): 864M - 528M = 336M tokens to the API.
#pragma once

#include <vector>

#include "engine/ledger/ledger.hpp"
#include "models/api/api_bill.hpp"
#include "models/scenario.hpp"

namespace tco {

struct ApiFigures {
  std::string api;                   // its name
  double tokens_demanded = 0.0;      // every token of the workload over the horizon
  double tokens_sent = 0.0;          // those the base fleet left to the API (all, for kind api)
  double input_tokens = 0.0;         // taken by the API, cached included
  double cached_input_tokens = 0.0;
  double output_tokens = 0.0;
  double unserved_tokens = 0.0;      // above its rate limit
  double bill_usd = 0.0;             // nominal
  double list_usd_per_million_tokens = 0.0;  // the blended list price at hour 0 (factor 1)
  std::optional<double> usd_per_million_tokens;  // bill / tokens taken x 1e6 (token_cost.hpp)

  double tokens_taken() const { return input_tokens + output_tokens; }
};

class ApiMeter {
 public:
  // `plan` must use the API and the scenario have workload.tokens (load_scenario checks both).
  ApiMeter(const Scenario& scenario, const Plan& plan);

  // Hour h: bills the tokens the fleet's `fleet_work_gpu_hours` left and books them in `ledger`;
  // returns the work the API did (the tokens it took, in reference GPU-hours).
  double add_hour(long hour, int month, double fleet_work_gpu_hours, Ledger& ledger);
  ApiFigures figures() const;

 private:
  const ApiSpec& api_;
  std::vector<double> tokens_;
  // A measured series (workload.tokens.series) gives each hour its own input tokens, and no
  // per-request counts: the hour's input share is then its own, and input_share_ the series'.
  std::vector<double> input_tokens_;
  double input_share_ = 0.0;
  double tokens_per_gpu_hour_ = 0.0;
  ApiFigures totals_;
};

}  // namespace tco
