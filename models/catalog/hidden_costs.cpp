#include "models/catalog/hidden_costs.hpp"

#include "models/input_limits.hpp"

namespace tco {

bool HiddenCosts::any() const {
  return storage_gib * storage_usd_per_gib_month > 0.0 || network_usd_per_month > 0.0 ||
         cpu_vms * cpu_vm_usd_per_hour > 0.0 || support_share_of_bill > 0.0 || setup_usd > 0.0 ||
         debugging_engineer_h_per_month * debugging_usd_per_engineer_h > 0.0 || goodput < 1.0;
}

HiddenCosts parse_hidden_costs(JsonObjectReader& r, const HiddenCosts& defaults) {
  HiddenCosts h = defaults;
  h.storage_gib = r.number_or("storage_gib", h.storage_gib, limits::kStorageGib);
  h.storage_usd_per_gib_month = r.number_or("storage_usd_per_gib_month", h.storage_usd_per_gib_month, limits::kUsdPerGibMonth);
  h.network_usd_per_month = r.number_or("network_usd_per_month", h.network_usd_per_month, limits::kUsdPerMonth);
  h.cpu_vms = static_cast<int>(r.integer_or("cpu_vms", h.cpu_vms, 0, limits::kMaxCount));
  h.cpu_vm_usd_per_hour = r.number_or("cpu_vm_usd_per_hour", h.cpu_vm_usd_per_hour, limits::kUsdPerInstanceHour);
  h.support_share_of_bill = r.number_or("support_share_of_bill", h.support_share_of_bill, Bounds::fraction());
  h.setup_usd = r.number_or("setup_usd", h.setup_usd, limits::kUsdPerSite);
  h.setup_paid = r.choice_or("setup_paid", {"amortised", "at_start"}, to_string(h.setup_paid)) == "at_start"
                     ? HiddenCosts::SetupPaid::at_start
                     : HiddenCosts::SetupPaid::amortised;
  h.debugging_engineer_h_per_month =
      r.number_or("debugging_engineer_h_per_month", h.debugging_engineer_h_per_month, limits::kEngineerHoursPerMonth);
  h.debugging_usd_per_engineer_h =
      r.number_or("debugging_usd_per_engineer_h", h.debugging_usd_per_engineer_h, limits::kUsdPerEngineerHour);
  h.goodput = r.number_or("goodput", h.goodput, limits::kGoodput);
  h.source = r.string_or("source", h.source);
  r.finish();
  return h;
}

std::string to_string(HiddenCosts::SetupPaid paid) {
  return paid == HiddenCosts::SetupPaid::at_start ? "at_start" : "amortised";
}

Json to_json(const HiddenCosts& h) {
  return {{"storage_gib", h.storage_gib},
          {"storage_usd_per_gib_month", h.storage_usd_per_gib_month},
          {"network_usd_per_month", h.network_usd_per_month},
          {"cpu_vms", h.cpu_vms},
          {"cpu_vm_usd_per_hour", h.cpu_vm_usd_per_hour},
          {"support_share_of_bill", h.support_share_of_bill},
          {"setup_usd", h.setup_usd},
          {"setup_paid", to_string(h.setup_paid)},
          {"debugging_engineer_h_per_month", h.debugging_engineer_h_per_month},
          {"debugging_usd_per_engineer_h", h.debugging_usd_per_engineer_h},
          {"goodput", h.goodput},
          {"source", h.source.empty() ? Json(nullptr) : Json(h.source)}};
}

}  // namespace tco
