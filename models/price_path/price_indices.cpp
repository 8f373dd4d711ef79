#include "models/price_path/price_indices.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/input_limits.hpp"
#include "models/price_path/price_schedule.hpp"

namespace tco {

const PriceIndex* PriceIndices::find(const std::string& name) const {
  for (const PriceIndex& index : indices)
    if (index.name == name) return &index;
  return nullptr;
}

std::string PriceIndices::names() const {
  std::string out;
  for (const PriceIndex& index : indices) out += (out.empty() ? "\"" : ", \"") + index.name + "\"";
  return out.empty() ? "none" : out;
}

namespace {

// A series: its points checked by the schedule's own parser (dates, order, bounds), in USD.
PriceIndex read_index_series(const Json& entry, const std::string& file, const std::string& pointer, const Date& start) {
  JsonObjectReader r(entry, file, pointer);
  const PriceSchedule checked = parse_price_schedule(r, start, 1.0);
  if (!checked.replaces_rate)
    throw InputError(file, pointer + "/points/0",
                     "expected \"usd_per_gpu_hour\" points: an index is a price per GPU-hour, not a factor");
  PriceIndex index;
  index.schedule = {{"interpolation", entry.value("interpolation", std::string("step"))}, {"points", entry.at("points")}};
  return index;
}

// A basis: the followed series' points, each price plus b.
PriceIndex read_index_basis(const Json& entry, const std::string& file, const std::string& pointer,
                      const PriceIndices& series) {
  JsonObjectReader r(entry, file, pointer);
  PriceIndex index;
  index.follows = r.string("follows");
  index.basis_usd_per_gpu_hour =
      r.number("basis_usd_per_gpu_hour", Bounds::between(-limits::kUsdPerGpuHour.max, limits::kUsdPerGpuHour.max));
  r.finish();
  const PriceIndex* followed = series.find(index.follows);
  if (!followed || !followed->follows.empty())
    throw InputError(file, pointer + "/follows",
                     fmt::format("expected the name of a series (an index with points: {}), found \"{}\"",
                                 series.names(), index.follows));
  index.schedule = followed->schedule;
  for (Json& point : index.schedule.at("points")) {
    const double written = point.at("usd_per_gpu_hour").get<double>();
    const double usd = written + index.basis_usd_per_gpu_hour;
    if (!(usd > 0.0) || usd > limits::kUsdPerGpuHour.max)
      throw InputError(file, pointer + "/basis_usd_per_gpu_hour",
                       fmt::format("expected a basis that keeps every price in (0, {}] USD per GPU-hour, found {}: "
                                   "\"{}\" on {} is {} + {} = {}",
                                   limits::kUsdPerGpuHour.max, index.basis_usd_per_gpu_hour, index.follows,
                                   point.at("date").get<std::string>(), written, index.basis_usd_per_gpu_hour, usd));
    point["usd_per_gpu_hour"] = usd;
  }
  return index;
}

}  // namespace

PriceIndices parse_price_indices(const Json& section, const std::string& file, const Date& start) {
  const std::string pointer = "/price_indices";
  if (!section.is_object() || section.empty())
    throw InputError(file, pointer,
                     fmt::format("expected an object of named price indices, {{\"name\": {{\"points\": [...]}}}}, "
                                 "found {}",
                                 describe_json(section)));
  PriceIndices out;
  // Series first, so that a basis may follow one written after it.
  for (const auto& item : section.items()) {
    const std::string at = pointer_join(pointer, item.key());
    if (item.key().empty()) throw InputError(file, at, "expected a non-empty index name");
    if (!item.value().is_object())
      throw InputError(file, at,
                       fmt::format("expected a series {{\"points\": [...]}} or a basis {{\"follows\", "
                                   "\"basis_usd_per_gpu_hour\"}}, found {}",
                                   describe_json(item.value())));
    if (item.value().contains("follows")) continue;
    PriceIndex index = read_index_series(item.value(), file, at, start);
    index.name = item.key();
    out.indices.push_back(std::move(index));
  }
  const PriceIndices series = out;
  for (const auto& item : section.items()) {
    if (!item.value().contains("follows")) continue;
    PriceIndex index = read_index_basis(item.value(), file, pointer_join(pointer, item.key()), series);
    index.name = item.key();
    out.indices.push_back(std::move(index));
  }
  return out;
}

Json plan_at_price_index(const Json& plan, const PriceIndices& indices, const std::string& file,
                         const std::string& pointer) {
  if (!plan.is_object() || !plan.contains("price_index")) return plan;
  const std::string at = pointer + "/price_index";
  const Json& name = plan.at("price_index");
  const PriceIndex* index = name.is_string() ? indices.find(name.get<std::string>()) : nullptr;
  if (!index)
    throw InputError(file, at,
                     fmt::format("expected the name of one of the scenario's price_indices ({}), found {}",
                                 indices.names(), describe_json(name)));
  const Json kind_written = plan.value("kind", Json());  // of any type: parse_plan judges it
  const std::string kind = kind_written.is_string() ? kind_written.get<std::string>() : std::string();
  if (kind == "onprem" || kind == "api")
    throw InputError(file, at, fmt::format("expected no price_index in a plan of kind \"{}\" (it rents no GPUs)", kind));
  if (plan.contains("venues"))
    throw InputError(file, at,
                     "expected no price_index in a plan with venues (its offer prices only reserved capacity; venues "
                     "follow price_change_per_year)");
  const Json* cloud = plan.contains("cloud") ? &plan.at("cloud") : nullptr;
  if (cloud && cloud->is_object() && cloud->contains("price_schedule") && cloud->at("price_schedule").is_object() &&
      cloud->at("price_schedule").contains("on_demand"))
    throw InputError(file, at,
                     "expected no price_index beside the plan's own cloud.price_schedule.on_demand (both set the "
                     "on-demand price: give one of the two)");
  Json out = plan;
  out.erase("price_index");
  if (!out.contains("cloud") || !out["cloud"].is_object()) {
    if (out.contains("cloud")) return out;  // not an object: parse_plan says so at its pointer
    out["cloud"] = Json::object();
  }
  Json& schedules = out["cloud"]["price_schedule"];
  if (schedules.is_null()) schedules = Json::object();
  if (!schedules.is_object()) return out;  // parse_cloud says so at its pointer
  schedules["on_demand"] = index->schedule;
  return out;
}

}  // namespace tco
