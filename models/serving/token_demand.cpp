#include "models/serving/token_demand.hpp"

#include <memory>

#include <fmt/format.h>

#include "core/time/seconds_per_hour.hpp"
#include "core/error.hpp"
#include "models/catalog/catalog.hpp"
#include "models/input_limits.hpp"
#include "models/catalog/records.hpp"

namespace tco {

namespace {

constexpr Bounds kInteractivity{0.0, 1e7, true};
constexpr Bounds kTtftMs{0.0, 86'400'000.0, true};

// The requests' profiles are the workload's shapes with "requests_per_second" for "gpus": read
// them with the workload's own parser, and say "requests_per_second" in its errors.
WorkloadSpec parse_requests(JsonObjectReader& r, const std::string& scenario_dir) {
  const std::string pointer = r.pointer_of("requests_per_second");
  const Json& given = r.value("requests_per_second");
  if (!given.is_object()) r.fail("requests_per_second", "an object {\"profiles\": [...], \"growth_per_year\"}", &given);
  for (const char* key : {"tokens", "deferrable"})
    if (given.contains(key))
      throw InputError(r.file(), pointer_join(pointer, key),
                       fmt::format("expected profiles and growth_per_year only: {} belongs to the workload", key));
  Json renamed = given;
  if (renamed.contains("profiles") && renamed["profiles"].is_array()) {
    for (std::size_t i = 0; i < renamed["profiles"].size(); ++i) {
      Json& profile = renamed["profiles"][i];
      const std::string at = pointer_join(pointer_join(pointer, "profiles"), std::to_string(i));
      if (!profile.is_object()) continue;
      if (profile.contains("gpus"))
        throw InputError(r.file(), pointer_join(at, "gpus"),
                         "expected requests_per_second: a token demand's profiles count requests, not GPUs");
      if (profile.contains("type") && profile["type"] == "series")
        throw InputError(r.file(), pointer_join(at, "type"),
                         "expected steady or campaigns: an hourly series of requests is not read yet (docs/tokens.md)");
      if (profile.contains("requests_per_second")) {
        profile["gpus"] = profile["requests_per_second"];
        profile.erase("requests_per_second");
      }
    }
  }
  auto say_requests = [](std::string text) {
    for (std::size_t at = text.find("/gpus"); at != std::string::npos; at = text.find("/gpus", at + 1))
      text.replace(at, 5, "/requests_per_second");
    for (std::size_t at = text.find("\"gpus\""); at != std::string::npos; at = text.find("\"gpus\"", at + 1))
      text.replace(at, 6, "\"requests_per_second\"");
    return text;
  };
  try {
    JsonObjectReader rr(renamed, r.file(), pointer);
    return parse_workload(rr, scenario_dir);
  } catch (const InputError& e) {
    throw InputError(e.file(), say_requests(e.where()), say_requests(e.message()));
  }
}

}  // namespace

TokenDemand parse_token_demand(JsonObjectReader& r, const Catalog& catalog, const std::string& scenario_dir) {
  TokenDemand d;
  d.requests_per_second = parse_requests(r, scenario_dir);
  d.input_tokens_per_request = r.number("input_tokens_per_request", limits::kTokensPerRequest);
  d.output_tokens_per_request = r.number("output_tokens_per_request", limits::kTokensPerRequest);
  {
    JsonObjectReader s = r.object("slo");
    d.slo.min_interactivity_tokens_per_s_per_user = s.number("min_interactivity_tokens_per_s_per_user", kInteractivity);
    d.slo.max_p90_ttft_ms = s.optional_number("max_p90_ttft_ms", kTtftMs);
    s.finish();
  }
  const std::string profile_pointer = r.pointer_of("serving_profile");
  const ResolvedRecord resolved =
      resolve_reference(catalog, "serving_profile", r.value("serving_profile"), r.file(), profile_pointer);
  d.serving_profile_id = resolved.id;
  {
    JsonObjectReader pr(resolved.merged, r.file(), profile_pointer);
    d.profile = parse_serving_profile(pr, resolved.id);
  }
  const ResolvedRecord gpu = resolve_reference(catalog, "gpu", Json(d.profile.gpu_model), r.file(),
                                               profile_pointer + "/gpu_model");
  {
    JsonObjectReader gr(gpu.merged, r.file(), profile_pointer + "/gpu_model");
    d.gpu_perf_relative = parse_gpu(gr, gpu.id).perf_relative;
  }
  try {
    d.capacity = replica_capacity(d.profile, d.slo, d.serving_profile_id.empty() ? "(inline)" : d.serving_profile_id);
  } catch (const ModelError& e) {
    throw InputError(r.file(), r.pointer_of("slo"), e.what());
  }
  r.finish();
  return d;
}

TokenHours token_hours(const TokenDemand& d, long hours, const Calendar& calendar) {
  TokenHours out;
  const std::vector<double> requests_per_s = demand_gpus_by_hour(d.requests_per_second, hours, calendar);
  const double tokens_per_request = d.input_tokens_per_request + d.output_tokens_per_request;
  out.tokens.resize(requests_per_s.size());
  out.gpus.resize(requests_per_s.size());
  for (std::size_t h = 0; h < requests_per_s.size(); ++h) {
    out.tokens[h] = requests_per_s[h] * kSecondsPerHour * tokens_per_request;
    out.gpus[h] = gpus_for_hour_tokens(out.tokens[h], d.capacity) * d.gpu_perf_relative;
  }
  return out;
}

void read_token_demand(WorkloadSpec& spec, const Json& workload, const std::string& file, const Catalog& catalog,
                       const std::string& scenario_dir) {
  if (!workload.is_object() || !workload.contains("tokens")) return;
  JsonObjectReader r(workload.at("tokens"), file, pointer_join(spec.pointer, "tokens"));
  spec.tokens = std::make_shared<const TokenDemand>(parse_token_demand(r, catalog, scenario_dir));
}

std::vector<double> token_demand_gpus_by_hour(const TokenDemand& demand, long hours, const Calendar& calendar) {
  return token_hours(demand, hours, calendar).gpus;
}

Json to_json(const TokenDemand& d) {
  Json out = Json::object();
  out["requests_per_second"] = to_json(d.requests_per_second);
  out["input_tokens_per_request"] = d.input_tokens_per_request;
  out["output_tokens_per_request"] = d.output_tokens_per_request;
  Json slo = {{"min_interactivity_tokens_per_s_per_user", d.slo.min_interactivity_tokens_per_s_per_user}};
  if (d.slo.max_p90_ttft_ms) slo["max_p90_ttft_ms"] = *d.slo.max_p90_ttft_ms;
  out["slo"] = std::move(slo);
  out["serving_profile"] = d.serving_profile_id;
  out["replica"] = {{"gpus", d.capacity.gpus_per_replica},
                    {"concurrency", d.capacity.concurrency},
                    {"tokens_per_s_per_gpu", d.capacity.tokens_per_s_per_gpu},
                    {"tokens_per_s", d.capacity.replica_tokens_per_s()}};
  return out;
}

}  // namespace tco
