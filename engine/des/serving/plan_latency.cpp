#include "engine/des/serving/plan_latency.hpp"

#include <algorithm>
#include <cmath>

#include "core/time/seconds_per_hour.hpp"
#include "models/serving/profile_rates.hpp"
#include "models/serving/request_workload.hpp"

namespace tco {

namespace {

// The API a plan's overflowing requests go to: its own, else the scenario's first API plan's.
const ApiSpec* overflow_api(const Scenario& s, const Plan& plan) {
  if (plan.api) return &*plan.api;
  for (const Plan& p : s.plans)
    if (p.api) return &*p.api;
  return nullptr;
}

// The rented replicas' $ of `replica_hours` at the cloud offer's on-demand price (0 without one).
double rented_usd_of(const Plan& plan, double replica_hours, int gpus_per_replica) {
  if (!plan.cloud || !(replica_hours > 0.0)) return 0.0;
  const CloudOffer& offer = plan.cloud->offer;
  return replica_hours * gpus_per_replica * offer.on_demand_usd_per_hour / offer.gpus_per_instance *
         plan.cloud->on_demand_factor(0);
}

double api_usd_of(const ApiSpec* api, double input_tokens, double output_tokens) {
  if (!api) return 0.0;
  return (input_tokens * api->usd_per_million_input_tokens + output_tokens * api->usd_per_million_output_tokens) / 1e6 *
         api->price_factor_at(0);
}

// The plan's venues named in the replay's venues, in the plan's order, with their replay terms.
std::vector<VenueLatency> overflow_venues(const RequestWorkload& w, const Plan& plan, int gpus_per_replica) {
  std::vector<VenueLatency> out;
  for (const CloudVenue& venue : plan.venues) {
    const auto spec = std::find_if(w.venues.begin(), w.venues.end(),
                                   [&venue](const RequestVenueSpec& v) { return v.name == venue.name; });
    if (spec == w.venues.end()) continue;
    const double gpus_per_instance = venue.offer.gpus_per_instance;
    double most = spec->max_replicas;
    if (const auto quota = venue.quota_instances())
      most = std::min(most, std::floor(*quota * gpus_per_instance / gpus_per_replica + 1e-9));
    if (!(most >= 1.0)) continue;
    VenueLatency v;
    v.name = venue.name;
    v.max_replicas = static_cast<int>(most);
    v.max_wait_s = spec->max_wait_s.value_or(*w.max_wait_s);
    v.startup_s = spec->startup_minutes ? *spec->startup_minutes * 60.0 : venue.provisioning_delay_h * kSecondsPerHour;
    v.idle_s = spec->idle_minutes * 60.0;
    const bool spot = venue.price == CloudVenue::PriceKind::spot;
    const double factor = !plan.cloud ? 1.0
                          : spot      ? plan.cloud->spot_factor(0) * plan.cloud->spot_overhead_factor
                                      : plan.cloud->on_demand_factor(0);
    v.usd_per_replica_hour = venue.usd_per_instance_hour() * gpus_per_replica / gpus_per_instance * factor;
    out.push_back(std::move(v));
  }
  return out;
}

// Path `st`'s value of each figure of latency_path_figure_keys() (nullopt: none on this path).
std::vector<std::optional<double>> path_figures(const serving::RequestReplayStats& st, const PlanLatency& l,
                                                const Plan& plan, const ApiSpec* api) {
  std::vector<std::optional<double>> out;
  for (const serving::LatencyHistogram* h : {&st.ttft_s, &st.tpot_s, &st.e2e_s})
    for (double p : {0.5, 0.9, 0.99})
      out.push_back(st.served > 0 ? std::optional<double>(h->percentile(p)) : std::nullopt);
  out.push_back(st.arrived > 0 ? std::optional<double>(static_cast<double>(st.within_slo) / st.arrived) : std::nullopt);
  out.push_back(st.input_tokens_served + st.output_tokens_served - st.rented_tokens_served);
  out.push_back(st.rented_tokens_served);
  out.push_back(st.api_input_tokens + st.api_output_tokens);
  out.push_back(static_cast<double>(st.dropped));
  const double rented_hours = static_cast<double>(l.replicas - l.owned_replicas) * static_cast<double>(l.hours) +
                              st.rented_billed_replica_s / kSecondsPerHour;
  double venues_usd = 0.0;
  for (std::size_t v = 0; v < l.venues.size() && v < st.venues.size(); ++v)
    venues_usd += st.venues[v].billed_replica_s / kSecondsPerHour * l.venues[v].usd_per_replica_hour;
  out.push_back(rented_usd_of(plan, rented_hours, l.gpus_per_replica) + venues_usd);
  out.push_back(st.to_api > 0 ? api_usd_of(api, st.api_input_tokens, st.api_output_tokens) : 0.0);
  return out;
}

}  // namespace

const std::vector<const char*>& latency_path_figure_keys() {
  static const std::vector<const char*> keys = {
      "ttft_p50_s",   "ttft_p90_s",    "ttft_p99_s",       "tpot_p50_s",   "tpot_p90_s",
      "tpot_p99_s",   "e2e_p50_s",     "e2e_p90_s",        "e2e_p99_s",    "share_within_slo",
      "owned_tokens", "rented_tokens", "api_tokens",       "dropped_requests", "rented_usd",
      "api_overflow_usd"};
  return keys;
}

int owned_replicas(const Plan& plan, const TokenDemand& serving) {
  if (!plan.onprem || plan.onprem_nodes <= 0) return 0;
  const double work_per_gpu = plan.onprem->server.gpu_model == serving.profile.gpu_model
                                  ? 1.0
                                  : plan.onprem->gpu.perf_relative / serving.gpu_perf_relative;
  return static_cast<int>(std::floor(static_cast<double>(plan.onprem_nodes) * plan.onprem->server.gpus * work_per_gpu /
                                     serving.capacity.gpus_per_replica + 1e-9));
}

bool rents_replicas(const Plan& plan) {
  return plan.kind == Plan::Kind::cloud || (plan.kind == Plan::Kind::hybrid && !plan.uses_api());
}

int plan_replicas(const Plan& plan, const TokenDemand& serving, const std::vector<double>& hour_tokens,
                  long replay_hours) {
  const int per_replica = serving.capacity.gpus_per_replica;
  const int owned = owned_replicas(plan, serving);
  if (!rents_replicas(plan)) return owned;
  double peak_tokens = 0.0;
  const long hours = std::min<long>(replay_hours, static_cast<long>(hour_tokens.size()));
  for (long h = 0; h < hours; ++h) peak_tokens = std::max(peak_tokens, hour_tokens[static_cast<std::size_t>(h)]);
  const int at_peak = static_cast<int>(std::lround(gpus_for_hour_tokens(peak_tokens, serving.capacity) / per_replica));
  return std::max(owned, at_peak);
}

std::optional<PlanLatency> plan_latency(const Scenario& s, const Plan& plan, const std::vector<double>& hour_tokens) {
  if (plan.kind == Plan::Kind::api) return std::nullopt;
  const RequestWorkload& w = *s.workload.requests;
  const TokenDemand& serving = plan.serving ? *plan.serving : *s.workload.tokens;
  PlanLatency out;
  out.hours = w.hours;
  out.paths = w.paths;
  out.gpus_per_replica = serving.capacity.gpus_per_replica;
  out.max_concurrency = replay_max_concurrency(w, serving);
  for (long h = 0; h < out.hours && h < static_cast<long>(hour_tokens.size()); ++h)
    out.hourly_model_tokens += hour_tokens[static_cast<std::size_t>(h)];
  out.replicas = plan_replicas(plan, serving, hour_tokens, out.hours);
  out.owned_replicas = owned_replicas(plan, serving);
  if (w.rented_scaling && rents_replicas(plan)) {
    out.replicas = out.owned_replicas > 0 ? out.owned_replicas : w.rented_scaling->min_replicas;
    out.max_scaled_replicas = w.rented_scaling->max_replicas;
  }
  if (out.replicas == 0) return out;

  serving::RequestReplayConfig c;
  c.replicas = out.replicas;
  c.owned_replicas = out.owned_replicas;
  c.scaling.max_replicas = out.max_scaled_replicas;
  if (w.rented_scaling) {
    c.scaling.wait_threshold_s = w.rented_scaling->wait_threshold_s;
    c.scaling.startup_s = w.rented_scaling->startup_minutes * 60.0;
    c.scaling.idle_s = w.rented_scaling->idle_minutes * 60.0;
  }
  c.overflow_to_api = w.overflow_to_api;
  out.venues = overflow_venues(w, plan, out.gpus_per_replica);
  for (const VenueLatency& v : out.venues) c.venues.push_back({v.max_replicas, v.max_wait_s, v.startup_s, v.idle_s});
  c.rates = serving::replica_rates(serving.profile, out.max_concurrency,
                                   serving.serving_profile_id.empty() ? "(inline)" : serving.serving_profile_id);
  c.router = w.round_robin ? serving::Router::round_robin : serving::Router::least_active;
  if (w.trace.empty()) {
    c.requests_per_s_by_step = demand_gpus_by_hour(s.workload.tokens->requests_per_second, out.hours, s.calendar);
    c.step_s = kSecondsPerHour;
    c.input_tokens = w.input_tokens;
    c.output_tokens = w.output_tokens;
  } else {
    c.trace = w.trace;
    c.trace_period_s = w.trace_period_s;
    c.trace_until_s = static_cast<double>(out.hours) * kSecondsPerHour;
  }
  if (w.max_wait_s) c.max_wait_s = *w.max_wait_s;
  if (serving.slo.max_p90_ttft_ms) c.slo_max_ttft_s = *serving.slo.max_p90_ttft_ms / 1000.0;
  c.slo_min_tokens_per_s_per_user = serving.slo.min_interactivity_tokens_per_s_per_user;
  c.warmup_s = w.warmup_s;
  c.seed = s.monte_carlo.seed;
  const ApiSpec* api = overflow_api(s, plan);
  for (const char* key : latency_path_figure_keys()) out.across_paths.push_back({key, {}});
  for (long path = 0; path < w.paths; ++path) {
    const serving::RequestReplayStats st = serving::replay_requests(c, static_cast<std::uint32_t>(path));
    const std::vector<std::optional<double>> figures = path_figures(st, out, plan, api);
    for (std::size_t k = 0; k < figures.size(); ++k)
      if (figures[k]) out.across_paths[k].values.push_back(*figures[k]);
    out.stats.merge(st);
  }

  const double paths = static_cast<double>(w.paths);
  out.rented_replica_hours = static_cast<double>(out.replicas - out.owned_replicas) * static_cast<double>(out.hours) +
                             out.stats.rented_billed_replica_s / kSecondsPerHour / paths;
  out.rented_usd = rented_usd_of(plan, out.rented_replica_hours, out.gpus_per_replica);
  for (std::size_t v = 0; v < out.venues.size(); ++v) {
    VenueLatency& venue = out.venues[v];
    venue.billed_replica_hours = out.stats.venues[v].billed_replica_s / kSecondsPerHour / paths;
    venue.usd = venue.billed_replica_hours * venue.usd_per_replica_hour;
    out.rented_usd += venue.usd;
  }
  if (out.stats.to_api > 0) out.api_usd = api_usd_of(api, out.stats.api_input_tokens, out.stats.api_output_tokens) / paths;
  return out;
}

}  // namespace tco
