#include "reports/workbook/live_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tco {

namespace {

constexpr int kHoursInMonth = 730;
constexpr double kHoursInYear = 8760.0;

enum Kind {
  on_demand,
  spot,
  reserved,
  egress,
  energy,
  capex,
  lease,
  maintenance,
  facility,
  staff,
  residual,
  interest,
  // The run's figure scaled by its price: price cell x (the run's figure / the price).
  scaled_on_demand,
  scaled_spot,
  scaled_energy
};

bool dispatch_kind(int kind) { return kind == on_demand || kind == spot || kind == egress || kind == energy; }

const std::vector<std::pair<std::string, Kind>>& categories() {
  static const std::vector<std::pair<std::string, Kind>> all = {{"cloud_on_demand", on_demand},
                                                                {"cloud_spot", spot},
                                                                {"cloud_reserved", reserved},
                                                                {"egress", egress},
                                                                {"energy", energy},
                                                                {"capex", capex},
                                                                {"lease", lease},
                                                                {"maintenance", maintenance},
                                                                {"facility", facility},
                                                                {"staff", staff},
                                                                {"residual", residual},
                                                                {"financing_interest", interest}};
  return all;
}

// The inputs each kind reads (keys under inputs.plans[NAME]).
const std::vector<std::string> kCloudKeys = {"cloud.offer.on_demand_usd_per_hour",
                                             "cloud.offer.gpus_per_instance",
                                             "cloud.gpu.perf_relative",
                                             "cloud.price_change_per_year",
                                             "spot_share",
                                             "cloud.spot.availability",
                                             "cloud.packing_efficiency",
                                             "reserved_instances"};
const std::vector<std::string> kOnPremKeys = {"onprem_nodes", "onprem.purchase_month", "onprem.server.gpus",
                                              "onprem.packing_efficiency", "onprem.gpu.perf_relative"};
const std::vector<std::string> kEnergyKeys = {"onprem.server.idle_kw", "onprem.server.peak_kw", "onprem.cooling.pue",
                                              "onprem.power.tariff.usd_per_kwh", "onprem.power.escalation_per_year"};
const std::vector<std::string> kOwnKeys = {"onprem_nodes",
                                           "onprem.purchase_month",
                                           "onprem.server.price_usd",
                                           "onprem.network_usd_per_node",
                                           "onprem.storage_usd_per_node",
                                           "onprem.install_usd_per_node",
                                           "onprem.room_capex_usd",
                                           "onprem.maintenance_per_year",
                                           "onprem.staff.fixed_fte",
                                           "onprem.staff.fte_per_node",
                                           "onprem.staff.usd_per_fte_year",
                                           "onprem.staff.escalation_per_year",
                                           "onprem.residual.enabled",
                                           "onprem.residual.resale_decline_per_year",
                                           "onprem.server.peak_kw",
                                           "onprem.cooling.rack_limit_kw"};

constexpr const char* kOwnsNothing = "the plan owns nothing";
constexpr const char* kRentsNothing = "the plan rents nothing";
constexpr const char* kBuys = "the plan buys its nodes";

const std::vector<std::string> kLoanKeys = {"onprem.financing.apr", "onprem.financing.term_months",
                                            "onprem.financing.down_payment_fraction"};

bool truthy(const Json& j, const char* key) {
  return j.contains(key) && !j.at(key).is_null() && !(j.at(key).is_boolean() && !j.at(key).get<bool>()) &&
         !(j.at(key).is_array() && j.at(key).empty());
}

double number_at(const Json& j, const std::string& pointer) {
  const Json::json_pointer p(pointer);
  return j.contains(p) && j.at(p).is_number() ? j.at(p).get<double>() : 0.0;
}

std::string ceil_instances(const std::string& gpus, const std::string& gpi) {
  return fmt::format("(({0})>1e-9)*-INT(-(({0})/{1}-1e-9))", gpus, gpi);
}

double ceil_instances(double gpus, double gpi) { return gpus <= 1e-9 ? 0.0 : std::ceil(gpus / gpi - 1e-9); }

// Category `column` of every month as factor x the sum of the bill columns it is a share of, when
// every month follows that one factor (to 1e-9).
std::optional<LivePlan::BillShare> bill_share_of(const std::string& category, const Json& columns, const Json& rows,
                                                 std::size_t column) {
  std::vector<std::string> bills;
  if (category == "support")
    bills = {"cloud_on_demand", "cloud_spot", "cloud_reserved", "storage", "network", "cpu_vms"};
  else if (category == "lost_work")
    bills = {"cloud_on_demand", "cloud_spot", "cloud_reserved"};
  else
    return std::nullopt;
  LivePlan::BillShare share;
  std::vector<std::size_t> at;
  for (const std::string& name : bills)
    for (std::size_t k = 1; k < columns.size(); ++k)
      if (columns[k] == name) {
        at.push_back(k);
        share.of.push_back(name);
      }
  const auto base = [&](const Json& row) {
    double usd = 0.0;
    for (std::size_t k : at) usd += row.at(k).get<double>();
    return usd;
  };
  double value_usd = 0.0, base_usd = 0.0;
  for (const Json& row : rows) {
    value_usd += row.at(column).get<double>();
    base_usd += base(row);
  }
  if (!(base_usd > 0.0)) return std::nullopt;
  share.factor = value_usd / base_usd;
  for (const Json& row : rows) {
    const double want = row.at(column).get<double>(), got = share.factor * base(row);
    if (std::abs(got - want) > 1e-9 * std::max(std::abs(got), std::abs(want)) + 1e-6) return std::nullopt;
  }
  return share;
}

}  // namespace

LivePlan::LivePlan(const Json& plan, const Json& inputs, const InputCells& cells, const HoursSheet& hours,
                   int horizon_months, bool replay, bool next_generation)
    : plan_name_(plan.at("name").get<std::string>()), hours_(hours), horizon_months_(horizon_months) {
  const std::string prefix = "inputs.plans[" + plan_name_ + "].";
  for (const auto& [name, cell] : cells)
    if (name.compare(0, prefix.size(), prefix) == 0) {
      refs_[name.substr(prefix.size())] = cell.ref;
      values_[name.substr(prefix.size())] = cell.value;
    }
  const Json& onprem = inputs.contains("onprem") ? inputs.at("onprem") : Json();
  const Json& cloud = inputs.contains("cloud") ? inputs.at("cloud") : Json();
  owned_ = onprem.is_object();
  leased_ = owned_ && onprem.at("financing").value("type", "") == "lease";
  loan_ = owned_ && onprem.at("financing").value("type", "") == "loan";
  colocated_ = owned_ && onprem.contains("colocation") && onprem.at("colocation").is_object();

  // Why the hourly flows (cloud bills, egress, energy) cannot be formulas.
  std::string dispatch_why;
  if (replay)
    dispatch_why = "the discrete-event replay's queue decides them (means over the paths)";
  else if (!hours.demand_gpus)
    dispatch_why = "no hourly demand in a workbook rebuilt from a saved report (tcosim run --xlsx writes it)";
  else if (inputs.value("kind", "") == "onprem")
    dispatch_why = "an on-prem plan queues what it cannot serve (a backlog carried hour to hour)";
  else if (truthy(inputs, "venues"))
    dispatch_why = "the plan's venues";
  else if (truthy(inputs, "commitments"))
    dispatch_why = "the plan's commitments";
  else if (truthy(inputs, "refresh"))
    dispatch_why = "the plan's refresh";
  else if (cloud.is_object() && truthy(cloud, "price_schedule"))
    dispatch_why = "the offer's dated price schedule";
  else if (owned_ && (truthy(onprem, "spares") || truthy(onprem, "procurement") || truthy(onprem, "site")))
    dispatch_why = "spares, procurement or a site power cap";
  else if (owned_ && truthy(onprem, "ambient") && truthy(onprem.at("ambient"), "throttle_above_c"))
    dispatch_why = "throttling in hot hours (the ambient temperature)";
  std::string energy_why = dispatch_why;
  if (energy_why.empty() && owned_) {
    if (truthy(onprem, "ambient"))
      energy_why = "the ambient temperature (hourly PUE and throttling)";
    else if (onprem.at("cooling").value("pue_model", "") != "constant")
      energy_why = "a PUE that varies with the temperature";
    else if (onprem.at("power").at("tariff").value("type", "") != "flat")
      energy_why = "a tariff that varies by hour";
    else if (number_at(onprem, "/power/demand_charge_usd_per_kw_month") > 0.0)
      energy_why = "the demand charge on the month's peak kW";
    else if (number_at(onprem, "/carbon/usd_per_tonne") > 0.0)
      energy_why = "the carbon price";
  }
  // Why the ownership costs cannot be formulas.
  std::string own_why;
  if (owned_) {
    const std::string financing = onprem.at("financing").value("type", "");
    if (truthy(inputs, "refresh"))
      own_why = "the plan's refresh";
    else if (truthy(onprem, "procurement"))
      own_why = "procurement (deposit and delivery)";
    else if (truthy(onprem, "spares"))
      own_why = "spare nodes";
    else if (financing == "loan" &&
             !(number_at(onprem, "/financing/apr") > 0.0 && number_at(onprem, "/financing/term_months") >= 1.0))
      own_why = "a loan at 0% or of no term";
    else if (onprem.contains("residual") && truthy(onprem.at("residual"), "follows_cloud_price"))
      own_why = "a resale price that follows the cloud price";
  }
  // Prices that scale a figure of the run, where the hours cannot be formulas.
  const bool own_prices = cloud.is_object() && !truthy(inputs, "venues") && !truthy(inputs, "commitments") &&
                          !truthy(cloud, "price_schedule");
  const bool power_linear = owned_ && onprem.at("cooling").value("pue_model", "") == "constant" &&
                            onprem.at("power").at("tariff").value("type", "") == "flat" &&
                            number_at(onprem, "/power/demand_charge_usd_per_kw_month") == 0.0;

  auto need = [&](const std::vector<std::string>& keys) {
    return std::all_of(keys.begin(), keys.end(), [&](const std::string& k) { return has(k); });
  };
  const Json& columns = plan.at("monthly").at("columns");
  const Json& rows = plan.at("monthly").at("rows");
  std::vector<std::pair<std::size_t, std::string>> reasons;  // column -> why it is not live ("" live)
  std::string dispatch_mismatch;
  for (std::size_t c = 1; c < columns.size() && columns[c] != "total_usd"; ++c) {
    const std::string category = columns[c].get<std::string>();
    const auto found =
        std::find_if(categories().begin(), categories().end(), [&](const auto& p) { return p.first == category; });
    std::string why;
    if (const auto share = found == categories().end() ? bill_share_of(category, columns, rows, c) : std::nullopt) {
      bill_shares_[category] = *share;
    } else if (found == categories().end()) {
      why = category == "waiting"      ? "the wait is the queue's"
            : category == "tax_shield" ? "the tax shield follows the depreciation schedules"
            : category == "carbon"     ? "the carbon price is not modelled in the sheet"
                                       : "not modelled in the sheet";
    } else {
      const Kind kind = found->second;
      const bool cloud_kind = kind == on_demand || kind == spot || kind == reserved || kind == egress;
      const bool own_kind = kind == capex || kind == lease || kind == maintenance || kind == facility ||
                            kind == staff || kind == residual || kind == interest;
      if (cloud_kind) {
        why = !cloud.is_object() ? kRentsNothing : dispatch_why;
        if (why.empty() && next_generation && kind != egress) why = "the next generation's price step";
        if (why.empty() && !need(kCloudKeys)) why = "an input it needs is not a number";
        if (why.empty() && owned_ && !need(kOnPremKeys)) why = "an input it needs is not a number";
        if (why.empty() && kind == spot &&
            (!has("cloud.offer.spot_usd_per_hour") || !has("cloud.spot_overhead_factor") ||
             number_at(cloud, "/spot/preemptions_per_instance_hour") > 0.0))
          why = "spot preemptions (an expected preemption factor), or no spot price";
        if (why.empty() && kind == reserved && !has("reserved_term_years"))
          why = "a reserved term other than 1 or 3 years (reserved_term_months)";
        if (why.empty() && kind == reserved &&
            !has(v("reserved_term_years") == 3 ? "cloud.offer.reserved_3y_usd_per_hour"
                                               : "cloud.offer.reserved_1y_usd_per_hour"))
          why = "the offer has no reserved price for the term";
        if (why.empty() && kind == egress && (!has("cloud.egress_gb_per_gpu_hour") || !has("cloud.egress_usd_per_gb")))
          why = "an input it needs is not a number";
      } else if (kind == energy) {
        why = !owned_ ? kOwnsNothing : energy_why;
        if (why.empty() && (!need(kOnPremKeys) || !need(kEnergyKeys))) why = "an input it needs is not a number";
      } else if (own_kind) {
        why = !owned_ ? kOwnsNothing : own_why;
        if (why.empty() && !need(kOwnKeys)) why = "an input it needs is not a number";
        if (why.empty() && kind == lease && (!leased_ || !has("onprem.financing.usd_per_node_month")))
          why = leased_ ? "an input it needs is not a number" : kBuys;
        if (why.empty() && (kind == maintenance && leased_) && !has("onprem.financing.maintenance_included"))
          why = "an input it needs is not a number";
        if (why.empty() && kind == residual && next_generation) why = "the next generation's resale step";
        if (why.empty() && (kind == interest || kind == capex) && loan_ && !need(kLoanKeys))
          why = "an input it needs is not a number";
        if (why.empty() && kind == interest && !loan_) why = kBuys;
        if (why.empty() && kind == facility && colocated_ &&
            (!has("onprem.colocation.usd_per_kw_month") || !has("onprem.colocation.usd_per_rack_month")))
          why = "an input it needs is not a number";
      }
      // The check: the formulas' values are the run's, month by month.
      for (int m = 0; why.empty() && m < static_cast<int>(rows.size()); ++m) {
        const double want = rows[m].at(c).get<double>(), got = value(kind, m);
        if (std::abs(got - want) > 1e-9 * std::max(std::abs(got), std::abs(want)) + 1e-6)
          why = fmt::format(
              "the sheet's formula gives {:.6f} in month {}, the run {:.6f} (something the formulas leave "
              "out)",
              got, m, want);
      }
      if (why.empty()) live_[category] = kind;
      if (why.empty() || !dispatch_kind(kind)) {
      } else if (dispatch_mismatch.empty() && why.compare(0, 20, "the sheet's formula ") == 0) {
        dispatch_mismatch = category + ": " + why;
      }
    }
    reasons.emplace_back(c, why);
  }
  // The cloud bills, egress and energy share the hour's dispatch: one that the formulas do not
  // reproduce makes all of them suspect.
  for (auto& [c, why] : reasons) {
    const std::string category = columns[c].get<std::string>();
    const auto it = live_.find(category);
    if (!dispatch_mismatch.empty() && it != live_.end() && dispatch_kind(it->second)) {
      live_.erase(it);
      why = "the hour's dispatch, as in " + dispatch_mismatch;
    }
  }
  for (auto& [c, why] : reasons) {
    const std::string category = columns[c].get<std::string>();
    const auto column = c;  // clang 14 cannot capture a structured binding
    const bool all_zero =
        std::all_of(rows.begin(), rows.end(), [&](const Json& row) { return row.at(column) == 0.0; });
    // Not live in the hours, but the figure is a price times the run's quantity: live in the price.
    if (!why.empty() && !all_zero && why != kOwnsNothing && why != kRentsNothing) {
      const std::string reserved_price = has("reserved_term_years") && v("reserved_term_years") == 3
                                             ? "cloud.offer.reserved_3y_usd_per_hour"
                                             : "cloud.offer.reserved_1y_usd_per_hour";
      const std::pair<const char*, std::vector<std::string>> scalable[] = {
          {"cloud_on_demand", {"cloud.offer.on_demand_usd_per_hour"}},
          {"cloud_spot", {"cloud.offer.spot_usd_per_hour"}},
          {"cloud_reserved", {reserved_price}},
          {"energy", {"onprem.cooling.pue", "onprem.power.tariff.usd_per_kwh"}}};
      for (const auto& [name, prices] : scalable) {
        if (category != name || !(category == "energy" ? power_linear : own_prices) || !need(prices)) continue;
        if (category == "cloud_reserved" && !has("reserved_term_years")) continue;  // a term in months
        double product = 1.0;
        for (const std::string& p : prices) product *= v(p);
        if (!(product > 0.0)) continue;
        Scaled& scaled = scaled_[category];
        scaled.prices = prices;
        for (const Json& row : rows) scaled.quantity.push_back(row.at(c).get<double>() / product);
        live_[category] = category == "energy"       ? scaled_energy
                          : category == "cloud_spot" ? scaled_spot
                                                     : scaled_on_demand;
        std::string cells_named;
        for (const std::string& p : prices) cells_named += (cells_named.empty() ? "" : " and ") + p;
        why_scaled_[category] = "live in " + cells_named + " only, the quantities being the run's: " + why;
        why.clear();
      }
    }
    const bool beside_the_plan = why == kOwnsNothing || why == kRentsNothing || why == kBuys;
    if (beside_the_plan && all_zero) continue;  // a category the plan cannot have: nothing to say
    if (!why.empty() && all_zero)
      zero_.push_back(category);
    else if (!why.empty())
      why_not_[category] = why;
  }
  check_start_of_month(plan);
}

void LivePlan::check_start_of_month(const Json& plan) {
  const Json& columns = plan.at("monthly").at("columns");
  std::size_t c_start = 0, c_capex = 0, c_lease = 0;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] == "start_of_month_usd") c_start = c;
    if (columns[c] == "capex") c_capex = c;
    if (columns[c] == "lease") c_lease = c;
  }
  start_live_ = c_start > 0 && c_capex > 0 && live("capex") && (!leased_ || live("lease"));
  for (const Json& row : plan.at("monthly").at("rows")) {
    if (!start_live_) break;
    const double want = row.at(c_start).get<double>();
    const double got =
        loan_ ? start_of_month_value(row.at(0).get<int>())
              : row.at(c_capex).get<double>() + (leased_ && c_lease > 0 ? row.at(c_lease).get<double>() : 0.0);
    start_live_ = std::abs(got - want) <= 1e-9 * std::max(std::abs(got), std::abs(want)) + 1e-6;
  }
}

std::string LivePlan::start_of_month_formula(const std::string& mc, const std::string& capex_cell,
                                             const std::string& lease_cell) const {
  if (!loan_) return capex_cell + (leased_ && !lease_cell.empty() ? "+" + lease_cell : "");
  const std::string amount = fmt::format("({}*({}+{}+{}+{})+{})", r("onprem_nodes"), r("onprem.server.price_usd"),
                                         r("onprem.network_usd_per_node"), r("onprem.storage_usd_per_node"),
                                         r("onprem.install_usd_per_node"), r("onprem.room_capex_usd"));
  return fmt::format("({}={})*{}*{}", mc, r("onprem.purchase_month"), amount,
                     r("onprem.financing.down_payment_fraction"));
}

double LivePlan::start_of_month_value(int m) const {
  if (m != v("onprem.purchase_month")) return 0.0;
  return (v("onprem_nodes") * (v("onprem.server.price_usd") + v("onprem.network_usd_per_node") +
                               v("onprem.storage_usd_per_node") + v("onprem.install_usd_per_node")) +
          v("onprem.room_capex_usd")) *
         v("onprem.financing.down_payment_fraction");
}

std::optional<std::string> LivePlan::formula(const std::string& category, int m, const std::string& mc) const {
  const auto it = live_.find(category);
  if (it == live_.end()) return std::nullopt;
  if (const auto scaled = scaled_.find(category); scaled != scaled_.end()) {
    std::string out;
    for (const std::string& p : scaled->second.prices) out += r(p) + "*";
    return out + fmt::format("{:.17g}", scaled->second.quantity.at(m));
  }
  return text(it->second, m, mc);
}

const LivePlan::BillShare* LivePlan::bill_share(const std::string& category) const {
  const auto it = bill_shares_.find(category);
  return it == bill_shares_.end() ? nullptr : &it->second;
}

std::vector<std::string> LivePlan::notes() const {
  std::vector<std::string> out;
  std::string live;
  for (const auto& [category, kind] : live_)
    if (!scaled_.count(category)) live += (live.empty() ? "" : ", ") + category;
  out.push_back(
      live.empty()
          ? "No column is live in its hours: see below."
          : "Live columns (green headers; formulas over the Inputs sheet's cells and the Hours sheet's demand): " +
                live + ".");
  std::string shares;
  for (const auto& [category, share] : bill_shares_) {
    std::string of;
    for (const std::string& bill : share.of) of += (of.empty() ? "" : " + ") + bill;
    shares += fmt::format("{}{} = {:.6g} x ({})", shares.empty() ? "" : "; ", category, share.factor, of);
  }
  if (!shares.empty())
    out.push_back("Shares of the month's bills (green headers; formulas over the columns of the row): " + shares + ".");
  std::string scaled;
  for (const auto& [category, why] : why_scaled_) scaled += (scaled.empty() ? "" : "; ") + category + ": " + why;
  if (!scaled.empty()) out.push_back("Live in their prices only: " + scaled + ".");
  std::string not_live;
  for (const auto& [category, why] : why_not_) not_live += (not_live.empty() ? "" : "; ") + category + ": " + why;
  if (!not_live.empty()) out.push_back("Not live (the run's values): " + not_live + ".");
  std::string zero;
  for (const std::string& category : zero_) zero += (zero.empty() ? "" : ", ") + category;
  if (!zero.empty()) out.push_back("0 in every month, and not live: " + zero + ".");
  return out;
}

std::string LivePlan::text(int kind, int m, const std::string& mc) const {
  const int first = hours_.first_row + m * kHoursInMonth + 1, last = first + kHoursInMonth - 1;
  const std::string sheet = "'" + hours_.name + "'!";
  const std::string d = fmt::format("{}$B${}:$B${}", sheet, first, last);
  const std::string h = fmt::format("{}$A${}:$A${}", sheet, first, last);
  const std::string nodes_up =
      owned_ ? fmt::format("({}>={})*{}", mc, r("onprem.purchase_month"), r("onprem_nodes")) : "";
  // On-prem GPUs jobs can fill, and the work they do in an hour (reference GPU-hours).
  const std::string cap_gpus =
      owned_ ? fmt::format("{}*{}*{}", nodes_up, r("onprem.server.gpus"), r("onprem.packing_efficiency")) : "0";
  const std::string cap_work = owned_ ? fmt::format("{}*{}", cap_gpus, r("onprem.gpu.perf_relative")) : "0";
  switch (kind) {
    case on_demand:
    case spot: {
      const std::string z = fmt::format("(({}-{})/{}-{}*{})", d, cap_work, r("cloud.gpu.perf_relative"),
                                        r("reserved_instances"), r("cloud.offer.gpus_per_instance"));
      const std::string rest = fmt::format("({0}*({0}>0))", z);
      const std::string share = r("spot_share"), q = r("cloud.packing_efficiency");
      const std::string gpi = r("cloud.offer.gpus_per_instance"), a = r("cloud.spot.availability");
      const std::string growth = fmt::format("(1+{})^({}/8760)", r("cloud.price_change_per_year"), h);
      if (kind == spot)
        return fmt::format("SUMPRODUCT({}*{}*{}*{}*{})",
                           ceil_instances(fmt::format("{}*{}*(1/{})", rest, share, q), gpi),
                           r("cloud.spot_overhead_factor"), a, r("cloud.offer.spot_usd_per_hour"), growth);
      const std::string beside = ceil_instances(fmt::format("({0}-{0}*{1})*(1/{2})", rest, share, q), gpi);
      const std::string without = ceil_instances(fmt::format("{}*(1/{})", rest, q), gpi);
      return fmt::format("SUMPRODUCT(({0}+(1-{1})*({2}-{0}))*{3}*{4})", beside, a, without,
                         r("cloud.offer.on_demand_usd_per_hour"), growth);
    }
    case reserved: {
      const std::string term = r("reserved_term_years");
      const std::string price =
          has("cloud.offer.reserved_1y_usd_per_hour") && has("cloud.offer.reserved_3y_usd_per_hour")
              ? fmt::format("IF({}=3,{},{})", term, r("cloud.offer.reserved_3y_usd_per_hour"),
                            r("cloud.offer.reserved_1y_usd_per_hour"))
              : r(v("reserved_term_years") == 3 ? "cloud.offer.reserved_3y_usd_per_hour"
                                                : "cloud.offer.reserved_1y_usd_per_hour");
      return fmt::format("730*({}*{})*(1+{})^(INT({}/(12*{}))*{})", price, r("reserved_instances"),
                         r("cloud.price_change_per_year"), mc, term, term);
    }
    case egress: {
      const std::string x = fmt::format("({}-{})", d, cap_work);
      return fmt::format("SUMPRODUCT({0}*({0}>=1e-12)/{1})*({2}*{3})", x, r("cloud.gpu.perf_relative"),
                         r("cloud.egress_gb_per_gpu_hour"), r("cloud.egress_usd_per_gb"));
    }
    case energy: {
      const std::string per_gpu = fmt::format("{}/{}", d, r("onprem.gpu.perf_relative"));
      const std::string busy = fmt::format("(({0}<{1})*{0}+({0}>={1})*{1})", per_gpu, "(" + cap_gpus + ")");
      const std::string idle = r("onprem.server.idle_kw"), peak = r("onprem.server.peak_kw");
      return fmt::format("SUMPRODUCT(({}*{}+({}-{})*{}/{})*{}*({}*(1+{})^({}/8760)))", nodes_up, idle, peak, idle, busy,
                         r("onprem.server.gpus"), r("onprem.cooling.pue"), r("onprem.power.tariff.usd_per_kwh"),
                         r("onprem.power.escalation_per_year"), h);
    }
    default:
      break;
  }
  const std::string n = r("onprem_nodes"), p = r("onprem.purchase_month");
  const std::string per_node =
      fmt::format("({}+{}+{}+{})", r("onprem.server.price_usd"), r("onprem.network_usd_per_node"),
                  r("onprem.storage_usd_per_node"), r("onprem.install_usd_per_node"));
  const std::string from_p = fmt::format("({}>={})", mc, p);
  switch (kind) {
    case capex:
      if (loan_) return loan_text(true, mc);
      return leased_ ? fmt::format("({}={})*{}", mc, p, r("onprem.room_capex_usd"))
                     : fmt::format("({}={})*({}*{}+{})", mc, p, n, per_node, r("onprem.room_capex_usd"));
    case interest:
      return loan_text(false, mc);
    case lease:
      return fmt::format("{}*{}*{}", from_p, n, r("onprem.financing.usd_per_node_month"));
    case maintenance: {
      const std::string due = leased_ ? fmt::format("(1-{})*", r("onprem.financing.maintenance_included")) : "";
      return fmt::format("{}{}*{}*{}*{}/12", due, from_p, n, per_node, r("onprem.maintenance_per_year"));
    }
    case facility: {
      if (!colocated_) return "0";
      const std::string per_rack =
          fmt::format("INT({}/{}+1e-9)", r("onprem.cooling.rack_limit_kw"), r("onprem.server.peak_kw"));
      const std::string racks = fmt::format("({0}>0)*-INT(-{0}/{1})", n, per_rack);
      return fmt::format("{}*({}*{}*{}+{}*{})", from_p, r("onprem.colocation.usd_per_kw_month"), n,
                         r("onprem.server.peak_kw"), r("onprem.colocation.usd_per_rack_month"), racks);
    }
    case staff:
      return fmt::format("{}*({}+{}*{})*{}/12*(1+{})^({}/12)", from_p, r("onprem.staff.fixed_fte"),
                         r("onprem.staff.fte_per_node"), n, r("onprem.staff.usd_per_fte_year"),
                         r("onprem.staff.escalation_per_year"), mc);
    case residual:
      if (leased_) return "0";
      return fmt::format("({}={})*({}<{})*{}*-({}*({}+{}+{}))*(1-{})^(({}-{})/12)", mc, horizon_months_ - 1, p,
                         horizon_months_, r("onprem.residual.enabled"), n, r("onprem.server.price_usd"),
                         r("onprem.network_usd_per_node"), r("onprem.storage_usd_per_node"),
                         r("onprem.residual.resale_decline_per_year"), horizon_months_, p);
    default:
      return "0";
  }
}

// The same arithmetic in C++, for the check against the run's figures.
double LivePlan::value(int kind, int m) const {
  const double up = owned_ && m >= v("onprem.purchase_month") ? v("onprem_nodes") : 0.0;
  const double cap_gpus = owned_ ? up * v("onprem.server.gpus") * v("onprem.packing_efficiency") : 0.0;
  const double cap_work = owned_ ? cap_gpus * v("onprem.gpu.perf_relative") : 0.0;
  const bool hourly = kind == on_demand || kind == spot || kind == egress || kind == energy;
  if (hourly) {
    double sum = 0.0;
    for (long h = static_cast<long>(m) * kHoursInMonth; h < static_cast<long>(m + 1) * kHoursInMonth; ++h) {
      const double demand = (*hours_.demand_gpus)[h];
      if (kind == energy) {
        const double per_gpu = demand / v("onprem.gpu.perf_relative");
        const double busy = per_gpu < cap_gpus ? per_gpu : cap_gpus;
        const double it_kw = up * v("onprem.server.idle_kw") +
                             (v("onprem.server.peak_kw") - v("onprem.server.idle_kw")) * busy / v("onprem.server.gpus");
        sum += it_kw * v("onprem.cooling.pue") *
               (v("onprem.power.tariff.usd_per_kwh") *
                std::pow(1.0 + v("onprem.power.escalation_per_year"), static_cast<double>(h) / kHoursInYear));
        continue;
      }
      const double x = demand - cap_work;
      if (kind == egress) {
        sum += (x >= 1e-12 ? x : 0.0) / v("cloud.gpu.perf_relative") *
               (v("cloud.egress_gb_per_gpu_hour") * v("cloud.egress_usd_per_gb"));
        continue;
      }
      const double gpi = v("cloud.offer.gpus_per_instance"), q = v("cloud.packing_efficiency");
      const double share = v("spot_share"), a = v("cloud.spot.availability");
      const double z = x / v("cloud.gpu.perf_relative") - v("reserved_instances") * gpi;
      const double rest = z > 0.0 ? z : 0.0;
      const double growth = std::pow(1.0 + v("cloud.price_change_per_year"), static_cast<double>(h) / kHoursInYear);
      if (kind == spot) {
        sum += ceil_instances(rest * share * (1.0 / q), gpi) * v("cloud.spot_overhead_factor") * a *
               v("cloud.offer.spot_usd_per_hour") * growth;
      } else {
        const double beside = ceil_instances((rest - rest * share) * (1.0 / q), gpi);
        const double without = ceil_instances(rest * (1.0 / q), gpi);
        sum += (beside + (1.0 - a) * (without - beside)) * v("cloud.offer.on_demand_usd_per_hour") * growth;
      }
    }
    return sum;
  }
  if (kind == reserved) {
    const double term = v("reserved_term_years");
    const double price = v(term == 3 ? "cloud.offer.reserved_3y_usd_per_hour" : "cloud.offer.reserved_1y_usd_per_hour");
    return 730.0 * (price * v("reserved_instances")) *
           std::pow(1.0 + v("cloud.price_change_per_year"), std::floor(m / (12.0 * term)) * term);
  }
  const double n = v("onprem_nodes"), p = v("onprem.purchase_month");
  const double per_node = v("onprem.server.price_usd") + v("onprem.network_usd_per_node") +
                          v("onprem.storage_usd_per_node") + v("onprem.install_usd_per_node");
  const double from_p = m >= p ? 1.0 : 0.0;
  switch (kind) {
    case capex:
      if (loan_) return loan_value(true, m);
      return m == p ? (leased_ ? v("onprem.room_capex_usd") : n * per_node + v("onprem.room_capex_usd")) : 0.0;
    case interest:
      return loan_value(false, m);
    case lease:
      return from_p * n * v("onprem.financing.usd_per_node_month");
    case maintenance:
      return (leased_ ? 1.0 - v("onprem.financing.maintenance_included") : 1.0) * from_p * n * per_node *
             v("onprem.maintenance_per_year") / 12.0;
    case facility: {
      if (!colocated_) return 0.0;
      const double per_rack = std::floor(v("onprem.cooling.rack_limit_kw") / v("onprem.server.peak_kw") + 1e-9);
      const double racks = n > 0.0 ? std::ceil(n / per_rack) : 0.0;
      return from_p * (v("onprem.colocation.usd_per_kw_month") * n * v("onprem.server.peak_kw") +
                       v("onprem.colocation.usd_per_rack_month") * racks);
    }
    case staff:
      return from_p * (v("onprem.staff.fixed_fte") + v("onprem.staff.fte_per_node") * n) *
             v("onprem.staff.usd_per_fte_year") / 12.0 *
             std::pow(1.0 + v("onprem.staff.escalation_per_year"), m / 12.0);
    case residual:
      if (leased_ || m != horizon_months_ - 1 || p >= horizon_months_) return 0.0;
      return v("onprem.residual.enabled") *
             -(n *
               (v("onprem.server.price_usd") + v("onprem.network_usd_per_node") + v("onprem.storage_usd_per_node"))) *
             std::pow(1.0 - v("onprem.residual.resale_decline_per_year"), (horizon_months_ - p) / 12.0);
    default:
      return 0.0;
  }
}

// A loan (docs/model.md §6): amount A = N capex_node + room, down payment A d at the start of p,
// principal P = A - A d repaid by n payments pay = P i / (1 - (1+i)^-n), i = apr / 12; the balance
// before payment k is B(k) = P (1+i)^k - pay ((1+i)^k - 1) / i, its interest B(k) i, its principal
// pay - B(k) i (the last: B(k)); a balance left at the horizon's end is paid there (capex).
std::string LivePlan::loan_text(bool principal, const std::string& mc) const {
  const std::string n = r("onprem_nodes"), p = r("onprem.purchase_month");
  const std::string amount =
      fmt::format("({}*({}+{}+{}+{})+{})", n, r("onprem.server.price_usd"), r("onprem.network_usd_per_node"),
                  r("onprem.storage_usd_per_node"), r("onprem.install_usd_per_node"), r("onprem.room_capex_usd"));
  const std::string down = r("onprem.financing.down_payment_fraction"), term = r("onprem.financing.term_months");
  const std::string i = fmt::format("({}/12)", r("onprem.financing.apr"));
  const std::string loan = fmt::format("({0}-{0}*{1})", amount, down);
  const std::string pay = fmt::format("({0}*{1}/(1-(1+{1})^(-{2})))", loan, i, term);
  const auto balance = [&](const std::string& k) {
    return fmt::format("({0}*(1+{1})^({3})-{2}*((1+{1})^({3})-1)/{1})", loan, i, pay, k);
  };
  const std::string k = fmt::format("({}-{})", mc, p);
  const std::string paying = fmt::format("({}>={})*({}<{})", mc, p, k, term);
  if (!principal) return fmt::format("{}*{}*{}", paying, balance(k), i);
  const int h = horizon_months_;
  return fmt::format("({0}={1})*{2}*{3}+{4}*IF({5}={6}-1,{7},{8}-{7}*{9})+({0}={10})*({1}<{11})*({11}-{1}<{6})*{12}",
                     mc, p, amount, down, paying, k, term, balance(k), pay, i, h - 1, h,
                     balance(fmt::format("{}-{}", h, p)));
}

double LivePlan::loan_value(bool principal, int m) const {
  const double p = v("onprem.purchase_month"), term = v("onprem.financing.term_months");
  const double amount = v("onprem_nodes") * (v("onprem.server.price_usd") + v("onprem.network_usd_per_node") +
                                             v("onprem.storage_usd_per_node") + v("onprem.install_usd_per_node")) +
                        v("onprem.room_capex_usd");
  const double down = amount * v("onprem.financing.down_payment_fraction"), loan = amount - down;
  const double i = v("onprem.financing.apr") / 12.0;
  const double pay = loan * i / (1.0 - std::pow(1.0 + i, -term));
  const auto balance = [&](double k) { return loan * std::pow(1.0 + i, k) - pay * (std::pow(1.0 + i, k) - 1.0) / i; };
  const double k = m - p;
  const bool paying = m >= p && k < term;
  if (!principal) return paying ? balance(k) * i : 0.0;
  const int h = horizon_months_;
  double out = m == p ? down : 0.0;
  if (paying) out += k == term - 1 ? balance(k) : pay - balance(k) * i;
  if (m == h - 1 && p < h && h - p < term) out += balance(h - p);
  return out;
}

std::string bill_share_formula(const LivePlan::BillShare& share, const std::vector<std::string>& categories,
                               const std::function<std::string(int)>& cell) {
  std::string bills;
  for (const std::string& bill : share.of)
    for (std::size_t k = 0; k < categories.size(); ++k)
      if (categories[k] == bill) bills += (bills.empty() ? "" : "+") + cell(static_cast<int>(k));
  return fmt::format("{:.17g}*({})", share.factor, bills);
}

}  // namespace tco
