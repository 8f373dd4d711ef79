#include "engine/ledger/api_booking.hpp"

#include <algorithm>

#include "models/serving/token_cost.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

ApiMeter::ApiMeter(const Scenario& s, const Plan& plan) : api_(*plan.api) {
  const TokenDemand& demand = *s.workload.tokens;
  TokenHours hours = token_hours(demand, s.horizon_hours(), s.calendar);
  tokens_ = std::move(hours.tokens);
  const double tokens_per_request = demand.input_tokens_per_request + demand.output_tokens_per_request;
  if (tokens_per_request > 0.0) {
    input_share_ = demand.input_tokens_per_request / tokens_per_request;
  } else {
    input_tokens_ = std::move(hours.input_tokens);
    double input = 0.0, all = 0.0;
    for (std::size_t h = 0; h < tokens_.size(); ++h) {
      input += input_tokens_[h];
      all += tokens_[h];
    }
    input_share_ = all > 0.0 ? input / all : 0.0;
  }
  tokens_per_gpu_hour_ = demand.capacity.tokens_per_s_per_gpu * 3600.0 / demand.gpu_perf_relative;
  totals_.api = api_.name;
  totals_.list_usd_per_million_tokens = api_.blended_usd_per_million_tokens(input_share_);
}

double ApiMeter::add_hour(long hour, int month, double fleet_work_gpu_hours, Ledger& ledger) {
  const double tokens = tokens_[static_cast<std::size_t>(hour)];
  totals_.tokens_demanded += tokens;
  const double sent = std::max(0.0, tokens - fleet_work_gpu_hours * tokens_per_gpu_hour_);
  if (sent <= 0.0) return 0.0;
  const std::size_t h = static_cast<std::size_t>(hour);
  const double input_share = input_tokens_.empty() ? input_share_ : input_tokens_[h] / tokens;
  const ApiHourBill b = api_hour_bill(api_, sent, input_share, hour);
  totals_.tokens_sent += sent;
  totals_.input_tokens += b.input_tokens;
  totals_.cached_input_tokens += b.cached_input_tokens;
  totals_.output_tokens += b.output_tokens;
  totals_.unserved_tokens += b.unserved_tokens;
  totals_.bill_usd += b.usd;
  if (b.usd > 0.0) ledger.add(month, Category::api, b.usd, Timing::end_of_month);
  return b.tokens() / tokens_per_gpu_hour_;
}

ApiFigures ApiMeter::figures() const {
  ApiFigures f = totals_;
  if (f.tokens_taken() > 0.0) f.usd_per_million_tokens = usd_per_million_tokens(f.bill_usd, f.tokens_taken());
  return f;
}

}  // namespace tco
