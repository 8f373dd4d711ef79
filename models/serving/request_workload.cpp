#include "models/serving/request_workload.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/time/seconds_per_hour.hpp"
#include "models/importers/serving/azure_llm_trace.hpp"
#include "models/input_limits.hpp"
#include "models/serving/profile_rates.hpp"
#include "models/serving/token_demand.hpp"
#include "models/workload/workload.hpp"

namespace tco {

namespace {

using serving::TokenLength;

// {"type": "fixed", "tokens": N} | {"type": "exponential", "mean": M} | {"type": "lognormal",
// "median": M, "sigma": S}; absent: fixed at `fallback`.
TokenLength parse_token_length(JsonObjectReader& parent, const char* key, double fallback) {
  TokenLength t;
  t.value = fallback;
  if (!parent.has(key)) return t;
  JsonObjectReader r = parent.object(key);
  const std::string type = r.choice("type", {"fixed", "exponential", "lognormal"});
  if (type == "fixed") {
    t.value = r.number("tokens", limits::kTokensPerRequest);
  } else if (type == "exponential") {
    t.kind = TokenLength::Kind::exponential;
    t.value = r.number("mean", limits::kTokensPerRequest);
  } else {
    t.kind = TokenLength::Kind::lognormal;
    t.value = r.number("median", limits::kTokensPerRequest);
    t.sigma = r.number("sigma", limits::kLogSigma);
  }
  r.finish();
  return t;
}

// "trace": {"file": "x.csv", "format": "azure-llm"}: the file's requests, read now.
void parse_trace(JsonObjectReader r, RequestWorkload& w, const std::string& scenario_dir) {
  r.choice("format", {"azure-llm"});
  const std::string file = r.string("file");
  const std::filesystem::path path(file);
  w.trace_file = path.is_relative() && !scenario_dir.empty()
                     ? (std::filesystem::path(scenario_dir) / path).lexically_normal().string()
                     : file;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(w.trace_file, ec))
    throw InputError(r.file(), r.pointer_of("file"),
                     fmt::format("request trace not found: \"{}\" (resolved to \"{}\")", file, w.trace_file));
  r.finish();
  w.trace = read_azure_llm_requests(w.trace_file);
  w.trace_period_s = (std::floor(w.trace.back().arrival_s / kSecondsPerHour) + 1.0) * kSecondsPerHour;
}

RentedScalingSpec parse_rented_scaling(JsonObjectReader r) {
  RentedScalingSpec s;
  s.max_replicas = static_cast<int>(r.integer("max_replicas", 1, limits::kMaxScaledReplicas));
  s.min_replicas = static_cast<int>(r.integer_or("min_replicas", s.min_replicas, 1, limits::kMaxScaledReplicas));
  s.wait_threshold_s = r.number("wait_threshold_s", limits::kSeconds);
  s.startup_minutes = r.number("startup_minutes", limits::kMinutes);
  s.idle_minutes = r.number("idle_minutes", limits::kMinutes);
  r.finish();
  return s;
}

// "venues": {"name": {"max_replicas": 4, "max_wait_s": 300, "startup_minutes": 5, "idle_minutes": 10}}.
std::vector<RequestVenueSpec> parse_request_venues(JsonObjectReader& parent) {
  const Json& venues = parent.value("venues");
  if (!venues.is_object() || venues.empty()) parent.fail("venues", "a non-empty object of venue names", &venues);
  std::vector<RequestVenueSpec> out;
  for (const auto& [name, value] : venues.items()) {
    RequestVenueSpec v;
    v.name = name;
    v.pointer = pointer_join(parent.pointer_of("venues"), name);
    JsonObjectReader r(value, parent.file(), v.pointer);
    v.max_replicas = static_cast<int>(r.integer("max_replicas", 1, limits::kMaxScaledReplicas));
    v.max_wait_s = r.optional_number("max_wait_s", limits::kSeconds);
    v.startup_minutes = r.optional_number("startup_minutes", limits::kMinutes);
    v.idle_minutes = r.number_or("idle_minutes", v.idle_minutes, limits::kMinutes);
    r.finish();
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

RequestWorkload parse_request_workload(JsonObjectReader& r, const TokenDemand& tokens, long horizon_hours,
                                       const std::string& scenario_dir) {
  RequestWorkload w;
  w.hours = r.integer_or("hours", w.hours, 1, limits::kMaxReplayHours);
  if (w.hours > horizon_hours)
    throw InputError(r.file(), r.pointer_of("hours"),
                     fmt::format("expected at most the horizon's {} hours, found {}", horizon_hours, w.hours));
  w.paths = r.integer_or("paths", w.paths, 1, limits::kMaxReplayPaths);
  if (r.has("max_concurrency")) w.max_concurrency = static_cast<int>(r.integer("max_concurrency", 1, limits::kMaxConcurrency));
  w.round_robin = r.choice_or("router", {"least_active", "round_robin"}, "least_active") == "round_robin";
  w.max_wait_s = r.optional_number("max_wait_s", limits::kPositiveSeconds);
  w.warmup_s = r.number_or("warmup_s", w.warmup_s, limits::kSeconds);
  w.overflow_to_api = r.choice_or("overflow", {"drop", "api"}, "drop") == "api";
  if (w.overflow_to_api && !w.max_wait_s)
    throw InputError(r.file(), r.pointer_of("overflow"),
                     "expected max_wait_s beside \"overflow\": \"api\": a request overflows when it has waited that long");
  if (r.has("rented_scaling")) w.rented_scaling = parse_rented_scaling(r.object("rented_scaling"));
  if (r.has("venues")) {
    w.venues = parse_request_venues(r);
    if (!w.max_wait_s)
      throw InputError(r.file(), r.pointer_of("venues"),
                       "expected max_wait_s beside \"venues\": a request goes to a venue when it has waited that long");
  }
  const double replayed_s = static_cast<double>(w.hours) * kSecondsPerHour;
  if (w.warmup_s >= replayed_s)
    throw InputError(r.file(), r.pointer_of("warmup_s"),
                     fmt::format("expected less than the {} hours replayed ({:g} s), found {:g} s", w.hours, replayed_s,
                                 w.warmup_s));
  if (r.has("trace")) {
    for (const char* key : {"input_tokens", "output_tokens"})
      if (r.has(key))
        throw InputError(r.file(), r.pointer_of(key),
                         fmt::format("expected trace or {}, not both: a trace gives each request's tokens", key));
    if (r.has("paths") && w.paths > 1)
      throw InputError(r.file(), r.pointer_of("paths"),
                       "expected 1 path with a trace: its requests are the same on every path");
    parse_trace(r.object("trace"), w, scenario_dir);
  } else {
    if (tokens.series)
      throw InputError(r.file(), r.pointer_of("trace"),
                       "expected a request trace: workload.tokens gives an hourly token series, not a request rate");
    w.input_tokens = parse_token_length(r, "input_tokens", tokens.input_tokens_per_request);
    w.output_tokens = parse_token_length(r, "output_tokens", tokens.output_tokens_per_request);
  }
  check_replay_rates(w, tokens, r.file(), r.has("max_concurrency") ? r.pointer_of("max_concurrency") : r.pointer());
  r.finish();
  return w;
}

int replay_max_concurrency(const RequestWorkload& requests, const TokenDemand& serving) {
  if (requests.max_concurrency) return *requests.max_concurrency;
  return std::max(1, static_cast<int>(std::floor(serving.capacity.concurrency)));
}

void check_replay_rates(const RequestWorkload& requests, const TokenDemand& serving, const std::string& file,
                        const std::string& pointer) {
  try {
    serving::replica_rates(serving.profile, replay_max_concurrency(requests, serving),
                           serving.serving_profile_id.empty() ? "(inline)" : serving.serving_profile_id);
  } catch (const ModelError& e) {
    throw InputError(file, pointer, e.what());
  }
}

void read_request_workload(WorkloadSpec& spec, const Json& workload, const std::string& file, long horizon_hours,
                           const std::string& scenario_dir) {
  if (!workload.is_object() || !workload.contains("requests")) return;
  const std::string pointer = pointer_join(spec.pointer, "requests");
  if (!spec.tokens)
    throw InputError(file, pointer,
                     "expected workload.tokens beside requests: the requests are served with its serving profile and "
                     "slo");
  if (spec.tokens->throughput_factor != 1.0)  // the replay reads the profile's measured points
    throw InputError(file, pointer_join(pointer_join(spec.pointer, "tokens"), "throughput_factor"),
                     "expected 1 (or none) beside requests: the request replay serves at the profile's measured "
                     "rates, not scaled yet (docs/tokens.md)");
  JsonObjectReader r(workload.at("requests"), file, pointer);
  spec.requests = std::make_shared<const RequestWorkload>(
      parse_request_workload(r, *spec.tokens, horizon_hours, scenario_dir));
}

}  // namespace tco
