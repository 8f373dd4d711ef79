#include "models/cloud/cloud_reader.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/catalog/record_json.hpp"
#include "models/input_limits.hpp"
#include "models/price_path/price_schedules_reader.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace {

SpotSpec parse_spot(JsonObjectReader& r, const CloudOffer& offer, const std::string& dir) {
  SpotSpec s;
  s.availability = r.number_or("availability", 1.0, Bounds::fraction());
  s.retry_h = r.number_or("retry_h", s.retry_h, limits::kHours);
  s.max_tries = static_cast<int>(r.integer_or("max_tries", s.max_tries, 1, 1000));
  s.policy = r.choice_or("policy", {"fallback", "deadline_aware"}, s.policy);
  s.fallback_to_on_demand = r.boolean_or("fallback_to_on_demand", true);
  s.restart_h = r.number_or("restart_h", s.restart_h, limits::kHours);
  s.checkpoint_write_h = r.number_or("checkpoint_write_h", s.checkpoint_write_h, limits::kHours);
  s.emergency_checkpoint = r.boolean_or("emergency_checkpoint", false);
  s.preemptions_per_instance_hour = r.number_or(
      "preemptions_per_instance_hour", offer.spot_preemptions_per_instance_hour.value_or(0.0),
      Bounds::between(0.0, kMaxPreemptionsPerInstanceHour));
  s.price_sigma = r.number_or("price_sigma", 0.0, Bounds::between(0.0, 2.0));
  s.trace_file = r.string_or("trace_file", "");
  if (!s.trace_file.empty()) {
    const fs::path path = fs::path(s.trace_file).is_relative() ? fs::path(dir) / s.trace_file : fs::path(s.trace_file);
    if (!fs::is_regular_file(path))
      throw InputError(r.file(), r.pointer_of("trace_file"), "expected a spot trace file, found no file at \"" + path.string() + "\"");
    s.trace_resolved_path = path.lexically_normal().string();
  }
  r.finish();
  return s;
}

}  // namespace

void refuse_zero_reserved_prices(const Json& ref, const std::string& file, const std::string& offer_pointer) {
  if (!ref.is_object()) return;
  for (const char* field : {"reserved_1y_usd_per_hour", "reserved_3y_usd_per_hour"}) {
    const auto it = ref.find(field);
    if (it != ref.end() && it->is_number() && it->get<double>() == 0.0)
      throw InputError(file, pointer_join(offer_pointer, field),
                       fmt::format("expected a positive price, found 0: a reserved term priced at 0 is a missing "
                                   "figure (leave {} out, or set it to null over a catalog record, when there is "
                                   "no such term)",
                                   field));
  }
}

CloudSpec parse_cloud(JsonObjectReader& r, RecordResolver& resolver, const std::string& dir, const Date& start) {
  CloudSpec c;
  c.offer = resolver.resolve<CloudOffer>("cloud_offer", r.value("offer"), r.pointer_of("offer"), parse_cloud_offer);
  refuse_zero_reserved_prices(r.value("offer"), r.file(), r.pointer_of("offer"));
  c.gpu = resolve_gpu(resolver, r, c.offer.gpu_model, r.pointer_of("offer"));
  c.price_change_per_year = r.number_or("price_change_per_year", 0.0, Bounds::between(-0.9, 2.0));
  if (r.has("price_schedule")) {
    JsonObjectReader pr = r.object("price_schedule");
    c.price_schedules = parse_price_schedules(pr, c.offer, start);
  }
  r.allow("price_schedule");
  if (r.has("price_process")) {
    JsonObjectReader pr = r.object("price_process");
    c.price_processes = parse_price_processes(pr, c.offer.spot_usd_per_hour.has_value(), c.offer.provenance.id);
  }
  r.allow("price_process");
  c.spot_overhead_factor = r.number_or("spot_overhead_factor", 1.0, Bounds::between(1.0, 10.0));
  c.packing_efficiency = r.number_or("packing_efficiency", 1.0, Bounds{0.0, 1.0, true});
  c.egress_gb_per_gpu_hour = r.number_or("egress_gb_per_gpu_hour", 0.0, limits::kEgressGbPerGpuHour);
  c.egress_usd_per_gb = r.number_or("egress_usd_per_gb", c.offer.egress_usd_per_gb, limits::kUsdPerGb);
  c.hidden_costs = c.offer.hidden_costs;
  if (r.has("hidden_costs")) {
    JsonObjectReader hr = r.object("hidden_costs");
    c.hidden_costs = parse_hidden_costs(hr, c.offer.hidden_costs);
  }
  r.allow("hidden_costs");
  if (r.has("spot")) {
    JsonObjectReader sr = r.object("spot");
    c.spot = parse_spot(sr, c.offer, dir);
  } else {
    c.spot.preemptions_per_instance_hour = c.offer.spot_preemptions_per_instance_hour.value_or(0.0);
  }
  r.allow("spot");
  r.finish();
  return c;
}

Json to_json(const SpotSpec& s) {
  return {{"availability", s.availability},
          {"retry_h", s.retry_h},
          {"max_tries", s.max_tries},
          {"policy", s.policy},
          {"fallback_to_on_demand", s.fallback_to_on_demand},
          {"restart_h", s.restart_h},
          {"checkpoint_write_h", s.checkpoint_write_h},
          {"emergency_checkpoint", s.emergency_checkpoint},
          {"preemptions_per_instance_hour", s.preemptions_per_instance_hour},
          {"price_sigma", s.price_sigma},
          {"trace_file", s.trace_file.empty() ? Json(nullptr) : Json(s.trace_file)}};
}

Json to_json(const CloudSpec& c) {
  Json out = {{"offer", to_json(c.offer)},
          {"spot", to_json(c.spot)},
          {"gpu", to_json(c.gpu)},
          {"price_change_per_year", c.price_change_per_year},
          {"spot_overhead_factor", c.spot_overhead_factor},
          {"packing_efficiency", c.packing_efficiency},
          {"egress_gb_per_gpu_hour", c.egress_gb_per_gpu_hour},
          {"egress_usd_per_gb", c.egress_usd_per_gb}};
  if (c.hidden_costs.any()) out["hidden_costs"] = to_json(c.hidden_costs);
  // Only a scenario that opts in echoes a schedule, so every other report keeps its bytes.
  if (c.price_schedules.any()) {
    Json schedules = Json::object();
    if (c.price_schedules.on_demand) schedules["on_demand"] = c.price_schedules.on_demand->as_written;
    if (c.price_schedules.spot) schedules["spot"] = c.price_schedules.spot->as_written;
    if (c.price_schedules.reserved) schedules["reserved"] = c.price_schedules.reserved->as_written;
    out["price_schedule"] = schedules;
  }
  if (c.price_processes.any()) {
    Json processes = Json::object();
    if (c.price_processes.on_demand) processes["on_demand"] = c.price_processes.on_demand->as_written;
    if (c.price_processes.spot) processes["spot"] = c.price_processes.spot->as_written;
    out["price_process"] = processes;
  }
  return out;
}

}  // namespace tco
