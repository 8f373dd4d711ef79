#include "engine/ledger/api_booking.hpp"

#include <algorithm>

#include "models/serving/token_cost.hpp"
#include "models/site/power.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

ApiMeter::ApiMeter(const Scenario& s, const Plan& plan, double price_multiplier,
                   std::optional<VenueDrawKey> venue_draws)
    : plan_(plan), api_(*plan.api) {
  if (plan.api_bursts_to_venues()) {
    venues_.emplace(api_venue_params(plan, price_multiplier), venue_draws);
    totals_.bursts_to_venues = true;
    totals_.next_venue = plan.api_next_venue;
  }
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

double ApiMeter::input_share_at(long hour) const {
  if (input_tokens_.empty()) return input_share_;
  const std::size_t h = static_cast<std::size_t>(hour);
  return tokens_[h] > 0.0 ? input_tokens_[h] / tokens_[h] : 0.0;
}

ApiHour ApiMeter::add_hour(long hour, int month, double fleet_work_gpu_hours, Ledger& ledger, double growth) {
  ApiHour out;
  double tokens = tokens_[static_cast<std::size_t>(hour)];
  if (growth != 1.0) tokens *= growth;
  totals_.tokens_demanded += tokens;
  const double sent = std::max(0.0, tokens - fleet_work_gpu_hours * tokens_per_gpu_hour_);
  if (sent <= 0.0) {
    totals_.usd_by_hour.push_back(0.0);
    if (venues_) add_venue_hour(hour, month, 0.0, ledger, out);  // the venues' instances go back
    return out;
  }
  const ApiHourBill b = api_hour_bill(api_, sent, input_share_at(hour), hour);
  totals_.usd_by_hour.push_back(b.usd);
  totals_.tokens_sent += sent;
  totals_.input_tokens += b.input_tokens;
  totals_.cached_input_tokens += b.cached_input_tokens;
  totals_.output_tokens += b.output_tokens;
  if (!venues_) totals_.unserved_tokens += b.unserved_tokens;  // with venues: what they leave of it
  totals_.bill_usd += b.usd;
  if (b.usd > 0.0) ledger.add(month, Category::api, b.usd, Timing::end_of_month);
  out.api_work = b.tokens() / tokens_per_gpu_hour_;
  if (venues_) add_venue_hour(hour, month, b.unserved_tokens, ledger, out);
  return out;
}

// The tokens above the rate limit down the venue list, as reference GPUs of work (a plan GPU is a
// reference GPU: api_venue_params); the venues' expected leftover (or a path's) stays unserved.
void ApiMeter::add_venue_hour(long hour, int month, double over_tokens, Ledger& ledger, ApiHour& out) {
  const double factor = hourly_growth_factor(plan_.cloud->price_change_per_year, hour);
  HourOutcome o;
  venues_->begin_hour(hour);
  const double over_gpus = over_tokens / tokens_per_gpu_hour_;
  // work per plan GPU 0: nothing left here waits, so the stepper keeps one state (no backlog).
  const double left_gpus = venues_->step(0, over_gpus, factor, factor, 0.0, 0.0, o);
  venues_->end_hour();
  const double left_tokens = std::min(over_tokens, left_gpus * tokens_per_gpu_hour_);
  out.venue_work = over_gpus - left_gpus;
  out.on_demand_billed_gpus = o.on_demand_billed_gpus;
  out.spot_billed_gpus = o.spot_billed_gpus;
  totals_.tokens_over_rate_limit += over_tokens;
  totals_.venue_tokens += over_tokens - left_tokens;
  totals_.unserved_tokens += left_tokens;
  totals_.venue_usd += o.on_demand_usd + o.spot_usd;
  if (o.on_demand_usd > 0.0) ledger.add(month, Category::cloud_on_demand, o.on_demand_usd, Timing::end_of_month);
  if (o.spot_usd > 0.0) ledger.add(month, Category::cloud_spot, o.spot_usd, Timing::end_of_month);
}

std::vector<VenueTotals> ApiMeter::venue_totals() const {
  return venues_ ? venues_->totals() : std::vector<VenueTotals>{};
}

std::vector<std::vector<VenueTotals>> ApiMeter::venue_totals_by_month() const {
  return venues_ ? venues_->totals_by_month() : std::vector<std::vector<VenueTotals>>{};
}

ApiFigures ApiMeter::figures() const {
  ApiFigures f = totals_;
  if (f.tokens_taken() > 0.0) f.usd_per_million_tokens = usd_per_million_tokens(f.bill_usd, f.tokens_taken());
  return f;
}

}  // namespace tco
