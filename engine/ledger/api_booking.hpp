// A plan's API bill, hour by hour (models/api/api_bill.hpp), booked in the ledger's `api` category
// at the end of each month, as the cloud's usage bills are.
//   tokens sent to the API in hour h = max(0, tokens(h) - fleet work(h) x tokens per reference GPU-hour)
//   tokens per reference GPU-hour    = the serving profile's tokens/s per GPU at the slo x 3,600
//                                      / its GPU's perf_relative (docs/tokens.md §5)
// fleet work is what the plan's owned nodes and reserved instances did that hour (reference
// GPU-hours); a plan of kind "api" has none, so it sends every token.
// Example: 864M tokens in an hour, a base fleet that did 800 reference GPU-hours at 660,000 tokens
// each (183.3 tokens/s x 3,600): 864M - 528M = 336M tokens to the API.
// With a rate limit L and "api_next_venue" (docs/model.md §3b, docs/tokens.md §7), the hour's tokens
// above it go down the plan's venue list (engine/ledger/hourly/venue_hour.hpp) instead of being
// lost, as reference GPUs of work: over = sent - min(sent, 60 L), R = over / tokens per reference
// GPU-hour, venue i using R_i / perf_i of its own GPUs in whole instances at its price; what the last
// venue does not take is unserved. Nothing waits: a token the API refuses is not offered again.
// Example: L = 1e6 tokens a minute, 200M tokens sent: 60M to the API, 140M over; at 1,000 tokens/s
// per H100 (perf 1) that is 140M / 3.6M = 38.89 GPUs -> 5 instances of 8 at $16 = $80 that hour.
#pragma once

#include <optional>
#include <vector>

#include "engine/ledger/hourly/venue_hour.hpp"
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
  double unserved_tokens = 0.0;      // above its rate limit, less what its venues took
  // With "api_next_venue" (absent otherwise): the tokens above the rate limit, those the venues
  // served, and their bill (nominal; also in the ledger's cloud_on_demand / cloud_spot).
  bool bursts_to_venues = false;
  std::string next_venue;
  double tokens_over_rate_limit = 0.0;
  double venue_tokens = 0.0;
  double venue_usd = 0.0;
  std::vector<double> usd_by_hour;  // the bill hour by hour (the sweep kernel's deterministic reference)
  double bill_usd = 0.0;             // nominal
  double list_usd_per_million_tokens = 0.0;  // the blended list price at hour 0 (factor 1)
  std::optional<double> usd_per_million_tokens;  // bill / tokens taken x 1e6 (token_cost.hpp)

  double tokens_taken() const { return input_tokens + output_tokens; }
};

// One hour of the meter, in reference GPU-hours of work (tokens / tokens per reference GPU-hour),
// and the venues' billed GPU-hours.
struct ApiHour {
  double api_work = 0.0;
  double venue_work = 0.0;
  double on_demand_billed_gpus = 0.0;
  double spot_billed_gpus = 0.0;
};

class ApiMeter {
 public:
  // `plan` must use the API and the scenario have workload.tokens (load_scenario checks both).
  // With venues for the rate-limited tokens, their prices x `price_multiplier`, their availability
  // drawn with `venue_draws` (a Monte Carlo path) or taken as its expectation (absent).
  ApiMeter(const Scenario& scenario, const Plan& plan, double price_multiplier = 1.0,
           std::optional<VenueDrawKey> venue_draws = std::nullopt);

  // Hour h: bills the tokens the fleet's `fleet_work_gpu_hours` left and books them in `ledger`,
  // and sends those above the rate limit to the venues (their bills in cloud_on_demand / spot).
  // `growth` multiplies the hour's tokens (a Monte Carlo path's demand growth c(h); 1 as written).
  ApiHour add_hour(long hour, int month, double fleet_work_gpu_hours, Ledger& ledger, double growth = 1.0);
  ApiFigures figures() const;
  // What the sweep kernel needs to bill a path's hours as add_hour does (engine/sweep/sweep_prepare.cpp).
  double tokens_per_gpu_hour() const { return tokens_per_gpu_hour_; }
  // The input share of hour h's tokens (the requests' mix, or a measured series' own hour; 0 in an
  // hour without tokens, where nothing is billed).
  double input_share_at(long hour) const;
  bool input_share_by_hour() const { return !input_tokens_.empty(); }
  // Per venue, over the horizon (empty without venues).
  std::vector<VenueTotals> venue_totals() const;
  std::vector<std::vector<VenueTotals>> venue_totals_by_month() const;  // [month][venue]

 private:
  const Plan& plan_;
  const ApiSpec& api_;
  std::optional<VenueStepper> venues_;
  std::vector<double> tokens_;
  // A measured series (workload.tokens.series) gives each hour its own input tokens, and no
  // per-request counts: the hour's input share is then its own, and input_share_ the series'.
  std::vector<double> input_tokens_;
  double input_share_ = 0.0;
  double tokens_per_gpu_hour_ = 0.0;
  ApiFigures totals_;

  void add_venue_hour(long hour, int month, double over_tokens, Ledger& ledger, ApiHour& out);
};

}  // namespace tco
