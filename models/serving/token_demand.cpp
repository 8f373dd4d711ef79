#include "models/serving/token_demand.hpp"

#include <cmath>
#include <filesystem>
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
constexpr Bounds kOutputTokenCostWeight{0.0, 1000.0, true};
constexpr Bounds kThroughputFactor{0.0, 100.0, true};

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

// "series": {"file": "tokens.csv", "repeat": true, "scale": 1, "growth_per_year": 0}: the file
// must exist and parse (errors naming the file and line).
TokenSeries parse_token_series(JsonObjectReader r, const std::string& scenario_dir) {
  TokenSeries t;
  SeriesProfile p;
  p.file = r.string("file");
  if (p.file.empty()) {
    const Json found = p.file;
    r.fail("file", "a path to an hourly token file (time_h,requests,input_tokens,output_tokens)", &found);
  }
  p.scale = r.number_or("scale", p.scale, limits::kDemandScale);
  p.repeat = r.boolean_or("repeat", p.repeat);
  t.growth_per_year = r.number_or("growth_per_year", 0.0, Bounds{-1.0, 10.0, true});
  const std::filesystem::path path(p.file);
  p.resolved_path = path.is_relative() && !scenario_dir.empty()
                        ? (std::filesystem::path(scenario_dir) / path).lexically_normal().string()
                        : p.file;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p.resolved_path, ec))
    throw InputError(r.file(), r.pointer_of("file"),
                     fmt::format("token series file not found: \"{}\" (resolved to \"{}\")", p.file, p.resolved_path));
  r.finish();
  t.input = t.output = p;
  t.input.format = "token_input";
  t.output.format = "token_output";
  // Read once here, so that `validate` refuses a malformed file as `run` does (the mutation test
  // found it accepting them); the demand reads it again when it makes the hours.
  read_hourly_series(t.input);
  read_hourly_series(t.output);
  return t;
}

}  // namespace

void resolve_serving_profile(TokenDemand& d, const Json& ref, const Catalog& catalog, const std::string& file,
                             const std::string& profile_pointer, const std::string& slo_pointer) {
  const ResolvedRecord resolved = resolve_reference(catalog, "serving_profile", ref, file, profile_pointer);
  d.serving_profile_id = resolved.id;
  {
    JsonObjectReader pr(resolved.merged, file, profile_pointer);
    d.profile = parse_serving_profile(pr, resolved.id);
  }
  const ResolvedRecord gpu = resolve_reference(catalog, "gpu", Json(d.profile.gpu_model), file,
                                               profile_pointer + "/gpu_model");
  {
    JsonObjectReader gr(gpu.merged, file, profile_pointer + "/gpu_model");
    d.gpu_perf_relative = parse_gpu(gr, gpu.id).perf_relative;
  }
  try {
    d.capacity = replica_capacity(d.profile, d.slo, d.serving_profile_id.empty() ? "(inline)" : d.serving_profile_id);
    d.capacity.tokens_per_s_per_gpu *= d.throughput_factor;
  } catch (const ModelError& e) {
    throw InputError(file, slo_pointer, e.what());
  }
}

TokenDemand parse_token_demand(JsonObjectReader& r, const Catalog& catalog, const std::string& scenario_dir) {
  TokenDemand d;
  if (r.has("series")) {
    for (const char* key : {"requests_per_second", "input_tokens_per_request", "output_tokens_per_request"})
      if (r.has(key))
        throw InputError(r.file(), r.pointer_of(key),
                         fmt::format("expected series or {}, not both: an hourly token series gives the requests "
                                     "and their tokens",
                                     key));
    d.series = parse_token_series(r.object("series"), scenario_dir);
  } else {
    d.requests_per_second = parse_requests(r, scenario_dir);
    d.input_tokens_per_request = r.number("input_tokens_per_request", limits::kTokensPerRequest);
    d.output_tokens_per_request = r.number("output_tokens_per_request", limits::kTokensPerRequest);
  }
  {
    JsonObjectReader s = r.object("slo");
    d.slo.min_interactivity_tokens_per_s_per_user = s.number("min_interactivity_tokens_per_s_per_user", kInteractivity);
    d.slo.max_p90_ttft_ms = s.optional_number("max_p90_ttft_ms", kTtftMs);
    s.finish();
  }
  d.output_token_cost_weight = r.optional_number("output_token_cost_weight", kOutputTokenCostWeight).value_or(1.0);
  d.throughput_factor = r.optional_number("throughput_factor", kThroughputFactor).value_or(1.0);
  resolve_serving_profile(d, r.value("serving_profile"), catalog, r.file(), r.pointer_of("serving_profile"),
                          r.pointer_of("slo"));
  r.finish();
  return d;
}

namespace {

// The series' hours tiled over the horizon (0 past its end when it does not repeat), grown.
TokenHours series_token_hours(const TokenSeries& t, long hours) {
  const std::vector<double> input = read_hourly_series(t.input);
  const std::vector<double> output = read_hourly_series(t.output);
  if (input.size() != output.size())  // one file, two columns: the same hours unless it changed between reads
    throw InputError(t.input.resolved_path, "", "the input and output token columns have different lengths");
  TokenHours out;
  out.tokens.assign(static_cast<std::size_t>(hours), 0.0);
  out.input_tokens.assign(static_cast<std::size_t>(hours), 0.0);
  const long length = static_cast<long>(input.size());
  for (long h = 0; h < hours; ++h) {
    if (!t.input.repeat && h >= length) break;
    const std::size_t row = static_cast<std::size_t>(h % length);
    const double growth = t.growth_per_year != 0.0
                              ? std::pow(1.0 + t.growth_per_year, static_cast<double>(h) / kHoursPerYear)
                              : 1.0;
    out.input_tokens[h] = input[row] * growth;
    out.tokens[h] = (input[row] + output[row]) * growth;
  }
  return out;
}

}  // namespace

TokenHours token_hours(const TokenDemand& d, long hours, const Calendar& calendar) {
  if (d.series) {
    TokenHours out = series_token_hours(*d.series, hours);
    out.gpus.resize(out.tokens.size());
    for (std::size_t h = 0; h < out.tokens.size(); ++h)
      out.gpus[h] = gpus_for_hour_tokens(out.tokens[h], d.capacity) * d.gpu_perf_relative;
    return out;
  }
  TokenHours out;
  const std::vector<double> requests_per_s = demand_gpus_by_hour(d.requests_per_second, hours, calendar);
  const double tokens_per_request = d.input_tokens_per_request + d.output_tokens_per_request;
  out.tokens.resize(requests_per_s.size());
  out.input_tokens.resize(requests_per_s.size());
  out.gpus.resize(requests_per_s.size());
  for (std::size_t h = 0; h < requests_per_s.size(); ++h) {
    out.tokens[h] = requests_per_s[h] * kSecondsPerHour * tokens_per_request;
    out.input_tokens[h] = requests_per_s[h] * kSecondsPerHour * d.input_tokens_per_request;
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
  if (d.series) {
    out["series"] = {{"file", d.series->input.file},
                     {"scale", d.series->input.scale},
                     {"repeat", d.series->input.repeat},
                     {"growth_per_year", d.series->growth_per_year}};
  } else {
    out["requests_per_second"] = to_json(d.requests_per_second);
    out["input_tokens_per_request"] = d.input_tokens_per_request;
    out["output_tokens_per_request"] = d.output_tokens_per_request;
  }
  Json slo = {{"min_interactivity_tokens_per_s_per_user", d.slo.min_interactivity_tokens_per_s_per_user}};
  if (d.slo.max_p90_ttft_ms) slo["max_p90_ttft_ms"] = *d.slo.max_p90_ttft_ms;
  out["slo"] = std::move(slo);
  if (d.output_token_cost_weight != 1.0) out["output_token_cost_weight"] = d.output_token_cost_weight;
  if (d.throughput_factor != 1.0) out["throughput_factor"] = d.throughput_factor;
  out["serving_profile"] = d.serving_profile_id;
  out["replica"] = {{"gpus", d.capacity.gpus_per_replica},
                    {"concurrency", d.capacity.concurrency},
                    {"tokens_per_s_per_gpu", d.capacity.tokens_per_s_per_gpu},
                    {"tokens_per_s", d.capacity.replica_tokens_per_s()}};
  return out;
}

}  // namespace tco
