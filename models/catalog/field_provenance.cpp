#include "models/catalog/field_provenance.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/calendar.hpp"
#include "core/error.hpp"

namespace tco {

const std::vector<std::string>& figure_fields(std::string_view kind) {
  static const std::map<std::string, std::vector<std::string>, std::less<>> fields = {
      {"cloud_offer",
       {"gpus_per_instance", "on_demand_usd_per_hour", "spot_usd_per_hour", "reserved_1y_usd_per_hour",
        "reserved_3y_usd_per_hour", "reserved_usd_per_hour_by_term_months", "capacity_block_usd_per_hour", "billing_granularity_s", "minimum_billed_s",
        "startup_h", "spot_notice_s", "spot_preemptions_per_instance_hour", "egress_usd_per_gb", "pue",
        "g_co2_per_kwh"}},
      {"server", {"gpus", "price_usd", "peak_kw", "idle_kw"}},
      {"gpu", {"perf_relative", "memory_gb", "tdp_w"}},
      {"power_region", {"usd_per_kwh", "g_co2_per_kwh"}},
      {"cooling",
       {"pue", "pue_min", "pue_slope_per_c", "free_cooling_c", "rack_limit_kw", "max_cfm_per_rack", "delta_t_f"}},
      {"colocation", {"usd_per_kw_month", "usd_per_rack_month"}},
  };
  static const std::vector<std::string> none;
  auto it = fields.find(kind);
  return it == fields.end() ? none : it->second;
}

void read_field_provenance(JsonObjectReader& r, Provenance& provenance) {
  const std::vector<std::string>& known = figure_fields(provenance.kind);
  auto carried = [&r](const std::string& field) { return r.has(field) && !r.value(field).is_null(); };
  provenance.figures.clear();
  for (const std::string& field : known) {
    if (!carried(field)) continue;
    provenance.figures.push_back({field, provenance.source, provenance.as_of, false, false});
  }
  if (!r.has("field_provenance")) return;
  const Json& entries = r.value("field_provenance");
  if (entries.is_null()) return;  // an override's null removes the catalog record's entries
  if (!entries.is_object())
    r.fail("field_provenance", "an object {\"<numeric field>\": {\"as_of\": \"YYYY-MM-DD\", \"source\": \"...\"}}",
           &entries);
  const std::string pointer = r.pointer_of("field_provenance");
  for (const auto& [field, entry] : entries.items()) {
    const std::string where = pointer_join(pointer, field);
    if (std::find(known.begin(), known.end(), field) == known.end())
      throw InputError(r.file(), where,
                       fmt::format("unknown field \"{}\" in field_provenance: a {} record's numeric fields are {}",
                                   field, provenance.kind, fmt::join(known, ", ")));
    if (!carried(field))
      throw InputError(r.file(), where,
                       fmt::format("field_provenance dates \"{}\", which this record does not have", field));
    JsonObjectReader e(entry, r.file(), where);
    const std::string& dated = field;  // clang 14 cannot capture a structured binding
    FigureProvenance& figure = *std::find_if(provenance.figures.begin(), provenance.figures.end(),
                                             [&dated](const FigureProvenance& f) { return f.field == dated; });
    if (!e.has("as_of") && !e.has("source"))
      throw InputError(r.file(), where, "expected \"as_of\" and/or \"source\", found neither");
    if (e.has("as_of")) {
      const Json& as_of = e.value("as_of");
      Date date;
      if (!as_of.is_string() || !parse_date(as_of.get<std::string>(), date))
        e.fail("as_of", "a date \"YYYY-MM-DD\" (this figure's own date)", &as_of);
      figure.as_of = as_of.get<std::string>();
      figure.own_as_of = true;
    }
    if (e.has("source")) {
      const Json& source = e.value("source");
      if (!source.is_string() || source.get<std::string>().empty())
        e.fail("source", "a non-empty string (a URL or a citation)", &source);
      figure.source = source.get<std::string>();
      figure.own_source = true;
    }
    e.finish();
  }
}

bool is_price_field(std::string_view field) { return field.find("usd") != std::string_view::npos; }

const FigureProvenance* find_figure(const Provenance& provenance, std::string_view field) {
  for (const FigureProvenance& f : provenance.figures)
    if (f.field == field) return &f;
  return nullptr;
}

}  // namespace tco
