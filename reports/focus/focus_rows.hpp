// The FOCUS rows of one plan (reports/focus/focus_export.hpp): what every row shares, and the
// row of a ledger category that is not a commitment (docs/report.md "The FOCUS export",
// "Categories"). Example: cloud_on_demand of $300 in month 1 of a plan that billed 1,000 GPU-hours
// over $400 is a Usage row of 750 GPU-Hours, billed by the offer's provider, when the report has no
// monthly quantities (a replay's); with them (plans[].quantities_by_month) it is month 1's figure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"

namespace tco {

inline constexpr const char* kFocusSelf = "self";  // the owner: what an owned fleet costs is paid to no provider
inline constexpr const char* kFocusGpuHours = "GPU-Hours";

// One output row; an empty string or an absent number is a null.
struct FocusRow {
  std::map<std::string, std::string> text;
  std::map<std::string, double> number;
};

// How a ledger category reads in FOCUS (docs/report.md "FOCUS export"). `provider`: the plan's
// cloud offer's provider bills it; otherwise the owner does ("self").
// owned_gpu_hours: the owned fleet's GPU-hours of capacity in the month (nodes up x GPUs x hours);
// owned_nodes: the nodes a capex payment buys.
enum class FocusQuantity { gpu_hours_on_demand, gpu_hours_spot, kwh, owned_gpu_hours, owned_nodes, months, none };
struct FocusCategory {
  const char* category;
  const char* charge_category;  // Usage | Purchase | Tax | Adjustment
  const char* service_category;
  const char* service_name;
  bool provider;
  FocusQuantity quantity;
  const char* pricing_category;  // "" for none
};
// The category's row of the table; nullptr for one the export does not know.
const FocusCategory* focus_category(const std::string& name);

// Calendar month m of the scenario as "YYYY-MM-DDT00:00:00Z" (the day of the start, or the month's last).
std::string focus_month_start(const Date& start, int m);

// A venue's row (reports/focus/focus_venues.hpp): who bills it, its catalog record and GPU-hours.
struct FocusVenueRow {
  std::string name, provider, region, offer_id;
  double gpu_hours = 0.0;
};

// What every row of one plan shares.
struct FocusPlan {
  std::string scenario, plan, kind, statistic, account_id;
  std::string provider, region, offer_id, server_id;
  std::string api_name, api_provider;  // a plan that buys tokens: "openrouter/deepseek/deepseek-r1-0528", "openrouter"
  Date start;
  const Json* monthly = nullptr;
  const Json* gpu_hours = nullptr;
  const Json* quantities_by_month = nullptr;  // plans[].quantities_by_month; null in a replay's report
  double facility_kwh = 0.0;
  double owned_nodes = 0.0;  // plans[].onprem_nodes
  // A plan with venues: plans[].venues.list and the echoed inputs.plans[].venues (null without), with
  // their JSON pointers for errors.
  const Json* venues = nullptr;
  const Json* input_venues = nullptr;
  std::string venues_pointer, input_venues_pointer;
  bool reserved_used_counts_commitments = false;  // a discrete-event report (engine/des/cloud/cloud_runs.hpp)
};

// Month m's figure of column `name` of plans[].quantities_by_month; nullopt without the table.
inline std::optional<double> focus_month_quantity(const FocusPlan& c, const char* name, int m) {
  if (!c.quantities_by_month) return std::nullopt;
  const Json& columns = c.quantities_by_month->at("columns");
  for (std::size_t k = 0; k < columns.size(); ++k)
    if (columns[k] == name) return c.quantities_by_month->at("rows").at(m).at(k).get<double>();
  return std::nullopt;
}

class FocusPlanRows {
 public:
  FocusPlanRows(const FocusPlan& c, std::vector<FocusRow>& out) : c_(c), out_(out) {}

  // A row of category `cat` in month m with the plan's common columns filled.
  FocusRow base(const std::string& cat, int m, bool by_provider) const {
    FocusRow r;
    const std::string from = focus_month_start(c_.start, m), to = focus_month_start(c_.start, m + 1);
    // Who bills the row, and for what: the model API, the cloud offer, or the owner.
    const bool api = cat == "api" && !c_.api_name.empty();
    const bool cloud = !api && by_provider && !c_.provider.empty();
    const std::string provider = api ? c_.api_provider : cloud ? c_.provider : std::string(kFocusSelf);
    r.text = {{"BillingAccountId", c_.account_id}, {"BillingAccountName", c_.plan}, {"BillingCurrency", "USD"},
              {"BillingPeriodStart", from}, {"BillingPeriodEnd", to}, {"ChargePeriodStart", from},
              {"ChargePeriodEnd", to}, {"ProviderName", provider}, {"PublisherName", provider},
              {"InvoiceIssuerName", provider}, {"x_CostCategory", cat}, {"x_Month", std::to_string(m)},
              {"x_PathStatistic", c_.statistic}, {"x_Plan", c_.plan}, {"x_Scenario", c_.scenario}};
    const char* resource = api ? "api" : cloud ? "rented" : "owned";
    r.text["ResourceId"] = c_.scenario + "/" + c_.plan + "/" + resource;
    r.text["ResourceName"] = c_.plan + (api ? " model API" : cloud ? " rented fleet" : " owned fleet");
    r.text["ResourceType"] = api ? "Model API" : cloud ? "GPU instance" : "GPU server";
    if (cloud && !c_.region.empty()) r.text["RegionId"] = r.text["RegionName"] = c_.region;
    const bool owned_hardware = cat == "capex" || cat == "lease" || cat == "maintenance" || cat == "repair";
    r.text["SkuId"] = api                                         ? c_.api_name
                      : cloud && !c_.offer_id.empty()             ? c_.offer_id
                      : owned_hardware && !c_.server_id.empty() ? c_.server_id
                                                                  : std::string(kFocusSelf) + "/" + cat;
    r.text["ChargeDescription"] = fmt::format("{} of plan {}, month {}", cat, c_.plan, m);
    return r;
  }

  // A row with BilledCost = EffectiveCost = usd (no commitment); total_usd: the category's over the horizon.
  // venue: the row of one burst venue, billed by its provider for its offer and GPU-hours.
  void plain(const FocusCategory& map, int m, double usd, double total_usd, bool one_time,
             const FocusVenueRow* venue = nullptr) {
    FocusRow r = base(map.category, m, map.provider);
    if (venue) {
      r.text["ProviderName"] = r.text["PublisherName"] = r.text["InvoiceIssuerName"] = venue->provider;
      r.text["SkuId"] = venue->offer_id;
      r.text.erase("RegionId");
      r.text.erase("RegionName");
      if (!venue->region.empty()) r.text["RegionId"] = r.text["RegionName"] = venue->region;
      r.text["ResourceId"] = c_.scenario + "/" + c_.plan + "/rented/" + venue->name;
      r.text["ResourceName"] = c_.plan + " rented fleet at venue " + venue->name;
      r.text["ChargeDescription"] = fmt::format("{} of plan {} at venue {}, month {}", map.category, c_.plan, venue->name, m);
    }
    const std::string category = map.charge_category;
    r.text["ChargeCategory"] = category;
    r.text["ServiceCategory"] = map.service_category;
    r.text["ServiceName"] = map.service_name;
    r.text["ChargeFrequency"] = category == "Usage" ? "Usage-Based" : one_time ? "One-Time" : "Recurring";
    if (*map.pricing_category) r.text["PricingCategory"] = map.pricing_category;
    set_costs(r, usd, usd);
    if (category == "Tax") r.text.erase("SkuId");
    if (category == "Usage" || category == "Purchase") {
      const auto [quantity, unit] =
          venue ? std::pair{venue->gpu_hours, std::string(kFocusGpuHours)} : quantity_of(map, m, usd, total_usd, one_time);
      set_quantity(r, quantity, unit, category == "Usage");
    }
    out_.push_back(std::move(r));
  }

  static void set_costs(FocusRow& r, double billed, double effective) {
    r.number["BilledCost"] = billed;
    r.number["EffectiveCost"] = effective;
    r.number["ListCost"] = billed;        // tcosim prices at the contracted rate: no separate list price
    r.number["ContractedCost"] = billed;
  }
  static void set_quantity(FocusRow& r, double quantity, const std::string& unit, bool consumed) {
    r.number["PricingQuantity"] = quantity;
    r.text["PricingUnit"] = unit;
    if (consumed) {
      r.number["ConsumedQuantity"] = quantity;
      r.text["ConsumedUnit"] = unit;
    }
  }

 std::optional<double> month_quantity(const char* name, int m) const { return focus_month_quantity(c_, name, m); }

 private:
  // Month m's quantity: the simulation's own monthly figure; without one (a replay's report), the
  // plan's figure for the horizon allocated to the month by cost share.
  std::pair<double, std::string> quantity_of(const FocusCategory& map, int m, double usd, double total_usd,
                                             bool one_time) const {
    const double share = total_usd != 0.0 ? usd / total_usd : 0.0;
    const auto monthly = [&](const char* column, const char* horizon_key) {
      if (const auto q = month_quantity(column, m)) return *q;
      return c_.gpu_hours->at(horizon_key).get<double>() * share;
    };
    switch (map.quantity) {
      case FocusQuantity::gpu_hours_on_demand:
        return {monthly("on_demand_billed_gpu_hours", "on_demand_billed"), kFocusGpuHours};
      case FocusQuantity::gpu_hours_spot: return {monthly("spot_billed_gpu_hours", "spot_billed"), kFocusGpuHours};
      case FocusQuantity::owned_gpu_hours:  // a plan that owns nothing (staff alone): a month's line item
        if (c_.gpu_hours->at("onprem_capacity").get<double>() > 0.0)
          return {monthly("onprem_capacity_gpu_hours", "onprem_capacity"), kFocusGpuHours};
        break;
      case FocusQuantity::kwh: {
        const auto q = month_quantity("facility_kwh", m);
        return {q ? *q : c_.facility_kwh * share, "kWh"};
      }
      case FocusQuantity::owned_nodes:
        // The fleet bought at once: all its nodes; a deposit and its balance, or a refresh's second
        // fleet: the nodes by the payment's share of the capex dollars.
        if (c_.owned_nodes > 0.0) return {c_.owned_nodes * (one_time ? 1.0 : share), "Nodes"};
        break;
      case FocusQuantity::months:
      case FocusQuantity::none: break;
    }
    return one_time ? std::pair{1.0, std::string("Units")} : std::pair{1.0, std::string("Months")};
  }

  const FocusPlan& c_;
  std::vector<FocusRow>& out_;
};

}  // namespace tco
