#include "models/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/io/integer_fields.hpp"
#include "core/io/input_snapshot.hpp"
#include "core/io/sha256.hpp"
#include "models/catalog/catalog.hpp"
#include "models/site/cooling.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/input_limits.hpp"
#include "models/venues/venue_limit.hpp"
#include "models/next_generation/next_generation.hpp"
#include "models/price_path/implied_forward.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

namespace fs = std::filesystem;

std::string to_string(Plan::Kind kind) {
  switch (kind) {
    case Plan::Kind::cloud: return "cloud";
    case Plan::Kind::onprem: return "onprem";
    case Plan::Kind::hybrid: return "hybrid";
  }
  return "?";
}

double Plan::reserved_usd_per_instance_hour() const {
  if (!cloud || reserved_instances == 0) return 0.0;
  const auto& offer = cloud->offer;
  return reserved_term_years == 3 ? offer.reserved_3y_usd_per_hour.value_or(0.0)
                                  : offer.reserved_1y_usd_per_hour.value_or(0.0);
}

namespace {

// Resolves catalog references and records their provenance once each.
class Resolver {
 public:
  Resolver(const Catalog& catalog, std::string file) : catalog_(catalog), file_(std::move(file)) {}

  template <typename Record, typename Parse>
  Record resolve(std::string_view kind, const Json& ref, const std::string& pointer, Parse parse) {
    ResolvedRecord resolved = resolve_reference(catalog_, kind, ref, file_, pointer);
    require_finite_numbers(resolved.merged, file_, pointer);
    // Messages point into the scenario for inline and overridden fields, and into the catalog
    // file for a catalog record's own fields (with the scenario's pointer in the message).
    JsonObjectReader r(resolved.merged, file_, pointer);
    Record record = [&] {
      try {
        return parse(r, resolved.id);
      } catch (const InputError& e) {
        throw blame_catalog_record(e, kind, resolved.id, pointer);
      }
    }();
    used_[std::string(kind) + "\x1f" + record.provenance.id + "\x1f" + record.provenance.source] =
        record.provenance;
    return record;
  }

  const Catalog& catalog() const { return catalog_; }

 private:
  // A catalog record that is invalid on its own is the catalog's mistake: the error names the
  // catalog file and /records/N/field, and the scenario pointer that uses the record. Otherwise
  // the scenario's overrides made it invalid, and the error stays the scenario's.
  InputError blame_catalog_record(const InputError& e, std::string_view kind, const std::string& id,
                                  const std::string& pointer) const {
    const CatalogRecord* record = id.empty() ? nullptr : catalog_.find(kind, id);
    if (!record) return e;
    try {
      check_record(kind, record->fields, record->file, record->pointer, id);
    } catch (const InputError& own) {
      return InputError(own.file(), own.where(),
                        own.message() + fmt::format(" (catalog record \"{}\", used by {} at {})", id, file_, pointer));
    }
    return e;
  }

 public:

  std::vector<Provenance> used() const {
    std::vector<Provenance> out;
    for (const auto& [key, p] : used_) out.push_back(p);
    return out;
  }

 private:
  const Catalog& catalog_;
  std::string file_;
  std::map<std::string, Provenance> used_;
};

Json provenance_json(const Provenance& p) {
  return {{"kind", p.kind}, {"id", p.id}, {"source", p.source}, {"as_of", p.as_of}};
}

Json to_json(const CloudOffer& o) {
  auto opt = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  Json out = {{"provider", o.provider},
          {"instance_type", o.instance_type},
          {"region", o.region},
          {"gpu_model", o.gpu_model},
          {"gpus_per_instance", o.gpus_per_instance},
          {"on_demand_usd_per_hour", o.on_demand_usd_per_hour},
          {"spot_usd_per_hour", opt(o.spot_usd_per_hour)},
          {"reserved_1y_usd_per_hour", opt(o.reserved_1y_usd_per_hour)},
          {"reserved_3y_usd_per_hour", opt(o.reserved_3y_usd_per_hour)},
          {"billing_granularity_s", o.billing_granularity_s},
          {"minimum_billed_s", o.minimum_billed_s},
          {"startup_h", o.startup_h},
          {"spot_notice_s", opt(o.spot_notice_s)},
          {"spot_preemptions_per_instance_hour", opt(o.spot_preemptions_per_instance_hour)},
          {"egress_usd_per_gb", o.egress_usd_per_gb},
          {"pue", opt(o.pue)},
          {"g_co2_per_kwh", opt(o.g_co2_per_kwh)},
          {"provenance", provenance_json(o.provenance)}};
  // Only for an offer with a capacity-block rate, so the other offers' echo keeps its bytes.
  if (o.capacity_block_usd_per_hour) {
    out["capacity_block_usd_per_hour"] = *o.capacity_block_usd_per_hour;
    out["capacity_block_as_of"] = o.capacity_block_as_of;
  }
  return out;
}

Json to_json(const GpuModel& g) {
  return {{"name", g.name}, {"perf_relative", g.perf_relative}, {"memory_gb", g.memory_gb},
          {"tdp_w", g.tdp_w}, {"provenance", provenance_json(g.provenance)}};
}

Json to_json(const ServerModel& s) {
  return {{"gpu_model", s.gpu_model}, {"gpus", s.gpus},       {"price_usd", s.price_usd},
          {"idle_kw", s.idle_kw},     {"peak_kw", s.peak_kw}, {"provenance", provenance_json(s.provenance)}};
}

// The to_json functions echo each record field by field into the report's inputs (alike in shape only).
Json to_json(const CoolingType& c) {
  return {{"type", c.type},
          {"pue_model", c.pue_model},
          {"pue", c.pue},
          {"pue_min", c.pue_min},
          {"pue_slope_per_c", c.pue_slope_per_c},
          {"free_cooling_c", c.free_cooling_c},
          {"rack_limit_kw", c.rack_limit_kw},
          {"max_cfm_per_rack", c.max_cfm_per_rack ? Json(*c.max_cfm_per_rack) : Json(nullptr)},
          {"delta_t_f", c.delta_t_f},
          {"provenance", provenance_json(c.provenance)}};
}

Json to_json(const Colocation& c) {
  return {{"name", c.name}, {"usd_per_kw_month", c.usd_per_kw_month},
          {"usd_per_rack_month", c.usd_per_rack_month}, {"provenance", provenance_json(c.provenance)}};
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

// follows_cloud_price only when on, so other reports keep their bytes.
Json residual_json(const OnPremSpec& o) {
  Json out = {{"enabled", o.residual_enabled}, {"resale_decline_per_year", o.resale_decline_per_year}};
  if (o.resale_follows_cloud_price) out["follows_cloud_price"] = true;
  return out;
}

Json to_json(const OnPremSpec& o) {
  Json financing;
  switch (o.financing.kind) {
    case Financing::Kind::cash: financing = {{"type", "cash"}}; break;
    case Financing::Kind::loan:
      financing = {{"type", "loan"}, {"apr", o.financing.apr}, {"term_months", o.financing.term_months},
                   {"down_payment_fraction", o.financing.down_payment_fraction}};
      break;
    case Financing::Kind::lease:
      financing = {{"type", "lease"}, {"usd_per_node_month", o.financing.lease_usd_per_node_month},
                   {"maintenance_included", o.financing.maintenance_included}};
      break;
  }
  // The book method and the tax view appear only when a scenario opts in, so that the echo of
  // every other scenario stays as it was.
  Json depreciation = {{"life_years", o.life_years}, {"salvage_fraction", o.salvage_fraction}};
  if (o.book_method == BookMethod::double_declining_balance) depreciation["method"] = "double_declining_balance";
  if (o.tax_depreciation) {
    depreciation["tax"] = {{"macrs_class_years", o.tax_depreciation->macrs_class_years},
                           {"convention", macrs_convention_name(o.tax_depreciation->convention)},
                           {"bonus_fraction", o.tax_depreciation->bonus_fraction},
                           {"section_179_usd", o.tax_depreciation->section_179_usd}};
  }
  Json out = {{"server", to_json(o.server)},
          {"gpu", to_json(o.gpu)},
          {"network_usd_per_node", o.network_usd_per_node},
          {"storage_usd_per_node", o.storage_usd_per_node},
          {"install_usd_per_node", o.install_usd_per_node},
          {"room_capex_usd", o.room_capex_usd},
          {"purchase_month", o.purchase_month},
          {"maintenance_per_year", o.maintenance_per_year},
          {"packing_efficiency", o.packing_efficiency},
          {"financing", financing},
          {"depreciation", depreciation},
          {"residual", residual_json(o)},
          {"tax", {{"rate", o.tax_rate}, {"shield_enabled", o.tax_shield_enabled}}},
          {"staff", {{"fixed_fte", o.staff.fixed_fte}, {"fte_per_node", o.staff.fte_per_node},
                     {"usd_per_fte_year", o.staff.usd_per_fte_year},
                     {"escalation_per_year", o.staff.escalation_per_year}}},
          {"failures", {{"afr_per_year", o.failures.afr_per_year},
                        {"afr_growth_per_year", o.failures.afr_growth_per_year},
                        {"repair_h", o.failures.repair_h}}},
          {"power", to_json(o.power)},
          {"cooling", to_json(o.cooling)},
          {"ambient", o.ambient ? to_json(*o.ambient) : Json(nullptr)},
          {"colocation", o.colocation ? to_json(*o.colocation) : Json(nullptr)}};
  // Procurement and the site's capacity appear only when a scenario opts in (the echo of every
  // other scenario stays as it was).
  if (o.spares) out["spares"] = to_json(*o.spares);
  if (o.procurement) {
    const ProcurementSpec& p = *o.procurement;
    Json slip = p.slip_fixed_months;
    if (p.slip_drawn && p.slip.type == UncertainDistribution::Type::triangular)
      slip = {{"type", "triangular"}, {"low_months", p.slip.low}, {"mode_months", p.slip.mode}, {"high_months", p.slip.high}};
    else if (p.slip_drawn)
      slip = {{"type", "lognormal"}, {"median_months", p.slip.median}, {"sigma", p.slip.sigma}};
    out["procurement"] = {{"order_month", p.order_month}, {"deposit_share", p.deposit_share}, {"delivery_slip_months", slip}};
  }
  if (o.carbon != CarbonSpec{}) {
    out["carbon"] = {{"embodied_kg_co2_per_server", o.carbon.embodied_kg_co2_per_server},
                     {"usd_per_tonne", o.carbon.usd_per_tonne}};
  }
  if (o.site.power_cap_mw || o.site.energized_month > 0) {
    out["site"] = {{"power_cap_mw", o.site.power_cap_mw ? Json(*o.site.power_cap_mw) : Json(nullptr)},
                   {"energized_month", o.site.energized_month}};
  }
  return out;
}

// The GPU record of a server or an offer: an explicit "gpu" reference, else the catalog's
// record for the named model.
GpuModel resolve_gpu(Resolver& resolver, JsonObjectReader& r, const std::string& gpu_model_id,
                     const std::string& owner_pointer) {
  if (r.has("gpu")) return resolver.resolve<GpuModel>("gpu", r.value("gpu"), r.pointer_of("gpu"), parse_gpu);
  r.allow("gpu");
  if (!resolver.catalog().find("gpu", gpu_model_id)) {
    throw InputError(r.file(), owner_pointer + "/gpu_model",
                     "expected the id of a gpu record in the catalog (or a \"gpu\" object beside it), found \"" +
                         gpu_model_id + "\"");
  }
  return resolver.resolve<GpuModel>("gpu", Json(gpu_model_id), owner_pointer + "/gpu_model", parse_gpu);
}

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

CloudPriceSchedules parse_price_schedules(JsonObjectReader& r, const CloudOffer& offer, const Date& start) {
  CloudPriceSchedules out;
  const double gpus = offer.gpus_per_instance;
  if (r.has("on_demand")) {
    JsonObjectReader kr = r.object("on_demand");
    out.on_demand = parse_price_schedule(kr, start, offer.on_demand_usd_per_hour / gpus);
  }
  if (r.has("spot")) {
    JsonObjectReader kr = r.object("spot");
    if (!offer.spot_usd_per_hour)
      throw InputError(r.file(), r.pointer_of("spot"), "expected no spot schedule: the offer \"" + offer.provenance.id +
                                                           "\" has no spot price");
    out.spot = parse_price_schedule(kr, start, *offer.spot_usd_per_hour / gpus);
  }
  if (r.has("reserved")) {
    JsonObjectReader kr = r.object("reserved");
    out.reserved = parse_price_schedule(kr, start, std::nullopt);
  }
  r.finish();
  return out;
}

// A reserved term priced at 0 is a missing figure typed as a price (a catalog file's is the
// validator's zero-price error). An inline offer or an override that writes one is refused here,
// naming its pointer, so that `validate` and `run` refuse it alike and no implied forward
// divides by it. A catalog record's own 0 is the catalog's error (require_valid_catalog).
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

CloudSpec parse_cloud(JsonObjectReader& r, Resolver& resolver, const std::string& dir, const Date& start) {
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

Financing parse_financing(JsonObjectReader& r) {
  Financing f;
  const std::string type = r.choice("type", {"cash", "loan", "lease"});
  if (type == "loan") {
    f.kind = Financing::Kind::loan;
    f.apr = r.number("apr", Bounds::between(0.0, 1.0));
    f.term_months = static_cast<int>(r.integer("term_months", 1, 600));
    f.down_payment_fraction = r.number_or("down_payment_fraction", 0.0, Bounds::fraction());
  } else if (type == "lease") {
    f.kind = Financing::Kind::lease;
    f.lease_usd_per_node_month = r.number("usd_per_node_month", limits::kUsdPerNodeMonth);
    f.maintenance_included = r.boolean_or("maintenance_included", false);
  }
  r.finish();
  return f;
}

// An hourly series must give every hour the model reads: the horizon's, and the utilization
// breakeven's, which prices one node over its whole life from hour 0 (engine/ledger/breakeven.cpp).
void require_series_hours(const HourlySeries& series, const OnPremSpec& o, int horizon_months,
                          const std::string& file, const std::string& pointer, const char* repeat_key) {
  const long life_months = std::lround(o.life_years * 12.0);
  const long months = std::max<long>(horizon_months, life_months);
  series.require_hours(months * kHoursPerMonth,
                       fmt::format("read by {} {}: {} months of 730 h, the longer of the {}-month horizon and the "
                                   "utilization breakeven's {}-year server life",
                                   file, pointer, months, horizon_months, o.life_years),
                       repeat_key);
}

TaxDepreciationSpec parse_tax_depreciation(JsonObjectReader& r) {
  TaxDepreciationSpec t;
  t.macrs_class_years = static_cast<int>(r.integer("macrs_class_years", 3, 7));
  if (macrs_half_year_percent(t.macrs_class_years).empty())
    r.fail("macrs_class_years", "3, 5 or 7 (the MACRS classes of IRS Publication 946, Table A-1)",
           &r.value("macrs_class_years"));
  t.convention = r.choice_or("convention", {"half_year", "mid_quarter"}, "half_year") == "mid_quarter"
                     ? MacrsConvention::mid_quarter
                     : MacrsConvention::half_year;
  t.bonus_fraction = r.number_or("bonus_fraction", 0.0, Bounds::fraction());
  t.section_179_usd = r.number_or("section_179_usd", 0.0, limits::kUsdPerSite);
  r.finish();
  return t;
}

OnPremSpec parse_onprem(JsonObjectReader& r, Resolver& resolver, int horizon_months, const std::string& dir) {
  OnPremSpec o;
  o.server = resolver.resolve<ServerModel>("server", r.value("server"), r.pointer_of("server"), parse_server);
  o.gpu = resolve_gpu(resolver, r, o.server.gpu_model, r.pointer_of("server"));
  o.network_usd_per_node = r.number_or("network_usd_per_node", 0.0, limits::kUsdPerItem);
  o.storage_usd_per_node = r.number_or("storage_usd_per_node", 0.0, limits::kUsdPerItem);
  o.install_usd_per_node = r.number_or("install_usd_per_node", 0.0, limits::kUsdPerItem);
  o.room_capex_usd = r.number_or("room_capex_usd", 0.0, limits::kUsdPerSite);
  o.packing_efficiency = r.number_or("packing_efficiency", 1.0, Bounds{0.0, 1.0, true});
  o.purchase_month = static_cast<int>(r.integer_or("purchase_month", 0, 0, horizon_months - 1));
  o.maintenance_per_year = r.number_or("maintenance_per_year", 0.0, Bounds::between(0.0, 1.0));
  if (r.has("financing")) {
    JsonObjectReader fr = r.object("financing");
    o.financing = parse_financing(fr);
  }
  r.allow("financing");
  if (r.has("procurement")) {
    JsonObjectReader pr = r.object("procurement");
    if (o.financing.kind == Financing::Kind::lease)
      throw InputError(r.file(), pr.pointer(),
                       "expected no procurement for a leased fleet (a lease has no deposit and no capex at "
                       "delivery): remove \"procurement\" or finance the fleet with cash or a loan");
    o.procurement = parse_procurement(pr, o.purchase_month);
  }
  r.allow("procurement");
  if (r.has("site")) {
    JsonObjectReader sr = r.object("site");
    o.site.power_cap_mw = sr.optional_number("power_cap_mw", limits::kSiteMw);
    o.site.energized_month = static_cast<int>(sr.integer_or("energized_month", 0, 0, horizon_months - 1));
    sr.finish();
  }
  r.allow("site");
  if (r.has("carbon")) {
    JsonObjectReader cr = r.object("carbon");
    o.carbon.embodied_kg_co2_per_server = cr.number_or("embodied_kg_co2_per_server", 0.0, limits::kKgCo2PerServer);
    o.carbon.usd_per_tonne = cr.number_or("usd_per_tonne", 0.0, limits::kUsdPerTonne);
    cr.finish();
  }
  r.allow("carbon");
  if (r.has("depreciation")) {
    JsonObjectReader dr = r.object("depreciation");
    o.life_years = dr.number_or("life_years", o.life_years, Bounds::between(0.5, 30.0));
    o.salvage_fraction = dr.number_or("salvage_fraction", 0.0, Bounds::fraction());
    o.book_method = dr.choice_or("method", {"straight_line", "double_declining_balance"}, "straight_line") ==
                            "double_declining_balance"
                        ? BookMethod::double_declining_balance
                        : BookMethod::straight_line;
    if (dr.has("tax")) {
      JsonObjectReader tr = dr.object("tax");
      o.tax_depreciation = parse_tax_depreciation(tr);
    }
    dr.allow("tax");
    dr.finish();
  }
  r.allow("depreciation");
  if (r.has("residual")) {
    JsonObjectReader rr = r.object("residual");
    o.residual_enabled = rr.boolean_or("enabled", true);
    o.resale_decline_per_year = rr.number_or("resale_decline_per_year", o.resale_decline_per_year, Bounds::fraction());
    o.resale_follows_cloud_price = rr.boolean_or("follows_cloud_price", false);
    rr.finish();
  }
  r.allow("residual");
  if (r.has("tax")) {
    JsonObjectReader tr = r.object("tax");
    o.tax_rate = tr.number_or("rate", 0.0, Bounds::fraction());
    o.tax_shield_enabled = tr.boolean_or("shield_enabled", false);
    tr.finish();
  }
  r.allow("tax");
  if (r.has("staff")) {
    JsonObjectReader sr = r.object("staff");
    o.staff.fixed_fte = sr.number_or("fixed_fte", 0.0, limits::kFte);
    o.staff.fte_per_node = sr.number_or("fte_per_node", 0.0, limits::kFtePerNode);
    o.staff.usd_per_fte_year = sr.number_or("usd_per_fte_year", 0.0, limits::kUsdPerFteYear);
    o.staff.escalation_per_year = sr.number_or("escalation_per_year", 0.0, limits::kEscalationPerYear);
    sr.finish();
  }
  r.allow("staff");
  if (r.has("failures")) {
    JsonObjectReader fr = r.object("failures");
    o.failures.afr_per_year = fr.number_or("afr_per_year", 0.0, Bounds::between(0.0, 10.0));
    o.failures.afr_growth_per_year = fr.number_or("afr_growth_per_year", 0.0, Bounds::between(0.0, 10.0));
    o.failures.repair_h = fr.number_or("repair_h", o.failures.repair_h, limits::kPositiveHours);
    fr.finish();
  }
  r.allow("failures");
  if (r.has("spares")) {
    JsonObjectReader sr = r.object("spares");
    o.spares = parse_spares(sr);
  }
  r.allow("spares");
  {
    JsonObjectReader pr = r.object("power");
    std::optional<PowerRegion> region;
    if (pr.has("region"))
      region = resolver.resolve<PowerRegion>("power_region", pr.value("region"), pr.pointer_of("region"), parse_power_region);
    pr.allow("region");
    o.power = parse_power(pr, region ? &region->usd_per_kwh : nullptr, region ? &region->g_co2_per_kwh : nullptr, dir);
    pr.finish();
    if (o.power.tariff.series) require_series_hours(*o.power.tariff.series, o, horizon_months, r.file(), pr.pointer_of("tariff"), "repeat");
    if (o.power.g_co2_series)
      require_series_hours(*o.power.g_co2_series, o, horizon_months, r.file(), pr.pointer_of("g_co2_per_kwh_series"),
                           "repeat");
  }
  o.cooling = resolver.resolve<CoolingType>("cooling", r.value("cooling"), r.pointer_of("cooling"), parse_cooling);
  if (r.has("ambient")) {
    JsonObjectReader ar = r.object("ambient");
    o.ambient = parse_ambient(ar, dir);
    if (o.ambient->series) require_series_hours(*o.ambient->series, o, horizon_months, r.file(), ar.pointer(), "series_repeat");
  }
  r.allow("ambient");
  if (o.cooling.pue_model == "ambient" && !o.ambient)
    r.fail("ambient", "an ambient temperature model (the cooling's PUE depends on ambient temperature)", nullptr);
  if (o.ambient && o.ambient->throttle_above_c && o.ambient->throttle_fraction == 0.0)
    throw InputError(r.file(), r.pointer_of("ambient") + "/throttle_fraction",
                     "expected a throttle_fraction > 0 with throttle_above_c, found 0");
  if (r.has("colocation"))
    o.colocation = resolver.resolve<Colocation>("colocation", r.value("colocation"), r.pointer_of("colocation"), parse_colocation);
  r.allow("colocation");
  r.finish();
  return o;
}

std::string file_digest(const std::string& path) { return sha256_hex(read_input_file(path).value_or(std::string())); }

void warn(Scenario& s, std::string code, std::string where, std::string message) {
  s.warnings.push_back({Finding::Severity::warning, std::move(code), s.file, std::move(where), std::move(message)});
}

// A cloud offer's capacity-block rate is used only by a plan that books a block at it; the
// offer's other figures are used by every plan that names the offer (its prices by the plans,
// the breakevens and the implied forward).
void drop_unused_figures(Scenario& s) {
  auto block_used = [&s](const std::string& offer_id) {
    for (const Plan& plan : s.plans) {
      if (!plan.cloud || plan.cloud->offer.provenance.id != offer_id) continue;
      const auto& rate = plan.cloud->offer.capacity_block_usd_per_hour;
      for (const Commitment& c : plan.commitments)
        if (c.kind == Commitment::Kind::capacity_block && rate && c.usd_per_instance_hour == *rate) return true;
    }
    return false;
  };
  for (Provenance& p : s.records_used) {
    if (p.kind != "cloud_offer" || block_used(p.id)) continue;
    p.figures.erase(std::remove_if(p.figures.begin(), p.figures.end(),
                                   [](const FigureProvenance& f) { return f.field == "capacity_block_usd_per_hour"; }),
                    p.figures.end());
  }
}

void add_provenance_warnings(Scenario& s) {
  for (const auto& p : s.records_used) {
    Date as_of;
    if (!parse_date(p.as_of, as_of)) continue;
    const long age_days = days_between(as_of, s.start);
    if (age_days > 365) {
      warn(s, "catalog-stale", p.kind + ":" + p.id,
           fmt::format("{} \"{}\" is dated {}, {} days before the scenario start: check the price is still current",
                       p.kind, p.id, p.as_of, age_days));
    }
  }
}

void add_plan_warnings(Scenario& s, const Plan& plan, const std::string& pointer) {
  if (plan.cloud) {
    const auto& o = plan.cloud->offer;
    if (o.spot_usd_per_hour && *o.spot_usd_per_hour > o.on_demand_usd_per_hour)
      warn(s, "spot-above-on-demand", pointer + "/cloud",
           fmt::format("the spot price {} is above the on-demand price {} USD/h", *o.spot_usd_per_hour,
                       o.on_demand_usd_per_hour));
    if (plan.reserved_instances > 0 && plan.reserved_term_years * 12 > s.horizon_months)
      warn(s, "reserved-term-beyond-horizon", pointer + "/reserved_term_years",
           fmt::format("the {}-year commitment runs past the {}-month horizon; only the months inside the "
                       "horizon are counted",
                       plan.reserved_term_years, s.horizon_months));
  }
}

// One warning per offer whose 1-year / 3-year pair implies a forward of zero or less, at the
// first plan that uses it.
void add_implied_forward_warnings(Scenario& s) {
  std::set<std::string> warned;
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    if (!s.plans[i].cloud) continue;
    const CloudOffer& o = s.plans[i].cloud->offer;
    if (!has_implied_forward(o.reserved_1y_usd_per_hour, o.reserved_3y_usd_per_hour)) continue;
    const double forward =
        implied_forward_usd_per_hour(*o.reserved_1y_usd_per_hour, *o.reserved_3y_usd_per_hour, s.discount_rate_per_year);
    if (forward > 0.0 || !warned.insert(o.provenance.id).second) continue;
    warn(s, "implied-forward-not-positive", "/plans/" + std::to_string(i) + "/cloud",
         fmt::format("offer \"{}\": its 3-year reserved price {} and 1-year price {} USD/h imply a forward price "
                     "of {:.4f} USD/h for years 2-3 at the {:.1f}% discount rate (docs/model.md §4 \"Implied "
                     "forward price\"): no seller prices a term below nothing, so one of the two figures is "
                     "likely wrong (a 3-year price per year of the term, or a per-GPU figure?)",
                     o.provenance.id, *o.reserved_3y_usd_per_hour, *o.reserved_1y_usd_per_hour, forward,
                     100.0 * s.discount_rate_per_year));
  }
}

// A plan's section is the scenario's section with the plan's patch applied. An error in it
// points into the plan when the plan wrote that field, else into the scenario's own section.
InputError attribute_section_error(const InputError& e, const std::string& plan_section, const std::string& base_section,
                                   const Json& patch) {
  if (e.where().rfind(plan_section, 0) != 0) return e;
  const std::string suffix = e.where().substr(plan_section.size());
  const std::string field = suffix.substr(0, suffix.find(' '));
  bool in_patch = false;
  if (patch.is_object() && !field.empty()) {
    try {
      in_patch = patch.contains(Json::json_pointer(field));
    } catch (const Json::exception&) {
      in_patch = false;
    }
  }
  if (in_patch || field.empty()) return e;
  return InputError(e.file(), base_section + suffix, e.message());
}

// The site feeds the plan's IT load from its energization on (models/site/site_capacity.hpp). The
// earliest delivery is the planned one less what a drawn slip can take off (a triangular's low,
// a lognormal's zero).
void check_site_capacity(const OnPremSpec& o, const Plan& p, const std::string& onprem_pointer, const std::string& file) {
  const SiteCapacity& site = o.site;
  const int installed = owned_nodes(p);  // hot spares are racked and powered too
  const double it_kw = installed * o.server.peak_kw;
  if (site.power_cap_mw && it_kw > *site.power_cap_mw * 1000.0)
    throw InputError(file, onprem_pointer + "/site/power_cap_mw",
                     fmt::format("plan \"{}\" installs {} nodes x {} kW = {:.1f} kW of IT load; the site feeds "
                                 "{} MW = {:.1f} kW: at most {} nodes fit (fewer nodes, or a larger site)",
                                 p.name, installed, o.server.peak_kw, it_kw, *site.power_cap_mw,
                                 *site.power_cap_mw * 1000.0,
                                 static_cast<long>(std::floor(*site.power_cap_mw * 1000.0 / o.server.peak_kw))));
  if (p.onprem_nodes == 0) return;
  int earliest = o.purchase_month;
  if (o.procurement && !o.procurement->slip_drawn) earliest = o.planned_delivery_month();
  if (o.delivery_drawn() && o.procurement->slip.type == UncertainDistribution::Type::triangular)
    earliest += whole_slip_months(o.procurement->slip.low);
  if (earliest < site.energized_month)
    throw InputError(file, onprem_pointer + "/purchase_month",
                     fmt::format("plan \"{}\" has its hardware delivered as early as month {}, before the site is "
                                 "energized in month {}: move purchase_month (or the site's energized_month)",
                                 p.name, earliest, site.energized_month));
}

// The discrete-event replay moves a refreshing plan's jobs to the successor fleet at the cutover
// (engine/des/simulator.cpp), runs jobs on take-or-pay contracts and capacity blocks
// (engine/des/committed_pool.hpp) and applies a savings plan's dollars to its on-demand hours
// (engine/des/savings_plan_meter.hpp; docs/des.md). Time shifting plans its holds on one fleet.
void check_replay_plans(const Scenario& s) {
  if (!s.jobs) return;
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    if (s.plans[i].refresh && s.plans[i].scheduling.time_shift)
      throw InputError(s.file, "/plans/" + std::to_string(i) + "/refresh",
                       fmt::format("plan \"{}\" shifts time and refreshes its fleet: not modelled together yet (the "
                                   "shift is planned on one fleet); remove one of the two",
                                   s.plans[i].name));
    const std::vector<Commitment>& commitments = s.plans[i].commitments;
    // Without a trace every job class is a generator's: a commitment kept for another would
    // stay idle, paid for nothing (a typo, or the generator's default class misremembered).
    std::vector<std::string> classes;
    for (const auto& g : s.jobs->poisson) classes.push_back(g.traits.job_class);
    for (const auto& g : s.jobs->campaigns) classes.push_back(g.traits.job_class);
    for (const auto& g : s.jobs->steady) classes.push_back(g.traits.job_class);
    for (std::size_t k = 0; k < commitments.size(); ++k)
      if (s.jobs->trace_file.empty() && !commitments[k].job_class.empty() &&
          std::find(classes.begin(), classes.end(), commitments[k].job_class) == classes.end())
        throw InputError(s.file, "/plans/" + std::to_string(i) + "/commitments/" + std::to_string(k) + "/job_class",
                         fmt::format("expected the class of some job (the jobs' classes: {}), found \"{}\": the "
                                     "commitment would run nothing",
                                     fmt::join(classes, ", "), commitments[k].job_class));
  }
}

// Time shifting in the hourly model (engine/ledger/hourly_time_shift.hpp) moves the workload's
// deferrable share on one fleet, planned once: a plan that shifts needs that share, and does not
// refresh (its fleet would change under the plan, at a month that moves per path).
void check_hourly_time_shifts(const Scenario& s) {
  if (s.jobs) return;
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    const Plan& p = s.plans[i];
    if (!p.scheduling.time_shift) continue;
    const std::string pointer = "/plans/" + std::to_string(i);
    if (!s.workload.deferrable)
      throw InputError(s.file, pointer + "/scheduling/time_shift",
                       fmt::format("plan \"{}\" shifts time, but the workload says no work may wait: give "
                                   "workload.deferrable {{\"share\", \"max_delay_h\"}} (the share of each hour's "
                                   "demand that may run up to max_delay_h hours later)",
                                   p.name));
    if (p.refresh)
      throw InputError(s.file, pointer + "/refresh",
                       fmt::format("plan \"{}\" shifts time and refreshes its fleet: not modelled together yet (the "
                                   "shift is planned on one fleet); remove one of the two",
                                   p.name));
  }
}

// What the hourly fluid model's paths (`run --paths` without jobs, `uncertain`, sweeps) cannot do:
// draw a delivery slip per path (docs/model.md "Procurement"), or keep a carbon price out of the
// monthly power price shocks (docs/model.md "Carbon").
void check_drawn_deliveries(const Scenario& s, const Json& plans) {
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    const Plan& p = s.plans[i];
    const bool hourly_paths = !s.jobs || s.uncertain;
    if (p.onprem && p.onprem_nodes > 0 && hourly_paths && p.onprem->carbon.usd_per_tonne > 0.0 &&
        p.onprem->power.monthly_price_sigma > 0.0)
      throw InputError(s.file, "/onprem/carbon/usd_per_tonne",
                       fmt::format("plan \"{}\" prices its CO2 and draws monthly power price shocks; the hourly "
                                   "model's paths would shock the carbon price too: use one of the two, or a \"jobs\" "
                                   "section (the discrete-event Monte Carlo)",
                                   p.name));
    if (!p.onprem || !p.onprem->delivery_drawn() || !hourly_paths) continue;
    const Json& plan_json = plans[i];
    const bool in_plan = plan_json.contains("onprem") && plan_json["onprem"].is_object() &&
                         plan_json["onprem"].contains("procurement");
    const std::string where = (in_plan ? "/plans/" + std::to_string(i) : std::string()) +
                              "/onprem/procurement/delivery_slip_months";
    throw InputError(s.file, where,
                     fmt::format("plan \"{}\" draws its delivery slip per path, which only the discrete-event Monte "
                                 "Carlo does: the scenario needs a \"jobs\" section{}; or give a fixed slip in months",
                                 p.name, s.uncertain ? " and no \"uncertain\" section (evaluated with the hourly model)" : ""));
  }
}

// A plan's "venues" (models/venues/cloud_venue.hpp): each names an offer (a catalog id or an
// inline record) and its own terms.
std::vector<CloudVenue> parse_venues(JsonObjectReader& r, Resolver& resolver) {
  const Json& list = r.value("venues");
  if (!list.is_array() || list.empty() || list.size() > static_cast<std::size_t>(kMaxVenuesPerPlan))
    r.fail("venues", fmt::format("a non-empty array of at most {} cloud venues", kMaxVenuesPerPlan), &list);
  std::vector<CloudVenue> venues;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string pointer = r.pointer_of("venues") + "/" + std::to_string(i);
    if (!list[i].is_object()) throw InputError(r.file(), pointer, "expected a venue object, found " + list[i].dump());
    JsonObjectReader vr(list[i], r.file(), pointer);
    CloudVenue v;
    v.offer = resolver.resolve<CloudOffer>("cloud_offer", vr.value("offer"), vr.pointer_of("offer"), parse_cloud_offer);
    refuse_zero_reserved_prices(vr.value("offer"), r.file(), vr.pointer_of("offer"));
    v.gpu = resolve_gpu(resolver, vr, v.offer.gpu_model, vr.pointer_of("offer"));
    parse_venue_terms(vr, v);
    vr.finish();
    if (!names.insert(v.name).second)
      throw InputError(r.file(), pointer + "/name", "expected a unique venue name, found \"" + v.name + "\" twice");
    venues.push_back(std::move(v));
  }
  return venues;
}

void resolve_successor(NextGenerationSpec& g, JsonObjectReader& r, Resolver& resolver) {
  const std::string pointer = r.pointer_of("successor_server");
  g.successor_server = resolver.resolve<ServerModel>("server", r.value("successor_server"), pointer, parse_server);
  g.successor_gpu = resolve_gpu(resolver, r, g.successor_server->gpu_model, pointer);
}

// Gives each refreshing plan its successor and refresh month, and checks the successor fleet fits
// the site (power cap, racks) as the old one must.
void fill_refreshes(Scenario& s) {
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    Plan& p = s.plans[i];
    if (!p.refresh) continue;
    const std::string pointer = "/plans/" + std::to_string(i) + "/refresh";
    if (!s.next_generation || !s.next_generation->successor_server)
      throw InputError(s.file, s.next_generation ? "/next_generation" : pointer,
                       fmt::format("plan \"{}\" refreshes its fleet with the next generation's server: expected "
                                   "next_generation.successor_server (a catalog server id){}",
                                   p.name, s.next_generation ? "" : ", and the scenario has no next_generation"));
    const NextGenerationSpec& g = *s.next_generation;
    const OnPremSpec& o = *p.onprem;
    if (o.server.gpu_model != g.predecessor_gpu)
      throw InputError(s.file, pointer,
                       fmt::format("plan \"{}\" owns {} GPUs, not the predecessor \"{}\" the next generation "
                                   "replaces: only a predecessor fleet is refreshed",
                                   p.name, o.server.gpu_model, g.predecessor_gpu));
    PlanRefresh& f = *p.refresh;
    f.server = *g.successor_server;
    f.gpu = g.successor_gpu;
    f.month = f.month_for(g.arrival_month, o.planned_delivery_month());
    const double it_kw = f.nodes * f.server.peak_kw;
    if (o.site.power_cap_mw && it_kw > *o.site.power_cap_mw * 1000.0)
      throw InputError(s.file, pointer + (f.nodes_as_written ? "/nodes" : ""),
                       fmt::format("plan \"{}\" refreshes to {} nodes x {} kW = {:.1f} kW of IT load; the site "
                                   "feeds {} MW: at most {} successor nodes fit",
                                   p.name, f.nodes, f.server.peak_kw, it_kw, *o.site.power_cap_mw,
                                   static_cast<long>(std::floor(*o.site.power_cap_mw * 1000.0 / f.server.peak_kw))));
    try {
      nodes_per_rack(o.cooling.rack_limit_kw, f.server.peak_kw);
    } catch (const ModelError& e) {
      throw InputError(s.file, pointer, fmt::format("the successor server: {}", e.what()));
    }
    p.resolved["refresh"] = {{"months_after_arrival", f.months_after_arrival},
                             {"nodes", f.nodes},
                             {"month", f.month},
                             {"server", to_json(f.server)},
                             {"gpu", to_json(f.gpu)}};
  }
}

// residual.follows_cloud_price: the resale value follows the plan's rental price of the GPU it
// owns (models/finance/resale_price_path.hpp).
void tie_resale_to_cloud_price(JsonObjectReader& r, Plan& p) {
  const bool in_plan = r.has("onprem") && r.value("onprem").contains("residual");
  const std::string pointer = (in_plan ? r.pointer_of("onprem") : std::string("/onprem")) + "/residual/follows_cloud_price";
  if (!p.cloud)
    throw InputError(r.file(), pointer,
                     fmt::format("plan \"{}\" rents nothing: its resale value has no rental price to follow (a "
                                 "hybrid plan with the GPU's cloud offer has one)",
                                 p.name));
  if (p.cloud->offer.gpu_model != p.onprem->server.gpu_model)
    throw InputError(r.file(), pointer,
                     fmt::format("plan \"{}\" owns {} GPUs but rents {}: its resale value follows the rental price "
                                 "of the GPU it owns",
                                 p.name, p.onprem->server.gpu_model, p.cloud->offer.gpu_model));
  p.onprem->resale_price_path = ResalePricePath{p.cloud->price_schedules.on_demand, p.cloud->price_change_per_year};
}

// A resale value that follows a price process (models/finance/resale_price_path.hpp) is drawn per
// path by the hourly model's kernels alone, on one fixed residual: not with the discrete-event
// replay, nor with a drawn arrival month (whose residual moves per path too).
void check_resale_ties(const Scenario& s) {
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    const Plan& p = s.plans[i];
    if (!p.onprem || !p.onprem->resale_price_path || !p.cloud->price_processes.on_demand) continue;
    const bool drawn_arrival = s.next_generation && s.next_generation->arrival_draw.drawn;
    if (!s.jobs && !drawn_arrival) continue;
    throw InputError(s.file, "/plans/" + std::to_string(i),
                     fmt::format("plan \"{}\" ties its resale value to the cloud price (residual.follows_cloud_price) "
                                 "and draws an on-demand price process: not modelled together with {} yet; drop "
                                 "one of them",
                                 p.name, s.jobs ? "the discrete-event replay (\"jobs\")" : "a drawn arrival month"));
  }
}

// Capacity blocks and take-or-pay contracts come before a plan's venues. A savings plan covers one
// provider's on-demand usage: beside venues it names the on-demand venue it covers (`venue`), and
// its rate is below that venue's on-demand price; without venues it covers the plan's own offer.
// A savings plan's venue(s) in a plan with venues: each an on-demand venue of the plan, at a rate
// at or below its price. The venues are then put in the order the commitment reaches them
// (highest discount first, ties as written; models/commitment/savings_plan.hpp), and `venue` and
// usd_per_instance_hour name the first.
void check_savings_plan_venue(JsonObjectReader& r, Plan& p) {
  for (std::size_t k = 0; k < p.commitments.size(); ++k) {
    Commitment& c = p.commitments[k];
    if (c.kind != Commitment::Kind::savings_plan) continue;
    const std::string pointer = r.pointer_of("commitments") + "/" + std::to_string(k);
    if (p.venues.empty()) {
      if (!c.venue.empty() || c.venues_written)
        throw InputError(r.file(), pointer + (c.venues_written ? "/venues" : "/venue"),
                         fmt::format("no \"{}\" in a plan without \"venues\" (\"{}\" covers the plan's own "
                                     "offer): remove it, or give the plan its venue list",
                                     c.venues_written ? "venues" : "venue", c.name));
      continue;
    }
    std::vector<std::string> on_demand;
    for (const CloudVenue& v : p.venues)
      if (v.price == CloudVenue::PriceKind::on_demand) on_demand.push_back(v.name);
    if (!c.venues_written) c.venue_rates = {{c.venue, c.usd_per_instance_hour}};
    std::vector<double> discounts;
    for (std::size_t i = 0; i < c.venue_rates.size(); ++i) {
      const Commitment::VenueRate& rate = c.venue_rates[i];
      const std::string at = c.venues_written ? fmt::format("{}/venues/{}", pointer, i) : pointer;
      const auto venue =
          std::find_if(p.venues.begin(), p.venues.end(), [&](const CloudVenue& v) { return v.name == rate.venue; });
      if (venue == p.venues.end() || venue->price != CloudVenue::PriceKind::on_demand)
        throw InputError(r.file(), at + (rate.venue.empty() ? "" : "/venue"),
                         fmt::format("the savings plan \"{}\" in a plan with venues names the on-demand venue whose "
                                     "usage it covers (\"venue\": one of {}), found {}",
                                     c.name, on_demand.empty() ? std::string("none: every venue is spot") : fmt::format("\"{}\"", fmt::join(on_demand, "\", \"")),
                                     rate.venue.empty() ? std::string("none") : "\"" + rate.venue + "\"" +
                                         (venue == p.venues.end() ? "" : " (a spot venue)")));
      if (rate.usd_per_instance_hour > venue->offer.on_demand_usd_per_hour)
        throw InputError(r.file(), at + "/usd_per_instance_hour",
                         fmt::format("a savings-plan rate at or below the venue's on-demand {} USD/h (\"{}\", offer "
                                     "\"{}\"), found {}",
                                     venue->offer.on_demand_usd_per_hour, venue->name, venue->offer.provenance.id,
                                     rate.usd_per_instance_hour));
      discounts.push_back(1.0 - rate.usd_per_instance_hour / venue->offer.on_demand_usd_per_hour);
    }
    std::vector<std::size_t> order(c.venue_rates.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return discounts[a] > discounts[b]; });
    std::vector<Commitment::VenueRate> sorted;
    for (const std::size_t i : order) sorted.push_back(c.venue_rates[i]);
    c.venue_rates = std::move(sorted);
    c.venue = c.venue_rates.front().venue;
    c.usd_per_instance_hour = c.venue_rates.front().usd_per_instance_hour;
  }
}

// A plan's "refresh" (models/next_generation/refresh.hpp). The successor is filled in once
// next_generation is read (fill_refreshes). What a refresh is not modelled with yet is refused,
// naming the field in the way.
PlanRefresh parse_refresh(JsonObjectReader& r, const Plan& p) {
  JsonObjectReader fr = r.object("refresh");
  PlanRefresh f;
  f.months_after_arrival = static_cast<int>(fr.integer("months_after_arrival", 0, limits::kMaxArrivalMonth));
  if (fr.has("nodes")) f.nodes_as_written = static_cast<int>(fr.integer("nodes", 1, limits::kMaxNodes));
  fr.finish();
  f.nodes = f.nodes_as_written.value_or(p.onprem_nodes);
  auto refuse = [&](const std::string& why) {
    throw InputError(r.file(), r.pointer_of("refresh"), fmt::format("plan \"{}\" refreshes its fleet: {}", p.name, why));
  };
  if (!p.onprem || p.onprem_nodes < 1) refuse("it needs owned nodes (onprem_nodes >= 1) to sell");
  const OnPremSpec& o = *p.onprem;
  if (o.financing.kind == Financing::Kind::lease)
    refuse("a leased fleet is handed back, not sold: finance it with cash or a loan, or remove \"refresh\"");
  if (o.procurement) refuse("not modelled with onprem.procurement yet: give a purchase_month, or remove \"refresh\"");
  if (o.spares) refuse("not modelled with onprem.spares yet: remove the spares or \"refresh\"");
  if (o.failures.afr_per_year > 0.0)
    refuse("not modelled with node failures yet (the Monte Carlo's failure draws follow one fleet): set "
           "onprem.failures.afr_per_year to 0, or remove \"refresh\"");
  if (o.resale_follows_cloud_price)
    refuse("not modelled with residual.follows_cloud_price yet (the successor rents at no price the engine "
           "knows): remove one of the two");
  if (o.book_method != BookMethod::straight_line || o.tax_depreciation)
    refuse("not modelled with the depreciation views yet (their yearly tables follow one fleet): use the "
           "straight line without onprem.depreciation.tax, or remove \"refresh\"");
  return f;
}

Plan parse_plan(JsonObjectReader& r, const Json& base_onprem, const Json& base_cloud, Resolver& resolver, const Date& start,
                int horizon_months, const std::string& dir) {
  Plan p;
  p.name = r.string("name");
  const std::string kind = r.choice("kind", {"cloud", "onprem", "hybrid"});
  p.kind = kind == "cloud" ? Plan::Kind::cloud : kind == "onprem" ? Plan::Kind::onprem : Plan::Kind::hybrid;
  p.onprem_nodes = static_cast<int>(r.integer_or("onprem_nodes", 0, 0, limits::kMaxNodes));
  p.reserved_instances = static_cast<int>(r.integer_or("reserved_instances", 0, 0, 100000));
  p.reserved_term_years = static_cast<int>(r.integer_or("reserved_term_years", 1, 1, 3));
  if (p.reserved_term_years == 2) r.fail("reserved_term_years", "1 or 3", &r.value("reserved_term_years"));
  p.spot_share = r.number_or("spot_share", 0.0, Bounds::fraction());
  if (r.has("scheduling")) {
    JsonObjectReader sr = r.object("scheduling");
    p.scheduling = parse_scheduling(sr);
  }
  r.allow("scheduling");
  if (p.kind == Plan::Kind::cloud && p.onprem_nodes != 0)
    r.fail("onprem_nodes", "0 for a cloud plan (use kind \"hybrid\" to own nodes and burst)", &r.value("onprem_nodes"));
  if (p.kind == Plan::Kind::onprem && p.onprem_nodes < 1)
    r.fail("onprem_nodes", "at least 1 node for an onprem plan", r.has("onprem_nodes") ? &r.value("onprem_nodes") : nullptr);
  if (p.kind == Plan::Kind::onprem && (p.reserved_instances > 0 || p.spot_share > 0.0))
    r.fail(p.reserved_instances > 0 ? "reserved_instances" : "spot_share",
           "no cloud capacity in an onprem plan (use kind \"hybrid\")",
           &r.value(p.reserved_instances > 0 ? "reserved_instances" : "spot_share"));

  // Plan-level "onprem" / "cloud" objects are JSON merge patches (RFC 7386) of the
  // scenario's sections: a plan changes only what it names.
  auto merged_section = [&](const char* key, const Json& base) {
    Json merged = base.is_null() ? Json::object() : base;
    if (r.has(key)) {
      const Json& patch = r.value(key);
      if (!patch.is_object()) r.fail(key, "an object (a merge patch of the scenario's section)", &patch);
      merged.merge_patch(patch);
    }
    r.allow(key);
    return merged;
  };
  const Json onprem_json = merged_section("onprem", base_onprem);
  const Json cloud_json = merged_section("cloud", base_cloud);

  if (p.kind != Plan::Kind::cloud) {
    if (onprem_json.empty())
      r.fail("onprem", "an \"onprem\" section (here or at the scenario's top level) for a plan that owns nodes", nullptr);
    JsonObjectReader or_(onprem_json, r.file(), r.pointer_of("onprem"));
    try {
      p.onprem = parse_onprem(or_, resolver, horizon_months, dir);
      if (p.onprem->tax_depreciation) p.onprem->tax_depreciation->start = start;
    } catch (const InputError& e) {
      throw attribute_section_error(e, r.pointer_of("onprem"), "/onprem", r.has("onprem") ? r.value("onprem") : Json());
    }
    try {
      check_site_capacity(*p.onprem, p, r.pointer_of("onprem"), r.file());
    } catch (const InputError& e) {
      throw attribute_section_error(e, r.pointer_of("onprem"), "/onprem", r.has("onprem") ? r.value("onprem") : Json());
    }
    // A node that fits no rack is an error now, not in the middle of a run.
    try {
      nodes_per_rack(p.onprem->cooling.rack_limit_kw, p.onprem->server.peak_kw);
    } catch (const ModelError& e) {
      throw InputError(r.file(), r.pointer_of("onprem") + "/cooling", e.what());
    }
  }
  if (p.kind != Plan::Kind::onprem) {
    if (cloud_json.empty())
      r.fail("cloud", "a \"cloud\" section (here or at the scenario's top level) for a plan that rents", nullptr);
    JsonObjectReader cr(cloud_json, r.file(), r.pointer_of("cloud"));
    try {
      p.cloud = parse_cloud(cr, resolver, dir, start);
    } catch (const InputError& e) {
      throw attribute_section_error(e, r.pointer_of("cloud"), "/cloud", r.has("cloud") ? r.value("cloud") : Json());
    }
    const auto& o = p.cloud->offer;
    if (p.spot_share > 0.0 && !o.spot_usd_per_hour)
      r.fail("spot_share", "0: the offer \"" + o.provenance.id + "\" has no spot price", &r.value("spot_share"));
    if (p.reserved_instances > 0 &&
        !(p.reserved_term_years == 3 ? o.reserved_3y_usd_per_hour : o.reserved_1y_usd_per_hour))
      r.fail("reserved_term_years",
             fmt::format("a term the offer \"{}\" has a reserved price for (reserved_instances > 0)", o.provenance.id),
             r.has("reserved_term_years") ? &r.value("reserved_term_years") : nullptr);
    if (r.has("commitments"))
      p.commitments = parse_commitments(
          r, {o.provenance.id, o.gpus_per_instance, o.on_demand_usd_per_hour, o.capacity_block_usd_per_hour, o.provider},
          horizon_months);
  }
  if (p.onprem && p.onprem->resale_follows_cloud_price) tie_resale_to_cloud_price(r, p);
  if (r.has("venues")) {
    if (p.kind == Plan::Kind::onprem) r.fail("venues", "no cloud venues in an onprem plan (use kind \"hybrid\")", &r.value("venues"));
    if (p.spot_share > 0.0)
      r.fail("spot_share", "0 in a plan with \"venues\" (a spot venue in the list takes its place)", &r.value("spot_share"));
    p.venues = parse_venues(r, resolver);
    if (p.cloud->price_schedules.on_demand || p.cloud->price_schedules.spot)
      r.fail("venues", "no on-demand or spot price_schedule in the plan's cloud section (with venues its offer prices "
                       "only reserved capacity; venues follow price_change_per_year)", &r.value("venues"));
  }
  r.allow("venues");
  if (p.kind == Plan::Kind::onprem && r.has("commitments"))
    r.fail("commitments", "no cloud commitments in an onprem plan (use kind \"hybrid\")", &r.value("commitments"));
  check_savings_plan_venue(r, p);
  if (r.has("refresh")) p.refresh = parse_refresh(r, p);
  r.finish();

  p.resolved = {{"name", p.name},
                {"kind", to_string(p.kind)},
                {"onprem_nodes", p.onprem_nodes},
                {"reserved_instances", p.reserved_instances},
                {"reserved_term_years", p.reserved_term_years},
                {"spot_share", p.spot_share},
                {"onprem", p.onprem ? to_json(*p.onprem) : Json(nullptr)},
                {"cloud", p.cloud ? to_json(*p.cloud) : Json(nullptr)}};
  // Only a plan that opts in echoes its venues, so every other report keeps its bytes.
  if (!p.venues.empty()) {
    Json venues = Json::array();
    for (const CloudVenue& v : p.venues) venues.push_back(venue_json(v, to_json(v.offer)));
    p.resolved["venues"] = std::move(venues);
  }
  // Only for a plan with commitments, so other reports keep their bytes.
  if (!p.commitments.empty()) {
    Json commitments = Json::array();
    for (const Commitment& c : p.commitments) commitments.push_back(to_json(c));
    p.resolved["commitments"] = commitments;
  }
  return p;
}

}  // namespace

namespace {

// The tornado evaluates every uncertain input at its low and high on every run, so each of those
// values must give a scenario that loads; checked here, `validate` sees what the analysis runs.
// (A path's draw far in an unbounded tail, P < 1e-9, is not checked: it is checked when drawn.)
void check_uncertain_tornado_values(const Json& doc, const std::string& file, const std::string& dir,
                                    const std::string& catalog_dir_override, const UncertainSpec& spec) {
  Json plain = doc;
  plain.erase("uncertain");
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const UncertainInput& in = spec.inputs[i];
    UncertainSpec alone;
    alone.inputs = {in};
    for (const auto& end_value : {std::pair{"low", in.low}, std::pair{"high", in.high}}) {
      // Named copies, not a structured binding: clang 14 (the sanitizer build) cannot capture one.
      const char* const end = end_value.first;
      const double value = end_value.second;
      const std::string where = "/uncertain/inputs/" + std::to_string(i);
      auto fail = [&](const std::string& why) {
        return InputError(file, where,
                          fmt::format("input \"{}\" at its {} {} makes {} invalid: {}", in.name, end, value,
                                      in.pointer, why));
      };
      if (in.integer && !(std::fabs(value) < 9007199254740992.0)) throw fail("not an integer a scenario can hold");
      try {
        load_scenario_json(document_with_values(plain, alone, {value}), file, dir, catalog_dir_override);
      } catch (const InputError& e) {
        throw fail(e.message());
      } catch (const ModelError& e) {
        throw fail(e.what());
      }
    }
  }
}

}  // namespace

Scenario load_scenario_json(const Json& doc, const std::string& file, const std::string& dir,
                            const std::string& catalog_dir_override) {
  require_finite_numbers(doc, file, "");
  IntegerFieldRecorder integer_fields(file);  // parse_uncertain asks it which fields are integers
  JsonObjectReader r(doc, file, "");
  if (r.has("$schema")) r.string("$schema");  // an editor's link to the schema: any string, as the schema says
  Scenario s;
  s.file = file;
  s.dir = dir;
  s.name = r.string("name");
  s.description = r.string_or("description", "");
  const std::string start = r.string("start");
  if (!parse_date(start, s.start)) r.fail("start", "a date as YYYY-MM-DD", &r.value("start"));
  s.calendar = Calendar::from_start(s.start);
  s.horizon_months = static_cast<int>(r.integer("horizon_months", 1, 600));
  s.discount_rate_per_year = r.number("discount_rate_per_year", Bounds::between(-0.5, 1.0));
  s.waiting_usd_per_gpu_hour = r.number_or("waiting_usd_per_gpu_hour", 0.0, limits::kUsdPerGpuHour);

  std::string catalog_dir = r.string_or("catalog_dir", "../pricing-data");
  if (!catalog_dir_override.empty()) catalog_dir = catalog_dir_override;
  else if (fs::path(catalog_dir).is_relative()) catalog_dir = (fs::path(dir) / catalog_dir).lexically_normal().string();
  if (!list_input_folder(catalog_dir))
    throw InputError(file, "/catalog_dir", "expected a folder of catalog files, found no folder at \"" + catalog_dir + "\"");
  const Catalog catalog = Catalog::load(catalog_dir);
  s.catalog_dir = catalog_dir;
  s.catalog_digest_sha256 = catalog.digest_sha256();
  Resolver resolver(catalog, file);

  // A scenario of jobs (the discrete-event replay) may leave the hourly workload out.
  if (r.has("workload") || !r.has("jobs")) {
    JsonObjectReader wr = r.object("workload");
    s.workload = parse_workload(wr, dir);
    read_token_demand(s.workload, r.value("workload"), file, catalog, dir);
  }
  if (r.has("jobs")) {
    JsonObjectReader jr = r.object("jobs");
    s.jobs = parse_jobs(jr, dir);
  }
  r.allow("jobs");
  if (r.has("monte_carlo")) {
    JsonObjectReader mr = r.object("monte_carlo");
    s.monte_carlo.paths = mr.integer_or("paths", 1, 1, 100000000);
    s.monte_carlo.seed = static_cast<std::uint64_t>(mr.integer_or("seed", 0, 0, std::numeric_limits<std::int64_t>::max()));
    s.monte_carlo.demand_growth_sigma_per_year =
        mr.number_or("demand_growth_sigma_per_year", 0.0, Bounds::between(0.0, 2.0));
    mr.finish();
  }
  r.allow("monte_carlo");
  const Json base_onprem = r.has("onprem") ? r.value("onprem") : Json(nullptr);
  const Json base_cloud = r.has("cloud") ? r.value("cloud") : Json(nullptr);
  r.allow("onprem");
  r.allow("cloud");
  if (!base_onprem.is_null() && !base_onprem.is_object()) r.fail("onprem", "an object", &base_onprem);
  if (!base_cloud.is_null() && !base_cloud.is_object()) r.fail("cloud", "an object", &base_cloud);
  // Read here with its bounds as well: every cloud plan may patch its own, and an onprem plan
  // still uses this one. The rest of the section is checked where it is parsed whole.
  if (base_cloud.is_object() && base_cloud.contains("spot") && base_cloud["spot"].is_object()) {
    JsonObjectReader spot(base_cloud["spot"], file, "/cloud/spot");
    s.checkpoint_write_h = spot.number_or("checkpoint_write_h", s.checkpoint_write_h, limits::kHours);
  }

  const Json& plans = r.value("plans");
  if (!plans.is_array() || plans.empty()) r.fail("plans", "a non-empty array of plans", &plans);
  std::set<std::string> names;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const std::string pointer = "/plans/" + std::to_string(i);
    JsonObjectReader pr(plans[i], file, pointer);
    Plan plan = parse_plan(pr, base_onprem, base_cloud, resolver, s.start, s.horizon_months, dir);
    if (!names.insert(plan.name).second)
      throw InputError(file, pointer + "/name", "expected a unique plan name, found \"" + plan.name + "\" twice");
    add_plan_warnings(s, plan, pointer);
    s.plans.push_back(std::move(plan));
  }
  add_implied_forward_warnings(s);
  // A section that no plan uses must still be valid: a typo there is a wrong number waiting
  // for the day a plan starts to use it.
  const bool onprem_used = std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return p.onprem.has_value(); });
  const bool cloud_used = std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return p.cloud.has_value(); });
  if (!base_onprem.is_null() && !onprem_used) {
    JsonObjectReader unused(base_onprem, file, "/onprem");
    parse_onprem(unused, resolver, s.horizon_months, dir);
  }
  if (!base_cloud.is_null() && !cloud_used) {
    JsonObjectReader unused(base_cloud, file, "/cloud");
    parse_cloud(unused, resolver, dir, s.start);
  }
  if (r.has("next_generation")) {
    JsonObjectReader nr = r.object("next_generation");
    s.next_generation = parse_next_generation(nr);
    apply_next_generation(*s.next_generation, file, s.plans);
    if (!s.next_generation->successor_server_ref.is_null()) {
      JsonObjectReader sr(r.value("next_generation"), file, "/next_generation");
      resolve_successor(*s.next_generation, sr, resolver);
    }
  }
  r.allow("next_generation");
  fill_refreshes(s);
  check_resale_ties(s);
  check_hourly_time_shifts(s);
  const std::string baseline = r.string_or("baseline", s.plans.front().name);
  const auto it = std::find_if(s.plans.begin(), s.plans.end(), [&](const Plan& p) { return p.name == baseline; });
  if (it == s.plans.end())
    r.fail("baseline", "the name of one of the plans", &r.value("baseline"));
  s.baseline_index = static_cast<int>(it - s.plans.begin());
  if (r.has("uncertain")) {
    // The inputs are evaluated path by path with the hourly fluid model (docs/decisions.md).
    if (!r.has("workload"))
      throw InputError(file, "/uncertain",
                       "expected a \"workload\" section beside \"uncertain\": uncertain inputs are evaluated with "
                       "the hourly fluid model, which a scenario of jobs alone does not have");
    s.uncertain = parse_uncertain(r.value("uncertain"), file, doc);
  }
  r.allow("uncertain");
  r.finish();
  check_drawn_deliveries(s, plans);
  check_replay_plans(s);
  // The whole catalog, also the records this scenario does not use, as `validate` checks it.
  require_valid_catalog(catalog_dir);

  s.records_used = resolver.used();
  drop_unused_figures(s);
  add_provenance_warnings(s);
  s.scenario_digest_sha256 = sha256_hex(doc.dump());
  return s;
}

Scenario load_scenario(const std::string& path, const std::string& catalog_dir_override) {
  const Json doc = read_json_file(path);
  const std::string dir = fs::path(path).parent_path().string();
  Scenario s = load_scenario_json(doc, path, dir.empty() ? "." : dir, catalog_dir_override);
  if (s.uncertain) check_uncertain_tornado_values(doc, path, dir.empty() ? "." : dir, catalog_dir_override, *s.uncertain);
  s.scenario_digest_sha256 = file_digest(path);
  return s;
}

std::vector<Finding> validate_scenario_file(const std::string& path, const std::string& catalog_dir_override) {
  try {
    return load_scenario(path, catalog_dir_override).warnings;
  } catch (const InputError& e) {
    return {{Finding::Severity::error, "invalid-scenario", e.file(), e.where(), e.what()}};
  } catch (const ModelError& e) {
    return {{Finding::Severity::error, "invalid-scenario", path, "", e.what()}};
  }
}

}  // namespace tco
