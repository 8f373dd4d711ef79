#include "reports/focus/focus_rows.hpp"

#include <algorithm>

namespace tco {

namespace {

constexpr FocusCategory kFocusCategories[] = {
    {"capex", "Purchase", "Compute", "Owned GPU servers", false, FocusQuantity::owned_nodes, ""},
    {"financing_interest", "Adjustment", "Compute", "Financing of owned GPU servers", false, FocusQuantity::none, ""},
    {"lease", "Purchase", "Compute", "Leased GPU servers", false, FocusQuantity::owned_gpu_hours, ""},
    {"maintenance", "Purchase", "Compute", "Maintenance of owned GPU servers", false, FocusQuantity::owned_gpu_hours, ""},
    {"facility", "Purchase", "Other", "Data centre space and cooling", false, FocusQuantity::owned_gpu_hours, ""},
    {"energy", "Usage", "Other", "Electricity", false, FocusQuantity::kwh, ""},
    {"staff", "Purchase", "Other", "Operations staff", false, FocusQuantity::owned_gpu_hours, ""},
    {"cloud_on_demand", "Usage", "Compute", "GPU instances", true, FocusQuantity::gpu_hours_on_demand, "Standard"},
    {"cloud_spot", "Usage", "Compute", "GPU instances", true, FocusQuantity::gpu_hours_spot, "Dynamic"},
    {"egress", "Usage", "Networking", "Data transfer out", true, FocusQuantity::months, ""},
    {"waiting", "Adjustment", "Other", "Priced waiting of queued work", false, FocusQuantity::none, ""},
    {"residual", "Adjustment", "Compute", "Resale of owned GPU servers", false, FocusQuantity::none, ""},
    {"tax_shield", "Tax", "Other", "Tax shield of depreciation", false, FocusQuantity::none, ""},
    {"carbon", "Adjustment", "Other", "Carbon price", false, FocusQuantity::none, ""},
    {"storage", "Usage", "Storage", "Cluster storage", true, FocusQuantity::months, ""},
    {"network", "Purchase", "Networking", "Cluster network", true, FocusQuantity::months, ""},
    {"cpu_vms", "Usage", "Compute", "Control-plane CPU VMs", true, FocusQuantity::months, ""},
    {"support", "Purchase", "Management and Governance", "Support", true, FocusQuantity::months, ""},
    {"setup", "Purchase", "Other", "Cluster setup", true, FocusQuantity::months, ""},
    {"debugging", "Usage", "Other", "Engineers' debugging time", false, FocusQuantity::months, ""},
    {"lost_work", "Adjustment", "Compute", "GPU-hours lost to downtime (goodput)", true, FocusQuantity::none, ""},
    {"repair", "Purchase", "Compute", "Repair of owned GPU servers", false, FocusQuantity::owned_gpu_hours, ""},
    {"api", "Usage", "AI and Machine Learning", "Model API tokens", true, FocusQuantity::months, ""},
};

}  // namespace

const FocusCategory* focus_category(const std::string& name) {
  for (const FocusCategory& c : kFocusCategories)
    if (name == c.category) return &c;
  return nullptr;
}

// Calendar month m of the scenario as "YYYY-MM-DDT00:00:00Z" (the day of the start, or the month's last).
std::string focus_month_start(const Date& start, int m) {
  const int index = start.month - 1 + m;
  Date d{start.year + index / 12, index % 12 + 1, 1};
  const Date next{d.year + (d.month == 12), d.month % 12 + 1, 1};
  d.day = std::min<int>(start.day, static_cast<int>(days_between(d, next)));
  return format_date(d) + "T00:00:00Z";
}

}  // namespace tco
