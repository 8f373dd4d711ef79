#include "models/importers/demand/demand_json_import.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "core/io/json_reader.hpp"
#include "core/time/time_zone.hpp"
#include "models/importers/import_time.hpp"

namespace tco {

namespace {

const Json& member(const Json& object, const char* key, const std::string& file, const std::string& pointer) {
  if (!object.is_object())
    throw InputError(file, pointer_join(pointer, key),
                     fmt::format("expected a member of an object, found {} in place of the object", describe_json(object)));
  if (!object.contains(key)) throw InputError(file, pointer_join(pointer, key), "expected a value here, found none");
  return object.at(key);
}

const Json& array_member(const Json& object, const char* key, const std::string& file, const std::string& pointer) {
  const Json& value = member(object, key, file, pointer);
  if (!value.is_array())
    throw InputError(file, pointer_join(pointer, key), "expected an array, found " + describe_json(value));
  return value;
}

}  // namespace

HourlyDemand import_prometheus(const std::string& path, const DemandImportOptions& options) {
  const Json doc = read_json_file(path);
  const Json& status = member(doc, "status", path, "");
  if (status != "success") throw InputError(path, "/status", "expected \"success\", found " + describe_json(status));
  const Json& data = member(doc, "data", path, "");
  const Json& type = member(data, "resultType", path, "/data");
  if (type != "matrix")
    throw InputError(path, "/data/resultType",
                     "expected \"matrix\" (the answer of /api/v1/query_range, not /api/v1/query), found " +
                         describe_json(type));
  const Json& result = array_member(data, "result", path, "/data");
  // Sums per timestamp, in milliseconds (Prometheus writes seconds with up to 3 decimals).
  std::map<std::int64_t, double> sum_by_ms;
  // Where each (series, timestamp) was first seen: a sample given twice would be added twice. A
  // series is its labels ("metric"), so the same labels in two entries of result are one series.
  std::map<std::pair<std::string, std::int64_t>, std::string> first_sample_at;
  for (std::size_t s = 0; s < result.size(); ++s) {
    const std::string series = fmt::format("/data/result/{}", s);
    const Json& values = array_member(result[s], "values", path, series);
    const std::string labels = result[s].contains("metric") ? result[s].at("metric").dump() : std::string("{}");
    for (std::size_t v = 0; v < values.size(); ++v) {
      const std::string at = fmt::format("{}/values/{}", series, v);
      const Json& pair = values[v];
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_string())
        throw InputError(path, at, "expected [unix seconds, \"value\"], found " + describe_json(pair));
      const double seconds = pair[0].get<double>();
      if (!(seconds > 0.0 && seconds < 1e10 && within_import_years(static_cast<std::int64_t>(seconds))))
        throw InputError(path, at + "/0", fmt::format("expected unix seconds between 2000 and 2099, found {}", seconds));
      double value = 0.0;
      if (!parse_finite_double(pair[1].get<std::string>(), value) || value < 0)
        throw InputError(path, at + "/1", "expected a finite value >= 0, found " + describe_json(pair[1]));
      const std::int64_t ms = std::llround(seconds * 1000.0);
      const auto [first, inserted] = first_sample_at.emplace(std::make_pair(labels, ms), at);
      if (!inserted)
        throw InputError(path, at,
                         fmt::format("the sample at {} s of the series {} is given twice (first at {}): Prometheus "
                                     "answers each series once, one sample per timestamp",
                                     seconds, labels, first->second));
      sum_by_ms[ms] += value;
    }
  }
  std::int64_t step_ms = std::numeric_limits<std::int64_t>::max(), previous = -1;
  for (const auto& [ms, sum] : sum_by_ms) {
    if (previous >= 0) step_ms = std::min(step_ms, ms - previous);
    previous = ms;
  }
  if (sum_by_ms.size() > 1 && step_ms > 3'600'000)
    throw InputError(path, "/data/result",
                     fmt::format("expected a step of at most an hour (query_range with step<=1h), found {} s",
                                 step_ms / 1000.0));
  HourlyBins bins;
  for (const auto& [ms, sum] : sum_by_ms)
    bins.add((ms >= 0 ? ms : ms - 999) / 1000, sum * options.scale);
  return bins.finish(options.fill, path, "/data/result");
}

HourlyDemand import_opencost(const std::string& path, const DemandImportOptions& options) {
  const Json doc = read_json_file(path);
  // An error answer ({"code": 500, "message": ...}, or a status other than "success") is not
  // an empty history.
  if (doc.is_object() && doc.contains("code") && doc.at("code") != 200)
    throw InputError(path, "/code",
                     "expected 200 (a successful answer), found " + describe_json(doc.at("code")) +
                         (doc.contains("message") ? ": OpenCost answered with an error, " + describe_json(doc.at("message"))
                                                  : std::string(": OpenCost answered with an error")));
  if (doc.is_object() && doc.contains("status") && doc.at("status") != "success")
    throw InputError(path, "/status",
                     "expected \"success\", found " + describe_json(doc.at("status")) + ": OpenCost answered with an error");
  const Json& windows = array_member(doc, "data", path, "");
  HourlyBins bins;
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const std::string window_pointer = fmt::format("/data/{}", w);
    const Json& allocations = windows[w];
    if (allocations.is_null()) continue;
    if (!allocations.is_object())
      throw InputError(path, window_pointer, "expected a map of allocations, found " + describe_json(allocations));
    std::int64_t start_s = -1, end_s = -1;
    double gpu_hours = 0.0;
    for (const auto& [name, allocation] : allocations.items()) {
      const std::string at = pointer_join(window_pointer, name);
      const Json& window = member(allocation, "window", path, at);
      const std::int64_t s = json_utc_seconds(member(window, "start", path, at + "/window"), path, at + "/window/start");
      const std::int64_t e = json_utc_seconds(member(window, "end", path, at + "/window"), path, at + "/window/end");
      if (e - s != 3600)
        throw InputError(path, at + "/window",
                         fmt::format("expected a window of one hour (query /allocation with step=1h), found {} s", e - s));
      if (start_s >= 0 && s != start_s)
        throw InputError(path, at + "/window/start", "expected the same window as the other allocations of this map");
      start_s = s;
      end_s = e;
      if (name == "__idle__") continue;  // the cluster's unallocated capacity: its window counts, not its hours
      const Json& hours = member(allocation, "gpuHours", path, at);
      if (!hours.is_number() || !std::isfinite(hours.get<double>()) || hours.get<double>() < 0)
        throw InputError(path, at + "/gpuHours", "expected GPU-hours >= 0, found " + describe_json(hours));
      gpu_hours += hours.get<double>();
    }
    if (start_s < 0) continue;  // an empty window says nothing about its time: a gap if nothing else covers it
    bins.add(start_s, gpu_hours / (static_cast<double>(end_s - start_s) / 3600.0));
  }
  return bins.finish(options.fill, path, "/data");
}

}  // namespace tco
