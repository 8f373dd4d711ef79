#include "engine/sweep/sweep_shard_check.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace {

// Every leaf of a point is a finite number but its plan names ("name", "best_plan").
void check_point_figures(const std::string& file, const Json& value, const std::string& pointer,
                         const std::string& key) {
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) check_point_figures(file, v, pointer_join(pointer, k), k);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      check_point_figures(file, value[i], pointer_join(pointer, std::to_string(i)), key);
  } else if (key == "name" || key == "best_plan") {
    if (!value.is_string()) throw InputError(file, pointer, "expected a plan name, found " + describe_json(value));
  } else if (!value.is_number() || !std::isfinite(value.get<double>())) {
    throw InputError(file, pointer, "expected a finite number, found " + describe_json(value));
  }
}

// A member `key` of the object at `pointer`, or an InputError naming where it is missing.
const Json& member(const std::string& file, const Json& parent, const std::string& pointer, const char* key) {
  const auto it = parent.find(key);
  if (it == parent.end())
    throw InputError(file, pointer_join(pointer, key),
                     "expected this statistic, found nothing (every point of a shard written by tcosim sweep has it)");
  return *it;
}

double number_at(const std::string& file, const Json& value, const std::string& pointer) {
  if (!value.is_number()) throw InputError(file, pointer, "expected a number, found " + describe_json(value));
  return value.get<double>();
}

// a <= b, within rounding (a mean and a quantile of the same samples may differ in the last bits).
bool in_order(double a, double b) {
  return a <= b + 1e-9 * std::max({std::fabs(a), std::fabs(b), 1.0});
}

// The statistics of one sample (an NPV, or a saving): present, and ordered as statistics of one
// sample are. The worst 5% (cvar95) lies beyond P95 for a cost (`worst_high`), below P5 for a
// saving; the mean lies inside its 95% interval, which is mean +- t x stderr with t between
// 1.96 (many paths) and 12.71 (two); the mean lies between the CVaR and the other tail's end.
void check_statistics(const std::string& file, const Json& stats, const std::string& pointer, bool worst_high) {
  if (!stats.is_object()) throw InputError(file, pointer, "expected the statistics (an object), found " + describe_json(stats));
  const auto number = [&](const char* key) { return number_at(file, member(file, stats, pointer, key), pointer_join(pointer, key)); };
  const double mean = number("mean"), stderr_ = number("stderr"), p5 = number("p5"), p50 = number("p50"),
               p95 = number("p95"), cvar95 = number("cvar95");
  const Json& ci95 = member(file, stats, pointer, "ci95");
  if (!ci95.is_array() || ci95.size() != 2)
    throw InputError(file, pointer_join(pointer, "ci95"), "expected [low, high], found " + describe_json(ci95));
  const double low = number_at(file, ci95[0], pointer + "/ci95/0"), high = number_at(file, ci95[1], pointer + "/ci95/1");
  const auto refuse = [&](const std::string& what) {
    throw InputError(file, pointer,
                     fmt::format("the statistics are not those of one sample ({}): mean {}, stderr {}, ci95 [{}, {}], "
                                 "p5 {}, p50 {}, p95 {}, cvar95 {}",
                                 what, mean, stderr_, low, high, p5, p50, p95, cvar95));
  };
  if (!in_order(p5, p50) || !in_order(p50, p95)) refuse("expected p5 <= p50 <= p95");
  if (worst_high ? !in_order(p95, cvar95) || !in_order(mean, cvar95) : !in_order(cvar95, p5) || !in_order(cvar95, mean))
    refuse(worst_high ? "expected p95 <= cvar95 and mean <= cvar95, the mean of the worst 5%"
                      : "expected cvar95 <= p5 and cvar95 <= mean, cvar95 being the mean of the worst 5%");
  if (stderr_ < 0.0) refuse("expected stderr >= 0");
  if (!in_order(low, mean) || !in_order(mean, high)) refuse("expected ci95 low <= mean <= ci95 high");
  const double half = (high - low) / 2.0;
  if (!in_order(1.959 * stderr_, half) || !in_order(half, 12.71 * stderr_))
    refuse("expected the ci95 half-width between 1.96 and 12.71 stderr");
}

// The statistics of every plan of a point, as sweep_csv and the report read them.
void check_point_statistics(const std::string& file, const Json& point, const std::string& pointer) {
  for (const char* key : {"index", "values", "plans", "best_plan"}) member(file, point, pointer, key);
  const Json& plans = point.at("plans");
  if (!plans.is_array() || plans.empty())
    throw InputError(file, pointer + "/plans", "expected the point's plans (an array), found " + describe_json(plans));
  for (std::size_t j = 0; j < plans.size(); ++j) {
    const std::string at = pointer_join(pointer + "/plans", std::to_string(j));
    if (!plans[j].is_object()) throw InputError(file, at, "expected a plan object, found " + describe_json(plans[j]));
    for (const char* key : {"name", "deterministic_npv_usd"}) member(file, plans[j], at, key);
    check_statistics(file, member(file, plans[j], at, "npv_usd"), at + "/npv_usd", true);
    member(file, member(file, plans[j], at, "total_usd"), at + "/total_usd", "mean");
    if (!plans[j].contains("saving_vs_baseline_usd")) continue;
    const std::string saving_at = at + "/saving_vs_baseline_usd";
    const Json& saving = plans[j].at("saving_vs_baseline_usd");
    check_statistics(file, saving, saving_at, false);
    const double p = number_at(file, member(file, saving, saving_at, "probability_positive"), saving_at + "/probability_positive");
    if (p < 0.0 || p > 1.0)
      throw InputError(file, saving_at + "/probability_positive", fmt::format("expected a probability in [0, 1], found {}", p));
  }
}

void require_count(const std::string& file, const Json& parent, const std::string& pointer, const char* key) {
  const auto it = parent.is_object() ? parent.find(key) : parent.end();
  if (it == parent.end() || !it->is_number_integer() || it->get<long long>() < 0)
    throw InputError(file, pointer_join(pointer, key),
                     "expected an integer >= 0, found " + (it == parent.end() ? std::string("nothing") : describe_json(*it)));
}

}  // namespace

void check_sweep_shard(const std::string& file, const Json& doc, const char* schema) {
  if (!doc.is_object() || doc.value("schema", Json()) != Json(schema))
    throw InputError(file, doc.is_object() ? "/schema" : "",
                     fmt::format("expected a sweep shard (schema \"{}\", written by tcosim sweep --shard k/N), found {}",
                                 schema, doc.is_object() ? (doc.contains("schema") ? describe_json(doc["schema"]) : "none")
                                                         : describe_json(doc)));
  require_count(file, doc.value("grid", Json()), "/grid", "points");
  require_count(file, doc.value("shard", Json()), "/shard", "first_point");
  require_count(file, doc.value("shard", Json()), "/shard", "end_point");
  const auto points = doc.find("points");
  if (points == doc.end() || !points->is_array())
    throw InputError(file, "/points", "expected the shard's points (an array)");
  for (std::size_t i = 0; i < points->size(); ++i) {
    const std::string pointer = "/points/" + std::to_string(i);
    if (!(*points)[i].is_object()) throw InputError(file, pointer, "expected a point object, found " + describe_json((*points)[i]));
    check_point_figures(file, (*points)[i], pointer, "");
    check_point_statistics(file, (*points)[i], pointer);
  }
}

}  // namespace tco
