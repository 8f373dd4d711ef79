#include "models/serving/token_figures.hpp"

#include <algorithm>

namespace tco {

UsdPerMillionTokens usd_per_million_tokens_split(double cost_usd, double input_tokens, double output_tokens,
                                                 double output_cost_weight) {
  UsdPerMillionTokens out;
  out.blended = cost_usd / (input_tokens + output_tokens) * 1e6;
  out.input = cost_usd / (input_tokens + output_cost_weight * output_tokens) * 1e6;
  out.output = output_cost_weight * out.input;
  return out;
}

PlanTokenFigures plan_token_figures(double cost_usd, double busy_cost_usd, const TokenCounts& tokens,
                                    double output_cost_weight) {
  PlanTokenFigures f;
  f.tokens_demanded = tokens.demanded;
  f.tokens_served = tokens.served;
  f.tokens_unserved = std::max(0.0, tokens.demanded - tokens.served);
  f.input_tokens_served = tokens.input_served;
  f.output_tokens_served = tokens.served - f.input_tokens_served;
  f.cost_usd = cost_usd;
  f.busy_cost_usd = busy_cost_usd;
  f.output_cost_weight = output_cost_weight;
  if (tokens.served > 0.0) {
    f.reservation = usd_per_million_tokens_split(cost_usd, f.input_tokens_served, f.output_tokens_served,
                                                 output_cost_weight);
    f.usage = usd_per_million_tokens_split(busy_cost_usd, f.input_tokens_served, f.output_tokens_served,
                                           output_cost_weight);
  }
  return f;
}

}  // namespace tco
