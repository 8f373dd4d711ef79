// A plan's token figures (issue 46 item 5; docs/tokens.md §6), from its cost and the tokens it
// served. Any plan that has a cost and a count of tokens feeds them: an owned or rented fleet here,
// a plan that pays per token alike.
//   reservation basis   $/M tokens = the plan's whole cost / tokens served x 1e6
//   usage basis         $/M tokens = the cost of its busy GPU-hours / tokens served x 1e6
//   input and output    the cost is split between them by token count, an output token weighing
//                       w input tokens (w = 1 by default: a GPU-second serves prefill and decode
//                       together and no profile measures them apart):
//                         $/M input = cost / (input + w x output) x 1e6,  $/M output = w x $/M input
//                       so input x $/M input + output x $/M output = cost x 1e6 for every w.
// Example: $1,000 for 3e8 input and 1e8 output tokens served, w = 1: blended 1000 / 4e8 x 1e6 =
// $2.50 per million, input and output $2.50; w = 4: 1000 / 7e8 x 1e6 = $1.4286 input, $5.7143 output.
#pragma once

#include <optional>

namespace tco {

struct UsdPerMillionTokens {
  double blended = 0.0;
  double input = 0.0;
  double output = 0.0;
};

struct TokenCounts {
  double demanded = 0.0;
  double served = 0.0;
  double input_served = 0.0;  // of `served`, the input tokens (the rest are output tokens)
};

struct PlanTokenFigures {
  double tokens_demanded = 0.0;
  double tokens_served = 0.0;
  double tokens_unserved = 0.0;     // demanded - served
  double input_tokens_served = 0.0;
  double output_tokens_served = 0.0;
  double cost_usd = 0.0;            // the reservation basis's cost: the plan's whole nominal cost
  double busy_cost_usd = 0.0;       // the usage basis's: the cost of its busy GPU-hours
  double output_cost_weight = 1.0;  // w above
  // Absent when nothing was served (a price per token of nothing is no figure).
  std::optional<UsdPerMillionTokens> reservation;
  std::optional<UsdPerMillionTokens> usage;
};

// $/M tokens of `cost_usd` over input and output tokens, an output token weighing w input ones.
UsdPerMillionTokens usd_per_million_tokens_split(double cost_usd, double input_tokens, double output_tokens,
                                                 double output_cost_weight);

// The figures of any plan from its cost, its busy cost and the tokens it was asked for and served.
PlanTokenFigures plan_token_figures(double cost_usd, double busy_cost_usd, const TokenCounts& tokens,
                                    double output_cost_weight = 1.0);

}  // namespace tco
