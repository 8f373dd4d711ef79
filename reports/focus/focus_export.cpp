#include "reports/focus/focus_export.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "models/commitment/commitment.hpp"

namespace tco {

namespace {

constexpr const char* kFocusSelf = "self";  // the owner: what an owned fleet costs is paid to no provider
constexpr const char* kFocusGpuHours = "GPU-Hours";

const std::vector<std::string> kFocusColumns = {
    "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodEnd",
    "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargeFrequency",
    "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory", "CommitmentDiscountId",
    "CommitmentDiscountName", "CommitmentDiscountQuantity", "CommitmentDiscountStatus", "CommitmentDiscountType",
    "CommitmentDiscountUnit", "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "EffectiveCost",
    "InvoiceIssuerName", "ListCost", "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName",
    "PublisherName", "RegionId", "RegionName", "ResourceId", "ResourceName", "ResourceType", "ServiceCategory",
    "ServiceName", "SkuId", "x_CostCategory", "x_Month", "x_PathStatistic", "x_Plan", "x_Scenario"};

// One output row; an empty string or an absent number is a null.
struct FocusRow {
  std::map<std::string, std::string> text;
  std::map<std::string, double> number;
};

// FOCUS's NumericFormat: no exponent, no '+'; six decimals keep every sum within a cent.
std::string focus_decimal(double v) {
  std::string s = fmt::format("{:.6f}", v);
  return s == "-0.000000" ? "0.000000" : s;
}

std::string focus_csv_text(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// How a ledger category reads in FOCUS (docs/report.md "FOCUS export"). `provider`: the plan's
// cloud offer's provider bills it; otherwise the owner does ("self").
enum class FocusQuantity { gpu_hours_on_demand, gpu_hours_spot, kwh, months, none };
struct FocusCategory {
  const char* category;
  const char* charge_category;  // Usage | Purchase | Tax | Adjustment
  const char* service_category;
  const char* service_name;
  bool provider;
  FocusQuantity quantity;
  const char* pricing_category;  // "" for none
};
constexpr FocusCategory kFocusCategories[] = {
    {"capex", "Purchase", "Compute", "Owned GPU servers", false, FocusQuantity::months, ""},
    {"financing_interest", "Adjustment", "Compute", "Financing of owned GPU servers", false, FocusQuantity::none, ""},
    {"lease", "Purchase", "Compute", "Leased GPU servers", false, FocusQuantity::months, ""},
    {"maintenance", "Purchase", "Compute", "Maintenance of owned GPU servers", false, FocusQuantity::months, ""},
    {"facility", "Purchase", "Other", "Data centre space and cooling", false, FocusQuantity::months, ""},
    {"energy", "Usage", "Other", "Electricity", false, FocusQuantity::kwh, ""},
    {"staff", "Purchase", "Other", "Operations staff", false, FocusQuantity::months, ""},
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
    {"repair", "Purchase", "Compute", "Repair of owned GPU servers", false, FocusQuantity::months, ""},
    {"api", "Usage", "AI and Machine Learning", "Model API tokens", true, FocusQuantity::months, ""},
};

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

// What every row of one plan shares.
struct FocusPlan {
  std::string scenario, plan, kind, statistic, account_id;
  std::string provider, region, offer_id, server_id;
  std::string api_name, api_provider;  // a plan that buys tokens: "openrouter/deepseek/deepseek-r1-0528", "openrouter"
  Date start;
  const Json* monthly = nullptr;
  const Json* gpu_hours = nullptr;
  double facility_kwh = 0.0;
  bool reserved_used_counts_commitments = false;  // a discrete-event report (engine/des/cloud/cloud_runs.hpp)
};

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
  void plain(const FocusCategory& map, int m, double usd, double total_usd, bool one_time) {
    FocusRow r = base(map.category, m, map.provider);
    const std::string category = map.charge_category;
    r.text["ChargeCategory"] = category;
    r.text["ServiceCategory"] = map.service_category;
    r.text["ServiceName"] = map.service_name;
    r.text["ChargeFrequency"] = category == "Usage" ? "Usage-Based" : one_time ? "One-Time" : "Recurring";
    if (*map.pricing_category) r.text["PricingCategory"] = map.pricing_category;
    set_costs(r, usd, usd);
    if (category == "Tax") r.text.erase("SkuId");
    if (category == "Usage" || category == "Purchase") {
      const auto [quantity, unit] = quantity_of(map, usd, total_usd, one_time);
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

 private:
  // GPU-hours and kWh: the plan's figure for the horizon, allocated to the month by cost share.
  std::pair<double, std::string> quantity_of(const FocusCategory& map, double usd, double total_usd,
                                             bool one_time) const {
    const double share = total_usd != 0.0 ? usd / total_usd : 0.0;
    switch (map.quantity) {
      case FocusQuantity::gpu_hours_on_demand:
        return {c_.gpu_hours->at("on_demand_billed").get<double>() * share, kFocusGpuHours};
      case FocusQuantity::gpu_hours_spot: return {c_.gpu_hours->at("spot_billed").get<double>() * share, kFocusGpuHours};
      case FocusQuantity::kwh: return {c_.facility_kwh * share, "kWh"};
      case FocusQuantity::months:
      case FocusQuantity::none: break;
    }
    return one_time ? std::pair{1.0, std::string("Units")} : std::pair{1.0, std::string("Months")};
  }

  const FocusPlan& c_;
  std::vector<FocusRow>& out_;
};

// One commitment instrument's rows: `billed_by_month` its bills (when paid), `effective_by_month`
// the same dollars over the months it covers; used_share splits the Usage rows Used / Unused.
struct FocusInstrument {
  std::string id, name, type, category;  // category: Usage | Spend (FOCUS CommitmentDiscountCategory)
  std::vector<double> billed_by_month, effective_by_month;
  std::vector<double> gpu_hours_by_month;  // committed GPU-hours of each effective month
  double used_share = 1.0;                 // of the effective dollars and GPU-hours
  bool prepaid = false;                    // paid at purchase (One-Time), else each month (Recurring)
};

void focus_instrument_rows(FocusPlanRows& rows, const FocusInstrument& in, std::vector<FocusRow>& out) {
  const bool spend = in.category == "Spend";
  auto commitment = [&](FocusRow& r, double gpu_hours, double usd) {
    r.text["CommitmentDiscountId"] = in.id;
    r.text["CommitmentDiscountName"] = in.name;
    r.text["CommitmentDiscountType"] = in.type;
    r.text["CommitmentDiscountCategory"] = in.category;
    r.number["CommitmentDiscountQuantity"] = spend ? usd : gpu_hours;
    r.text["CommitmentDiscountUnit"] = spend ? "USD" : kFocusGpuHours;
    r.text["ServiceCategory"] = "Compute";
    r.text["ServiceName"] = "GPU instances";
  };
  const int months = static_cast<int>(in.billed_by_month.size());
  for (int m = 0; m < months; ++m) {
    if (in.billed_by_month[m] != 0.0) {
      FocusRow r = rows.base("cloud_reserved", m, true);
      r.text["ChargeCategory"] = "Purchase";
      r.text["ChargeFrequency"] = in.prepaid ? "One-Time" : "Recurring";
      FocusPlanRows::set_costs(r, in.billed_by_month[m], 0.0);  // covers future charges: EffectiveCost 0
      double gpu_hours = 0.0;
      if (in.prepaid) {
        for (double h : in.gpu_hours_by_month) gpu_hours += h;  // a block's GPU-hours at its booking
        double billed = 0.0;
        for (double b : in.billed_by_month) billed += b;
        gpu_hours *= billed != 0.0 ? in.billed_by_month[m] / billed : 0.0;
      } else {
        gpu_hours = in.gpu_hours_by_month[m];
      }
      FocusPlanRows::set_quantity(r, spend ? in.billed_by_month[m] : gpu_hours, spend ? "USD" : kFocusGpuHours, false);
      commitment(r, gpu_hours, in.billed_by_month[m]);
      out.push_back(std::move(r));
    }
    if (in.effective_by_month[m] == 0.0) continue;
    for (const bool used : {true, false}) {
      const double share = used ? in.used_share : 1.0 - in.used_share;
      if (share <= 0.0) continue;
      FocusRow r = rows.base("cloud_reserved", m, true);
      const double usd = in.effective_by_month[m] * share, gpu_hours = in.gpu_hours_by_month[m] * share;
      r.text["ChargeCategory"] = "Usage";
      r.text["ChargeFrequency"] = "Usage-Based";
      r.text["PricingCategory"] = "Committed";
      r.text["CommitmentDiscountStatus"] = used ? "Used" : "Unused";
      FocusPlanRows::set_costs(r, 0.0, usd);
      r.number["ListCost"] = r.number["ContractedCost"] = usd;
      FocusPlanRows::set_quantity(r, spend ? usd : gpu_hours, spend ? "USD" : kFocusGpuHours, used);
      if (used && spend) {  // consumed GPU-hours, whatever the commitment counts in
        r.number["ConsumedQuantity"] = gpu_hours;
        r.text["ConsumedUnit"] = kFocusGpuHours;
      }
      commitment(r, gpu_hours, usd);
      out.push_back(std::move(r));
    }
  }
}

// The capacity blocks of the plan's echoed commitments, their bills where block_windows books them.
// `pointer`: the input plan's, for a block whose echo no scenario could have held (a report edited by hand).
std::vector<FocusInstrument> focus_block_instruments(const FocusPlan& c, const Json& input_plan, const Json& figures,
                                                     int months, const std::string& file, const std::string& pointer) {
  std::vector<FocusInstrument> out;
  if (!input_plan.contains("commitments")) return out;
  const long horizon_h = static_cast<long>(months) * kHoursPerMonth;
  const double gpus_per_instance = input_plan.at("cloud").at("offer").at("gpus_per_instance").get<double>();
  for (std::size_t k = 0; k < input_plan.at("commitments").size(); ++k) {
    const Json& e = input_plan.at("commitments").at(k);
    if (e.at("kind") != "capacity_block") continue;
    Commitment b;
    b.kind = Commitment::Kind::capacity_block;
    b.name = e.at("name").get<std::string>();
    b.start_day = e.at("start_day").get<int>();
    b.days = e.at("days").get<int>();
    b.instances = e.at("instances").get<int>();
    b.lead_days = e.value("lead_days", 0);
    if (e.contains("repeat_every_days") && !e.at("repeat_every_days").is_null())
      b.repeat_every_days = e.at("repeat_every_days").get<int>();
    b.usd_per_instance_hour = e.at("usd_per_instance_hour").get<double>();
    if (b.start_day < 0 || b.days < 1 || b.instances < 0 || b.lead_days < 0 ||
        (b.repeat_every_days && *b.repeat_every_days < b.days) || !std::isfinite(b.usd_per_instance_hour))
      throw InputError(file, fmt::format("{}/commitments/{}", pointer, k),
                       "not a capacity block a scenario could hold (start_day, lead_days >= 0, days >= 1, "
                       "repeat_every_days >= days)");
    FocusInstrument in{c.plan + "/" + b.name, b.name, "Capacity Block", "Usage", {}, {}, {}, 1.0, true};
    in.prepaid = true;
    in.billed_by_month.assign(months, 0.0);
    in.effective_by_month.assign(months, 0.0);
    in.gpu_hours_by_month.assign(months, 0.0);
    for (const BlockWindow& w : block_windows(b, horizon_h)) {
      const double usd = b.instances * static_cast<double>(w.end_h - w.start_h) * b.usd_per_instance_hour;
      in.billed_by_month[std::clamp(month_of_hour(w.booked_h), 0, months - 1)] += usd;
      for (long h = w.start_h; h < w.end_h;) {  // the block's hours, month by month
        const int m = std::min(month_of_hour(h), months - 1);
        const long month_end = std::min<long>(static_cast<long>(m + 1) * kHoursPerMonth, w.end_h);
        const long hours = std::max<long>(month_end, h + 1) - h;  // block_windows ends inside the horizon
        in.effective_by_month[m] += usd * static_cast<double>(hours) / static_cast<double>(w.end_h - w.start_h);
        in.gpu_hours_by_month[m] += static_cast<double>(hours) * b.instances * gpus_per_instance;
        h += hours;
      }
    }
    for (const Json& f : figures)
      if (f.at("name") == b.name && f.at("committed_usd").get<double>() > 0.0)
        in.used_share = std::clamp(f.at("used_usd").get<double>() / f.at("committed_usd").get<double>(), 0.0, 1.0);
    out.push_back(std::move(in));
  }
  return out;
}

// The rest of cloud_reserved, paid month by month: reserved instances and the other commitments
// (take-or-pay, savings plans), as one instrument when the plan has one kind, else combined.
FocusInstrument focus_monthly_instrument(const FocusPlan& c, const Json& input_plan, const Json& report_plan,
                              std::vector<double> usd_by_month) {
  std::vector<const Json*> others;
  if (input_plan.contains("commitments"))
    for (const Json& e : input_plan.at("commitments"))
      if (e.at("kind") != "capacity_block") others.push_back(&e);
  const bool reserved = input_plan.value("reserved_instances", 0) > 0;
  FocusInstrument in;
  const Json& g = *c.gpu_hours;
  double paid_gpu_hours = g.at("reserved_paid").get<double>(), used_gpu_hours = g.at("reserved_used").get<double>();
  if (c.reserved_used_counts_commitments)  // the replay's reserved_used: what the commitments served as well
    for (const Json& f : report_plan.value("commitments", Json::array()))
      if (f.at("used_gpu_hours").is_number()) used_gpu_hours -= f.at("used_gpu_hours").get<double>();
  if (reserved && others.empty()) {
    in = FocusInstrument{c.plan + "/reserved-instances", "reserved instances", "Reserved Instance", "Usage",
                    usd_by_month, usd_by_month, {}, 1.0, false};
  } else if (!reserved && others.size() == 1) {
    const Json& e = *others.front();
    const std::string name = e.at("name").get<std::string>();
    const bool savings_plan = e.at("kind") == "savings_plan";
    in = FocusInstrument{c.plan + "/" + name, name, savings_plan ? "Savings Plan" : "Take-or-Pay Contract",
                    savings_plan ? "Spend" : "Usage", usd_by_month, usd_by_month, {}, 1.0, false};
    paid_gpu_hours = used_gpu_hours = 0.0;
    for (const Json& f : report_plan.value("commitments", Json::array()))
      if (f.at("name") == name) {
        paid_gpu_hours = f.at("committed_gpu_hours").is_number() ? f.at("committed_gpu_hours").get<double>() : 0.0;
        used_gpu_hours = f.at("used_gpu_hours").is_number() ? f.at("used_gpu_hours").get<double>() : 0.0;
        if (f.at("committed_usd").get<double>() > 0.0)
          in.used_share = std::clamp(f.at("used_usd").get<double>() / f.at("committed_usd").get<double>(), 0.0, 1.0);
      }
  } else {
    in = FocusInstrument{c.plan + "/commitments", "reserved instances and commitments", "Reserved Capacity", "Usage",
                    usd_by_month, usd_by_month, {}, 1.0, false};
  }
  if (in.type == "Reserved Instance" && paid_gpu_hours > 0.0)
    in.used_share = std::clamp(used_gpu_hours / paid_gpu_hours, 0.0, 1.0);
  double total = 0.0;
  for (double u : usd_by_month) total += u;
  in.gpu_hours_by_month.assign(usd_by_month.size(), 0.0);
  for (std::size_t m = 0; m < usd_by_month.size(); ++m)
    in.gpu_hours_by_month[m] = total != 0.0 ? paid_gpu_hours * usd_by_month[m] / total : 0.0;
  return in;
}

// A few ulps of the ledger's sums the recomputed bills miss: onto the instrument's first bill and
// first covered month, so the totals stay exact without a row of nothing.
void add_rounding(FocusInstrument& in, double usd) {
  const auto first = [](std::vector<double>& v) -> double& {
    for (double& x : v)
      if (x != 0.0) return x;
    return v.front();
  };
  first(in.billed_by_month) += usd;
  first(in.effective_by_month) += usd;
}

// The pointer of the input plan named `name` ("" when none is).
std::string focus_input_plan(const Json& report, const std::string& name) {
  const Json& plans = report.at("inputs").at("plans");
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (plans[i].is_object() && plans[i].value("name", "") == name) return fmt::format("/inputs/plans/{}", i);
  return "";
}

void focus_plan_rows(const Json& report, std::size_t index, const FocusPlan& base, std::vector<FocusRow>& out,
               const std::string& file) {
  const Json& plan = report.at("plans").at(index);
  FocusPlan c = base;
  c.plan = plan.at("name").get<std::string>();
  c.kind = plan.at("kind").get<std::string>();
  c.account_id = c.scenario + "/" + c.plan;
  c.monthly = &plan.at("monthly");
  c.gpu_hours = &plan.at("gpu_hours");
  c.facility_kwh = plan.at("energy").at("facility_kwh").get<double>();
  const std::string input_pointer = focus_input_plan(report, c.plan);
  if (input_pointer.empty()) throw InputError(file, "/inputs/plans", "no input plan named \"" + c.plan + "\"");
  const Json* input = &report.at(Json::json_pointer(input_pointer));
  if (input->contains("cloud") && input->at("cloud").is_object()) {
    const Json& offer = input->at("cloud").at("offer");
    c.provider = offer.value("provider", "");
    c.region = offer.value("region", "");
    c.offer_id = offer.at("provenance").at("id").get<std::string>();
  }
  if (input->contains("api") && input->at("api").is_object()) {
    c.api_name = input->at("api").at("name").get<std::string>();
    c.api_provider = c.api_name.substr(0, c.api_name.find('/'));
  }
  if (input->contains("onprem") && input->at("onprem").is_object() && c.kind != "cloud")
    c.server_id = input->at("onprem").at("server").at("provenance").at("id").get<std::string>();
  FocusPlanRows rows(c, out);
  const Json& columns = c.monthly->at("columns");
  const Json& monthly_rows = c.monthly->at("rows");
  const int months = static_cast<int>(monthly_rows.size());
  if (months == 0) return;  // a horizon of no month bills nothing
  for (std::size_t k = 1; k < columns.size(); ++k) {
    const std::string cat = columns[k].get<std::string>();
    if (cat == "total_usd") break;  // the categories end there
    std::vector<double> usd(months);
    int paid_months = 0;
    for (int m = 0; m < months; ++m) paid_months += (usd[m] = monthly_rows[m].at(k).get<double>()) != 0.0;
    if (cat == "cloud_reserved") {
      std::vector<FocusInstrument> instruments =
          input->contains("cloud") && input->at("cloud").is_object()
              ? focus_block_instruments(c, *input, plan.value("commitments", Json::array()), months, file,
                                        input_pointer)
              : std::vector<FocusInstrument>{};
      for (const FocusInstrument& b : instruments)
        for (int m = 0; m < months; ++m) usd[m] -= b.billed_by_month[m];
      // What the blocks leave (a rounding's worth when they are all of it).
      if (std::any_of(usd.begin(), usd.end(), [](double u) { return std::abs(u) > 1e-6; }))
        instruments.push_back(focus_monthly_instrument(c, *input, plan, usd));
      else if (!instruments.empty())
        add_rounding(instruments.front(), std::accumulate(usd.begin(), usd.end(), 0.0));
      for (const FocusInstrument& in : instruments) focus_instrument_rows(rows, in, out);
      continue;
    }
    const FocusCategory* map = focus_category(cat);
    if (!map)
      throw InputError(file, fmt::format("/plans/{}/monthly/columns/{}", index, k),
                       "a cost category the FOCUS export does not know: \"" + cat + "\"");
    double total_usd = 0.0;
    for (double u : usd) total_usd += u;
    for (int m = 0; m < months; ++m)
      if (usd[m] != 0.0) rows.plain(*map, m, usd[m], total_usd, paid_months == 1);
  }
}

}  // namespace

const std::vector<std::string>& focus_columns() { return kFocusColumns; }

std::string focus_csv(const Json& report, const std::string& file) {
  FocusPlan base;
  base.scenario = report.at("scenario").at("name").get<std::string>();
  if (!parse_date(report.at("scenario").at("start").get<std::string>(), base.start))
    throw InputError(file, "/scenario/start", "not a date YYYY-MM-DD");
  base.statistic = report.at("monte_carlo").at("mode") == "deterministic" ? "deterministic" : "mean";
  base.reserved_used_counts_commitments = report.at("monte_carlo").at("mode") == "discrete_event";
  std::vector<FocusRow> rows;
  for (std::size_t i = 0; i < report.at("plans").size(); ++i) focus_plan_rows(report, i, base, rows, file);
  std::string out;
  for (std::size_t k = 0; k < kFocusColumns.size(); ++k) {
    if (k) out += ',';
    out += kFocusColumns[k];
  }
  out += '\n';
  for (const FocusRow& r : rows) {
    for (std::size_t k = 0; k < kFocusColumns.size(); ++k) {
      if (k) out += ",";
      if (auto n = r.number.find(kFocusColumns[k]); n != r.number.end()) out += focus_decimal(n->second);
      else if (auto t = r.text.find(kFocusColumns[k]); t != r.text.end()) out += focus_csv_text(t->second);
    }
    out += "\n";
  }
  return out;
}

}  // namespace tco
