#include "reports/focus/focus_commitments.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/commitment/commitment.hpp"

namespace tco {

namespace {

// The report plan's commitments (its own array, so a type error names the report's path), or none.
const Json& commitment_figures(const Json& report_plan) {
  static const Json kNone = Json::array();
  return report_plan.contains("commitments") ? report_plan.at("commitments") : kNone;
}

// A commitment figure's monthly array (plans[].commitments[].NAME), `months` numbers long.
std::vector<double> monthly_figure(const Json& figure, const char* name, int months) {
  std::vector<double> out = figure.at(name).get<std::vector<double>>();
  out.resize(months, 0.0);
  return out;
}

// The monthly instrument's committed and used GPU-hours month by month, from the report's own monthly
// figures: the reserved instances' (quantities_by_month) plus each other commitment's; false (nothing
// set) when the report lacks any of them (a replay's).
bool monthly_figures_of(const FocusPlan& c, FocusInstrument& in, bool reserved, const std::vector<const Json*>& others,
                        const Json& report_plan, int months) {
  std::vector<double> paid(months, 0.0), used(months, 0.0), used_usd(months, 0.0);
  if (reserved) {
    for (int m = 0; m < months; ++m) {
      const auto p = focus_month_quantity(c, "reserved_paid_gpu_hours", m);
      const auto u = focus_month_quantity(c, "reserved_used_gpu_hours", m);
      if (!p || !u) return false;
      paid[m] += *p;
      used[m] += *u;
    }
  }
  bool spend = false;
  for (const Json* e : others) {
    const Json* figure = nullptr;
    for (const Json& f : commitment_figures(report_plan))
      if (f.at("name") == e->at("name")) figure = &f;
    if (!figure || !figure->contains("committed_gpu_hours_by_month")) return false;
    const std::vector<double> p = monthly_figure(*figure, "committed_gpu_hours_by_month", months);
    const std::vector<double> u = monthly_figure(*figure, "used_gpu_hours_by_month", months);
    for (int m = 0; m < months; ++m) {
      paid[m] += p[m];
      used[m] += u[m];
    }
    if (figure->contains("used_usd_by_month")) {
      spend = true;
      const std::vector<double> d = monthly_figure(*figure, "used_usd_by_month", months);
      for (int m = 0; m < months; ++m) used_usd[m] += d[m];
    }
  }
  in.gpu_hours_by_month = paid;
  in.used_gpu_hours_by_month = used;
  in.used_share_by_month.assign(months, in.used_share);
  for (int m = 0; m < months; ++m) {
    // A savings plan's share is of its dollars (Spend); the others' of the GPU-hours they hold.
    const double bill = in.effective_by_month[m];
    if (spend && in.category == "Spend") in.used_share_by_month[m] = bill > 0.0 ? std::clamp(used_usd[m] / bill, 0.0, 1.0) : 0.0;
    else if (paid[m] > 0.0) in.used_share_by_month[m] = std::clamp(used[m] / paid[m], 0.0, 1.0);
  }
  return true;
}

}  // namespace

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
    const double used_share = in.used_share_by_month.empty() ? in.used_share : in.used_share_by_month[m];
    for (const bool used : {true, false}) {
      const double share = used ? used_share : 1.0 - used_share;
      if (share <= 0.0) continue;
      FocusRow r = rows.base("cloud_reserved", m, true);
      const double usd = in.effective_by_month[m] * share;
      double gpu_hours = in.gpu_hours_by_month[m] * share;
      if (!in.used_gpu_hours_by_month.empty()) {  // the month's own figures
        const double used_gpu_hours = std::clamp(in.used_gpu_hours_by_month[m], 0.0, in.gpu_hours_by_month[m]);
        gpu_hours = used ? used_gpu_hours : in.gpu_hours_by_month[m] - used_gpu_hours;
      }
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
    FocusInstrument in{c.plan + "/" + b.name, b.name, "Capacity Block", "Usage", {}, {}, {}, 1.0, true, {}, {}};
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
    for (const Json& f : figures) {
      if (f.at("name") != b.name) continue;
      if (f.at("committed_usd").get<double>() > 0.0)
        in.used_share = std::clamp(f.at("used_usd").get<double>() / f.at("committed_usd").get<double>(), 0.0, 1.0);
      if (f.contains("used_gpu_hours_by_month")) {  // the hourly model's months: the block's use month by month
        in.used_gpu_hours_by_month = monthly_figure(f, "used_gpu_hours_by_month", months);
        in.used_share_by_month.assign(months, 0.0);
        for (int m = 0; m < months; ++m)
          in.used_share_by_month[m] = in.gpu_hours_by_month[m] > 0.0
                                          ? std::clamp(in.used_gpu_hours_by_month[m] / in.gpu_hours_by_month[m], 0.0, 1.0)
                                          : in.used_share;
      }
    }
    out.push_back(std::move(in));
  }
  return out;
}

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
    for (const Json& f : commitment_figures(report_plan))
      if (f.at("used_gpu_hours").is_number()) used_gpu_hours -= f.at("used_gpu_hours").get<double>();
  if (reserved && others.empty()) {
    in = FocusInstrument{c.plan + "/reserved-instances", "reserved instances", "Reserved Instance", "Usage",
                    usd_by_month, usd_by_month, {}, 1.0, false, {}, {}};
  } else if (!reserved && others.size() == 1) {
    const Json& e = *others.front();
    const std::string name = e.at("name").get<std::string>();
    const bool savings_plan = e.at("kind") == "savings_plan";
    in = FocusInstrument{c.plan + "/" + name, name, savings_plan ? "Savings Plan" : "Take-or-Pay Contract",
                    savings_plan ? "Spend" : "Usage", usd_by_month, usd_by_month, {}, 1.0, false, {}, {}};
    paid_gpu_hours = used_gpu_hours = 0.0;
    for (const Json& f : commitment_figures(report_plan))
      if (f.at("name") == name) {
        paid_gpu_hours = f.at("committed_gpu_hours").is_number() ? f.at("committed_gpu_hours").get<double>() : 0.0;
        used_gpu_hours = f.at("used_gpu_hours").is_number() ? f.at("used_gpu_hours").get<double>() : 0.0;
        if (f.at("committed_usd").get<double>() > 0.0)
          in.used_share = std::clamp(f.at("used_usd").get<double>() / f.at("committed_usd").get<double>(), 0.0, 1.0);
      }
  } else {
    in = FocusInstrument{c.plan + "/commitments", "reserved instances and commitments", "Reserved Capacity", "Usage",
                    usd_by_month, usd_by_month, {}, 1.0, false, {}, {}};
  }
  if (in.type == "Reserved Instance" && paid_gpu_hours > 0.0)
    in.used_share = std::clamp(used_gpu_hours / paid_gpu_hours, 0.0, 1.0);
  const int months = static_cast<int>(usd_by_month.size());
  if (monthly_figures_of(c, in, reserved, others, report_plan, months)) return in;
  double total = 0.0;
  for (double u : usd_by_month) total += u;
  in.gpu_hours_by_month.assign(usd_by_month.size(), 0.0);
  for (std::size_t m = 0; m < usd_by_month.size(); ++m)
    in.gpu_hours_by_month[m] = total != 0.0 ? paid_gpu_hours * usd_by_month[m] / total : 0.0;
  return in;
}

void add_rounding(FocusInstrument& in, double usd) {
  const auto first = [](std::vector<double>& v) -> double& {
    for (double& x : v)
      if (x != 0.0) return x;
    return v.front();
  };
  first(in.billed_by_month) += usd;
  first(in.effective_by_month) += usd;
}

}  // namespace tco
