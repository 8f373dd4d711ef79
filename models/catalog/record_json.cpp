#include "models/catalog/record_json.hpp"

namespace tco {

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
  // Only for an offer that prices other reserved terms, so the other offers' echo keeps its bytes.
  if (!o.reserved_usd_per_hour_by_term_months.empty()) {
    Json terms = Json::object();
    for (const auto& [months, price] : o.reserved_usd_per_hour_by_term_months) terms[std::to_string(months)] = price;
    out["reserved_usd_per_hour_by_term_months"] = terms;
  }
  if (o.hidden_costs.any()) out["hidden_costs"] = to_json(o.hidden_costs);
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

}  // namespace tco
