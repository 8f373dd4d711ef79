#include "models/serving/serving_profile.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/input_limits.hpp"

namespace tco {

namespace {

// Bounds of a profile's figures: a tokens/s per GPU beyond 1e7 or a latency beyond a day is a
// unit slip, not a measurement.
constexpr Bounds kTokensPerSecond{0.0, 1e7, true};
constexpr Bounds kLatencyMs{0.0, 86'400'000.0, true};
constexpr Bounds kConcurrency{0.0, 1e7, true};
constexpr double kInteractivityTolerance = 1e-6;

std::string non_empty(JsonObjectReader& r, std::string_view key) {
  const std::string text = r.string(key);
  if (text.empty()) {
    const Json empty = text;
    r.fail(key, "a non-empty string", &empty);
  }
  return text;
}

ServingPoint parse_point(JsonObjectReader& p) {
  ServingPoint point;
  point.concurrency = p.number("concurrency", kConcurrency);
  point.tokens_per_s_per_gpu = p.number("tokens_per_s_per_gpu", kTokensPerSecond);
  point.input_tokens_per_s_per_gpu = p.optional_number("input_tokens_per_s_per_gpu", kTokensPerSecond);
  point.output_tokens_per_s_per_gpu = p.optional_number("output_tokens_per_s_per_gpu", kTokensPerSecond);
  point.median_ttft_ms = p.optional_number("median_ttft_ms", kLatencyMs);
  point.p90_ttft_ms = p.optional_number("p90_ttft_ms", kLatencyMs);
  point.p99_ttft_ms = p.optional_number("p99_ttft_ms", kLatencyMs);
  point.median_tpot_ms = p.optional_number("median_tpot_ms", kLatencyMs);
  point.p90_tpot_ms = p.optional_number("p90_tpot_ms", kLatencyMs);
  point.p99_tpot_ms = p.optional_number("p99_tpot_ms", kLatencyMs);
  const std::optional<double> interactivity =
      p.optional_number("interactivity_tokens_per_s_per_user", kTokensPerSecond);
  if (point.median_tpot_ms) {
    const double expected = interactivity_of_tpot_ms(*point.median_tpot_ms);
    if (interactivity && std::abs(*interactivity - expected) > kInteractivityTolerance * expected) {
      const Json found = *interactivity;
      p.fail("interactivity_tokens_per_s_per_user",
             fmt::format("1000 / median_tpot_ms = {:.6g} tokens/s per user", expected), &found);
    }
    point.interactivity_tokens_per_s_per_user = expected;
  } else {
    point.interactivity_tokens_per_s_per_user = interactivity;
  }
  p.finish();
  return point;
}

void put(Json& object, const char* key, const std::optional<double>& value) {
  if (value) object[key] = *value;
}

}  // namespace

ServingProfile parse_serving_profile(JsonObjectReader& r, const std::string& id) {
  r.allow("id");
  ServingProfile s;
  s.gpu_model = non_empty(r, "gpu_model");
  s.model = non_empty(r, "model");
  s.precision = non_empty(r, "precision");
  s.framework = non_empty(r, "framework");
  s.gpus_per_replica = static_cast<int>(r.integer("gpus_per_replica", 1, limits::kMaxCount));
  if (r.has("prefill_gpus") || r.has("decode_gpus")) {
    s.prefill_gpus = static_cast<int>(r.integer("prefill_gpus", 1, limits::kMaxCount));
    s.decode_gpus = static_cast<int>(r.integer("decode_gpus", 1, limits::kMaxCount));
    if (*s.prefill_gpus + *s.decode_gpus != s.gpus_per_replica) {
      const Json found = s.gpus_per_replica;
      r.fail("gpus_per_replica",
             fmt::format("prefill_gpus + decode_gpus = {} + {} = {}", *s.prefill_gpus, *s.decode_gpus,
                         *s.prefill_gpus + *s.decode_gpus),
             &found);
    }
  }
  s.input_tokens_per_request = r.number("input_tokens_per_request", limits::kTokensPerRequest);
  s.output_tokens_per_request = r.number("output_tokens_per_request", limits::kTokensPerRequest);
  const Json& points = r.value("points");
  if (!points.is_array() || points.empty()) r.fail("points", "a non-empty array of measured points", &points);
  for (std::size_t i = 0; i < points.size(); ++i) {
    JsonObjectReader p(points[i], r.file(), pointer_join(r.pointer_of("points"), std::to_string(i)));
    s.points.push_back(parse_point(p));
  }
  s.provenance = parse_provenance(r, "serving_profile", id);
  r.finish();
  return s;
}

Json serving_profile_json(const ServingProfile& s) {
  Json out = Json::object();
  out["gpu_model"] = s.gpu_model;
  out["model"] = s.model;
  out["precision"] = s.precision;
  out["framework"] = s.framework;
  out["gpus_per_replica"] = s.gpus_per_replica;
  if (s.prefill_gpus) out["prefill_gpus"] = *s.prefill_gpus;
  if (s.decode_gpus) out["decode_gpus"] = *s.decode_gpus;
  out["input_tokens_per_request"] = s.input_tokens_per_request;
  out["output_tokens_per_request"] = s.output_tokens_per_request;
  Json points = Json::array();
  for (const ServingPoint& p : s.points) {
    Json point = Json::object();
    point["concurrency"] = p.concurrency;
    point["tokens_per_s_per_gpu"] = p.tokens_per_s_per_gpu;
    put(point, "input_tokens_per_s_per_gpu", p.input_tokens_per_s_per_gpu);
    put(point, "output_tokens_per_s_per_gpu", p.output_tokens_per_s_per_gpu);
    put(point, "median_ttft_ms", p.median_ttft_ms);
    put(point, "p90_ttft_ms", p.p90_ttft_ms);
    put(point, "p99_ttft_ms", p.p99_ttft_ms);
    put(point, "median_tpot_ms", p.median_tpot_ms);
    put(point, "p90_tpot_ms", p.p90_tpot_ms);
    put(point, "p99_tpot_ms", p.p99_tpot_ms);
    put(point, "interactivity_tokens_per_s_per_user", p.interactivity_tokens_per_s_per_user);
    points.push_back(std::move(point));
  }
  out["points"] = std::move(points);
  out["source"] = s.provenance.source;
  out["as_of"] = s.provenance.as_of;
  return out;
}

std::vector<Finding> serving_profile_findings(const ServingProfile& s, const std::string& file,
                                              const std::string& pointer) {
  std::vector<Finding> out;
  const std::string points = pointer_join(pointer, "points");
  auto at = [&](std::size_t i) { return pointer_join(points, std::to_string(i)); };
  std::vector<std::size_t> order(s.points.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return s.points[a].concurrency < s.points[b].concurrency;
  });
  // Neighbours in concurrency order: a duplicate sits beside its twin, and a rise in
  // interactivity shows between two neighbours that both have one.
  std::optional<std::size_t> last_with_interactivity;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    const ServingPoint& b = s.points[i];
    if (k > 0 && s.points[order[k - 1]].concurrency == b.concurrency) {
      out.push_back({Finding::Severity::error, "duplicate-concurrency", file, pointer_join(at(i), "concurrency"),
                     fmt::format("concurrency {} is measured twice (also at {}): which throughput holds?",
                                 b.concurrency, at(order[k - 1]))});
      continue;
    }
    if (!b.interactivity_tokens_per_s_per_user) continue;
    if (last_with_interactivity) {
      const ServingPoint& a = s.points[*last_with_interactivity];
      if (*b.interactivity_tokens_per_s_per_user > *a.interactivity_tokens_per_s_per_user)
        out.push_back({Finding::Severity::warning, "interactivity-not-falling", file, at(i),
                       fmt::format("interactivity {:.4g} tokens/s per user at concurrency {} is above {:.4g} at "
                                   "concurrency {} ({}): more simultaneous requests should not make each faster",
                                   *b.interactivity_tokens_per_s_per_user, b.concurrency,
                                   *a.interactivity_tokens_per_s_per_user, a.concurrency,
                                   at(*last_with_interactivity))});
    }
    last_with_interactivity = i;
  }
  return out;
}

}  // namespace tco
