#include "models/onprem/onprem_reader.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/catalog/record_json.hpp"
#include "models/finance/finance_reader.hpp"
#include "models/input_limits.hpp"

namespace tco {

namespace {

// follows_cloud_price only when on, so other reports keep their bytes.
Json residual_json(const OnPremSpec& o) {
  Json out = {{"enabled", o.residual_enabled}, {"resale_decline_per_year", o.resale_decline_per_year}};
  if (o.resale_follows_cloud_price) out["follows_cloud_price"] = true;
  return out;
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

}  // namespace

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

OnPremSpec parse_onprem(JsonObjectReader& r, RecordResolver& resolver, int horizon_months, const std::string& dir) {
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

}  // namespace tco
