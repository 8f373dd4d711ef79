#include "models/ambient.hpp"

namespace tco {

AmbientSpec parse_ambient(JsonObjectReader& r) {
  AmbientSpec a;
  a.mean_c = r.number("mean_c", Bounds::between(-60.0, 60.0));
  a.seasonal_amp_c = r.number_or("seasonal_amp_c", 0.0, Bounds::between(0.0, 50.0));
  a.hottest_day = r.number_or("hottest_day", 200.0, Bounds::between(1.0, 365.0));
  a.diurnal_amp_c = r.number_or("diurnal_amp_c", 0.0, Bounds::between(0.0, 30.0));
  a.hottest_hour = r.number_or("hottest_hour", 15.0, Bounds::between(0.0, 23.999));
  a.noise_sigma_c = r.number_or("noise_sigma_c", 0.0, Bounds::between(0.0, 20.0));
  a.throttle_above_c = r.optional_number("throttle_above_c", Bounds::between(-60.0, 80.0));
  a.throttle_fraction = r.number_or("throttle_fraction", 0.0, Bounds::between(0.0, 0.99));
  r.finish();
  return a;
}

Json to_json(const AmbientSpec& a) {
  Json j = {{"mean_c", a.mean_c},           {"seasonal_amp_c", a.seasonal_amp_c},
            {"hottest_day", a.hottest_day}, {"diurnal_amp_c", a.diurnal_amp_c},
            {"hottest_hour", a.hottest_hour}, {"noise_sigma_c", a.noise_sigma_c},
            {"throttle_fraction", a.throttle_fraction}};
  j["throttle_above_c"] = a.throttle_above_c ? Json(*a.throttle_above_c) : Json(nullptr);
  return j;
}

}  // namespace tco
