#include "models/site/power.hpp"

#include "core/error.hpp"
#include "models/input_limits.hpp"

namespace tco {

static std::array<double, 24> hourly_rates(JsonObjectReader& r, std::string_view key) {
  const std::vector<double> rates = r.numbers(key, limits::kUsdPerKwh, 24);
  std::array<double, 24> out{};
  for (int i = 0; i < 24; ++i) out[i] = rates[i];
  return out;
}

static Tariff parse_tariff(JsonObjectReader& r, const double* region_usd_per_kwh, const std::string& scenario_dir) {
  Tariff t;
  const std::string type = r.choice("type", {"flat", "time_of_use", "hourly_series"});
  if (type == "flat") {
    t.kind = Tariff::Kind::flat;
    if (region_usd_per_kwh && !r.has("usd_per_kwh")) {
      r.allow("usd_per_kwh");
      t.flat_usd_per_kwh = *region_usd_per_kwh;
    } else {
      t.flat_usd_per_kwh = r.number("usd_per_kwh", limits::kUsdPerKwh);
    }
  } else if (type == "hourly_series") {
    t.kind = Tariff::Kind::hourly_series;
    t.series = read_hourly_series(r, "file", "repeat", scenario_dir, price_series_column());
  } else {
    t.kind = Tariff::Kind::time_of_use;
    t.weekday_usd_per_kwh = hourly_rates(r, "weekday_usd_per_kwh");
    // Weekends default to the weekday rates when a tariff does not distinguish them.
    t.weekend_usd_per_kwh = r.has("weekend_usd_per_kwh") ? hourly_rates(r, "weekend_usd_per_kwh")
                                                         : t.weekday_usd_per_kwh;
    r.allow("weekend_usd_per_kwh");
  }
  r.finish();
  return t;
}

PowerSpec parse_power(JsonObjectReader& r, const double* region_usd_per_kwh,
                      const double* region_g_co2_per_kwh, const std::string& scenario_dir) {
  PowerSpec p;
  if (r.has("tariff")) {
    JsonObjectReader tr = r.object("tariff");
    p.tariff = parse_tariff(tr, region_usd_per_kwh, scenario_dir);
  } else if (region_usd_per_kwh) {
    r.allow("tariff");
    p.tariff.flat_usd_per_kwh = *region_usd_per_kwh;
  } else {
    r.fail("tariff", "a tariff object (or a \"region\" whose price applies)", nullptr);
  }
  p.escalation_per_year = r.number_or("escalation_per_year", 0.0, limits::kEscalationPerYear);
  p.demand_charge_usd_per_kw_month =
      r.number_or("demand_charge_usd_per_kw_month", 0.0, limits::kUsdPerKwMonth);
  if (r.has("g_co2_per_kwh_series")) {
    // The series replaces the flat figure: giving both would leave one of them unread.
    if (r.has("g_co2_per_kwh"))
      r.fail("g_co2_per_kwh", "no flat intensity beside \"g_co2_per_kwh_series\" (the series replaces it)",
             &r.value("g_co2_per_kwh"));
    JsonObjectReader sr = r.object("g_co2_per_kwh_series");
    p.g_co2_series = read_hourly_series(sr, "file", "repeat", scenario_dir, intensity_series_column());
    sr.finish();
  } else if (region_g_co2_per_kwh && !r.has("g_co2_per_kwh")) {
    r.allow("g_co2_per_kwh");
    p.g_co2_per_kwh = *region_g_co2_per_kwh;
  } else {
    p.g_co2_per_kwh = r.number("g_co2_per_kwh", limits::kGCo2PerKwh);
  }
  p.monthly_price_sigma = r.number_or("monthly_price_sigma", 0.0, Bounds::between(0.0, 2.0));
  return p;
}

Json to_json(const PowerSpec& p) {
  Json tariff;
  if (p.tariff.kind == Tariff::Kind::flat) {
    tariff = {{"type", "flat"}, {"usd_per_kwh", p.tariff.flat_usd_per_kwh}};
  } else if (p.tariff.kind == Tariff::Kind::hourly_series) {
    tariff = series_to_json(*p.tariff.series);
    tariff["type"] = "hourly_series";
  } else {
    tariff = {{"type", "time_of_use"},
              {"weekday_usd_per_kwh", p.tariff.weekday_usd_per_kwh},
              {"weekend_usd_per_kwh", p.tariff.weekend_usd_per_kwh}};
  }
  Json out = {{"tariff", tariff},
              {"escalation_per_year", p.escalation_per_year},
              {"demand_charge_usd_per_kw_month", p.demand_charge_usd_per_kw_month},
              {"g_co2_per_kwh", p.g_co2_per_kwh},
              {"monthly_price_sigma", p.monthly_price_sigma}};
  if (p.g_co2_series) {  // the series in place of the flat figure (a site without one keeps its bytes)
    out.erase("g_co2_per_kwh");
    out["g_co2_per_kwh_series"] = series_to_json(*p.g_co2_series);
  }
  return out;
}

}  // namespace tco
