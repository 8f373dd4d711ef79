#include "models/site/ambient.hpp"

namespace tco {

namespace {

constexpr const char* kFormulaKeys[] = {"mean_c", "seasonal_amp_c", "hottest_day", "diurnal_amp_c", "hottest_hour"};

}  // namespace

AmbientSpec parse_ambient(JsonObjectReader& r, const std::string& scenario_dir) {
  AmbientSpec a;
  if (r.has("series_file")) {
    // One source of temperatures: a formula field beside a file would be silently ignored.
    for (const char* key : kFormulaKeys)
      if (r.has(key))
        r.fail(key, "no formula field beside \"series_file\" (the file gives every hour's temperature)", &r.value(key));
    a.series = read_hourly_series(r, "series_file", "series_repeat", scenario_dir, temperature_series_column());
  } else {
    if (r.has("series_repeat"))
      r.fail("series_repeat", "\"series_repeat\" only with a \"series_file\"", &r.value("series_repeat"));
    a.mean_c = r.number("mean_c", Bounds::between(-60.0, 60.0));
    a.seasonal_amp_c = r.number_or("seasonal_amp_c", 0.0, Bounds::between(0.0, 50.0));
    a.hottest_day = r.number_or("hottest_day", 200.0, Bounds::between(1.0, 365.0));
    a.diurnal_amp_c = r.number_or("diurnal_amp_c", 0.0, Bounds::between(0.0, 30.0));
    a.hottest_hour = r.number_or("hottest_hour", 15.0, Bounds::between(0.0, 23.999));
  }
  a.noise_sigma_c = r.number_or("noise_sigma_c", 0.0, Bounds::between(0.0, 20.0));
  a.throttle_above_c = r.optional_number("throttle_above_c", Bounds::between(-60.0, 80.0));
  a.throttle_fraction = r.number_or("throttle_fraction", 0.0, Bounds::between(0.0, 0.99));
  r.finish();
  return a;
}

Json to_json(const AmbientSpec& a) {
  Json j;
  if (a.series) {
    j["series"] = series_to_json(*a.series);
  } else {
    j = {{"mean_c", a.mean_c},           {"seasonal_amp_c", a.seasonal_amp_c},
         {"hottest_day", a.hottest_day}, {"diurnal_amp_c", a.diurnal_amp_c},
         {"hottest_hour", a.hottest_hour}};
  }
  j["noise_sigma_c"] = a.noise_sigma_c;
  j["throttle_fraction"] = a.throttle_fraction;
  j["throttle_above_c"] = a.throttle_above_c ? Json(*a.throttle_above_c) : Json(nullptr);
  return j;
}

}  // namespace tco
