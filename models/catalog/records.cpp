// Strict parsers of catalog records (SPEC §11). Each asks for every field by name with its
// unit and range, rejects keys it does not know, and checks the cross-field rules a single
// bound cannot say: idle_kw <= peak_kw; a cooling record carries exactly the fields of its
// PUE model. Prices may be 0 here (an override may zero a price on purpose); a 0 in the
// shipped catalog is flagged by `tcosim validate` (models/catalog/catalog_validation.hpp).
#include "models/catalog/records.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "models/catalog/field_provenance.hpp"
#include "models/input_limits.hpp"

namespace tco {

namespace {

// Keys that a merged record may carry besides its own fields: "id" (from the catalog record
// it came from).
void allow_common(JsonObjectReader& r) { r.allow("id"); }

std::string non_empty_string(JsonObjectReader& r, std::string_view key) {
  const std::string text = r.string(key);
  if (text.empty()) {
    const Json empty = text;
    r.fail(key, "a non-empty string", &empty);
  }
  return text;
}

int count_at_least_one(JsonObjectReader& r, std::string_view key) {
  return static_cast<int>(r.integer(key, 1, limits::kMaxCount));
}

// What every record parser does around its own fields: "id" allowed, the fields read by
// `read_fields(record)`, then the provenance and the figures' own (field_provenance), then no key
// left unread. The order fixes which error a record with several mistakes reports first.
template <class Record, class ReadFields>
Record parse_record(JsonObjectReader& r, const char* kind, const std::string& id, ReadFields read_fields) {
  allow_common(r);
  Record record;
  read_fields(record);
  record.provenance = parse_provenance(r, kind, id);
  read_field_provenance(r, record.provenance);
  r.finish();
  return record;
}

}  // namespace

Provenance parse_provenance(JsonObjectReader& r, const std::string& kind, const std::string& id) {
  Provenance p;
  p.kind = kind;
  p.id = id;
  p.source = non_empty_string(r, "source");
  const Json& as_of = r.value("as_of");
  Date date;
  if (!as_of.is_string() || !parse_date(as_of.get<std::string>(), date))
    r.fail("as_of", "a date \"YYYY-MM-DD\"", &as_of);
  p.as_of = as_of.get<std::string>();
  return p;
}

// capacity_block_as_of is the field-level date of capacity_block_usd_per_hour: a rate needs one,
// given there or as field_provenance.capacity_block_usd_per_hour.as_of (both only when equal).
static void date_capacity_block(JsonObjectReader& r, CloudOffer& o) {
  FigureProvenance* figure = nullptr;
  for (FigureProvenance& f : o.provenance.figures)
    if (f.field == "capacity_block_usd_per_hour") figure = &f;
  if (!figure) return;  // no rate: the parser refused a capacity_block_as_of already
  const std::string entry_pointer = r.pointer_of("field_provenance") + "/capacity_block_usd_per_hour/as_of";
  if (o.capacity_block_as_of.empty() && !figure->own_as_of)
    r.fail("capacity_block_as_of",
           "a date \"YYYY-MM-DD\" (the capacity-block rate's own date; or field_provenance."
           "capacity_block_usd_per_hour.as_of)", nullptr);
  if (!o.capacity_block_as_of.empty() && figure->own_as_of && figure->as_of != o.capacity_block_as_of)
    throw InputError(r.file(), entry_pointer,
                     fmt::format("expected the capacity_block_as_of date {} (both date the capacity-block rate), "
                                 "found {}: give one of the two", o.capacity_block_as_of, figure->as_of));
  if (o.capacity_block_as_of.empty()) o.capacity_block_as_of = figure->as_of;
  figure->as_of = o.capacity_block_as_of;
  figure->own_as_of = true;
}

// "reserved_usd_per_hour_by_term_months": {"6": 30.4, "24": 25.1}: each key a whole number of months
// (1 to 60, written without a sign or leading zero; 12 and 36 are the 1- and 3-year fields), each
// price above 0 (a term priced at $0 is a missing figure: leave the key out). null: none.
static void read_reserved_terms(JsonObjectReader& r, CloudOffer& o) {
  const char* key = "reserved_usd_per_hour_by_term_months";
  if (!r.has(key) || r.value(key).is_null()) {
    r.allow(key);
    return;
  }
  const Json& terms = r.value(key);
  if (!terms.is_object() || terms.empty())
    r.fail(key, "an object of reserved prices by term in months, e.g. {\"6\": 30.4, \"24\": 25.1}", &terms);
  JsonObjectReader tr = r.object(key);
  for (const auto& item : terms.items()) {
    const std::string& months_text = item.key();
    const bool digits = !months_text.empty() && months_text.size() <= 2 && months_text[0] != '0' &&
                        std::all_of(months_text.begin(), months_text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int months = digits ? std::stoi(months_text) : 0;
    if (months < 1 || months > limits::kMaxCommitmentTermMonths)
      throw InputError(r.file(), tr.pointer_of(months_text),
                       fmt::format("expected a term in whole months, 1 to {}, as the key (\"6\"), found \"{}\"",
                                   limits::kMaxCommitmentTermMonths, months_text));
    if (months == 12 || months == 36)
      throw InputError(r.file(), tr.pointer_of(months_text),
                       fmt::format("expected no {}-month term here: it is reserved_{}y_usd_per_hour", months,
                                   months / 12));
    o.reserved_usd_per_hour_by_term_months[months] =
        tr.number(months_text, Bounds{0.0, limits::kUsdPerInstanceHour.max, true});
  }
  tr.finish();
}

std::optional<double> CloudOffer::reserved_usd_per_hour(int months) const {
  if (months == 12) return reserved_1y_usd_per_hour;
  if (months == 36) return reserved_3y_usd_per_hour;
  const auto it = reserved_usd_per_hour_by_term_months.find(months);
  if (it == reserved_usd_per_hour_by_term_months.end()) return std::nullopt;
  return it->second;
}

CloudOffer parse_cloud_offer(JsonObjectReader& r, const std::string& id) {
  CloudOffer offer = parse_record<CloudOffer>(r, "cloud_offer", id, [&r](CloudOffer& o) {
    o.provider = non_empty_string(r, "provider");
    o.instance_type = non_empty_string(r, "instance_type");
    o.region = non_empty_string(r, "region");
    o.gpu_model = non_empty_string(r, "gpu_model");
    o.gpus_per_instance = count_at_least_one(r, "gpus_per_instance");
    o.on_demand_usd_per_hour = r.number("on_demand_usd_per_hour", limits::kUsdPerInstanceHour);
    o.spot_usd_per_hour = r.optional_number("spot_usd_per_hour", limits::kUsdPerInstanceHour);
    o.reserved_1y_usd_per_hour = r.optional_number("reserved_1y_usd_per_hour", limits::kUsdPerInstanceHour);
    o.reserved_3y_usd_per_hour = r.optional_number("reserved_3y_usd_per_hour", limits::kUsdPerInstanceHour);
    read_reserved_terms(r, o);
    o.capacity_block_usd_per_hour = r.optional_number("capacity_block_usd_per_hour", limits::kUsdPerInstanceHour);
    if (r.has("capacity_block_as_of") && !o.capacity_block_usd_per_hour)
      r.fail("capacity_block_as_of", "no date without a capacity_block_usd_per_hour", &r.value("capacity_block_as_of"));
    if (r.has("capacity_block_as_of")) {
      const Json& block_as_of = r.value("capacity_block_as_of");
      Date block_date;
      if (!block_as_of.is_string() || !parse_date(block_as_of.get<std::string>(), block_date))
        r.fail("capacity_block_as_of", "a date \"YYYY-MM-DD\" (the capacity-block rate's own date)", &block_as_of);
      o.capacity_block_as_of = block_as_of.get<std::string>();
    }
    o.billing_granularity_s = r.number_or("billing_granularity_s", o.billing_granularity_s, limits::kPositiveSeconds);
    o.minimum_billed_s = r.number_or("minimum_billed_s", o.minimum_billed_s, limits::kSeconds);
    o.startup_h = r.number_or("startup_h", o.startup_h, limits::kHours);
    o.spot_notice_s = r.optional_number("spot_notice_s", limits::kSeconds);
    o.spot_preemptions_per_instance_hour =
        r.optional_number("spot_preemptions_per_instance_hour", Bounds::between(0.0, kMaxPreemptionsPerInstanceHour));
    o.egress_usd_per_gb = r.number_or("egress_usd_per_gb", o.egress_usd_per_gb, limits::kUsdPerGb);
    o.pue = r.optional_number("pue", limits::kPue);
    o.g_co2_per_kwh = r.optional_number("g_co2_per_kwh", limits::kGCo2PerKwh);
    if (r.has("hidden_costs")) {
      JsonObjectReader hr = r.object("hidden_costs");
      o.hidden_costs = parse_hidden_costs(hr, HiddenCosts{});
    }
    r.allow("hidden_costs");
  });
  date_capacity_block(r, offer);
  return offer;
}

ServerModel parse_server(JsonObjectReader& r, const std::string& id) {
  return parse_record<ServerModel>(r, "server", id, [&r](ServerModel& s) {
    s.gpu_model = non_empty_string(r, "gpu_model");
    s.gpus = count_at_least_one(r, "gpus");
    s.price_usd = r.number("price_usd", limits::kUsdPerItem);
    s.peak_kw = r.number("peak_kw", limits::kNodeKw);
    s.idle_kw = r.number("idle_kw", limits::kNodeIdleKw);
    if (s.idle_kw > s.peak_kw) {
      throw InputError(r.file(), r.pointer_of("idle_kw"),
                       fmt::format("expected idle_kw <= peak_kw ({} kW), found {} kW", s.peak_kw, s.idle_kw));
    }
  });
}

GpuModel parse_gpu(JsonObjectReader& r, const std::string& id) {
  return parse_record<GpuModel>(r, "gpu", id, [&r](GpuModel& g) {
    g.name = non_empty_string(r, "name");
    g.perf_relative = r.number("perf_relative", limits::kGpuPerfRelative);
    g.memory_gb = r.number("memory_gb", limits::kGpuMemoryGb);
    g.tdp_w = r.number("tdp_w", limits::kGpuTdpW);
  });
}

PowerRegion parse_power_region(JsonObjectReader& r, const std::string& id) {
  return parse_record<PowerRegion>(r, "power_region", id, [&r](PowerRegion& p) {
    p.name = non_empty_string(r, "name");
    p.usd_per_kwh = r.number("usd_per_kwh", limits::kUsdPerKwh);
    p.g_co2_per_kwh = r.number("g_co2_per_kwh", limits::kGCo2PerKwh);
  });
}

CoolingType parse_cooling(JsonObjectReader& r, const std::string& id) {
  return parse_record<CoolingType>(r, "cooling", id, [&r](CoolingType& c) {
    c.type = r.choice_or("type", {"air", "liquid"}, c.type);
    c.pue_model = r.choice_or("pue_model", {"constant", "ambient"}, c.pue_model);
    // Each PUE model reads its own fields; a field of the other model would be silently
    // ignored, so it is an error (an override switching models sets the old ones to null).
    const bool constant = c.pue_model == "constant";
    const std::vector<std::string> ambient_keys = {"pue_min", "pue_slope_per_c", "free_cooling_c"};
    if (constant) {
      c.pue = r.number("pue", limits::kPue);
      for (const auto& key : ambient_keys) {
        if (r.has(key) && !r.value(key).is_null())
          throw InputError(r.file(), r.pointer_of(key),
                           "\"" + key + "\" applies to pue_model \"ambient\" only; this record's pue_model is "
                           "\"constant\" (remove the key, or set it to null in an override)");
      }
    } else {
      c.pue_min = r.number("pue_min", limits::kPue);
      c.pue_slope_per_c = r.number("pue_slope_per_c", limits::kPueSlopePerC);
      c.free_cooling_c = r.number("free_cooling_c", Bounds::between(-50.0, 60.0));
      if (r.has("pue") && !r.value("pue").is_null())
        throw InputError(r.file(), r.pointer_of("pue"),
                         "\"pue\" applies to pue_model \"constant\" only; this record's pue_model is "
                         "\"ambient\" (remove the key, or set it to null in an override)");
    }
    c.rack_limit_kw = r.number("rack_limit_kw", limits::kRackKw);
    c.max_cfm_per_rack = r.optional_number("max_cfm_per_rack", limits::kCfmPerRack);
    c.delta_t_f = r.number_or("delta_t_f", c.delta_t_f, limits::kDeltaTF);
  });
}

Colocation parse_colocation(JsonObjectReader& r, const std::string& id) {
  return parse_record<Colocation>(r, "colocation", id, [&r](Colocation& c) {
    c.name = non_empty_string(r, "name");
    if (!r.has("usd_per_kw_month") && !r.has("usd_per_rack_month"))
      r.fail("usd_per_kw_month", "a price per kW-month and/or \"usd_per_rack_month\"", nullptr);
    c.usd_per_kw_month = r.number_or("usd_per_kw_month", 0.0, limits::kUsdPerKwMonth);
    c.usd_per_rack_month = r.number_or("usd_per_rack_month", 0.0, limits::kUsdPerRackMonth);
  });
}

}  // namespace tco
