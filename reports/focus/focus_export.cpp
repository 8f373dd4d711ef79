#include "reports/focus/focus_export.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "reports/focus/focus_commitments.hpp"
#include "reports/focus/focus_rows.hpp"
#include "reports/focus/focus_venues.hpp"

namespace tco {

namespace {

const std::vector<std::string> kFocusColumns = {
    "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodEnd",
    "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargeFrequency",
    "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory", "CommitmentDiscountId",
    "CommitmentDiscountName", "CommitmentDiscountQuantity", "CommitmentDiscountStatus", "CommitmentDiscountType",
    "CommitmentDiscountUnit", "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "EffectiveCost",
    "InvoiceIssuerName", "ListCost", "PricingCategory", "PricingQuantity", "PricingUnit", "ProviderName",
    "PublisherName", "RegionId", "RegionName", "ResourceId", "ResourceName", "ResourceType", "ServiceCategory",
    "ServiceName", "SkuId", "x_CostCategory", "x_Month", "x_PathStatistic", "x_Plan", "x_Scenario"};

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

// The pointer of the input plan named `name` ("" when none is).
std::string focus_input_plan(const Json& report, const std::string& name) {
  const Json& plans = report.at("inputs").at("plans");
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (plans[i].is_object() && plans[i].value("name", "") == name) return fmt::format("/inputs/plans/{}", i);
  return "";
}

const Json kNoFigures = Json::array();

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
  c.owned_nodes = plan.value("onprem_nodes", 0.0);
  if (plan.contains("quantities_by_month")) {
    c.quantities_by_month = &plan.at("quantities_by_month");
    if (c.quantities_by_month->at("rows").size() != plan.at("monthly").at("rows").size())
      throw InputError(file, fmt::format("/plans/{}/quantities_by_month/rows", index),
                       "not one row per month of plans[].monthly");
  }
  const Json& commitments = plan.contains("commitments") ? plan.at("commitments") : kNoFigures;
  for (std::size_t j = 0; j < commitments.size(); ++j)
    for (const char* key : {"committed_gpu_hours_by_month", "used_gpu_hours_by_month", "used_usd_by_month"})
      if (commitments[j].contains(key) && commitments[j].at(key).size() != plan.at("monthly").at("rows").size())
        throw InputError(file, fmt::format("/plans/{}/commitments/{}/{}", index, j, key),
                         "not one figure per month of plans[].monthly");
  const std::string input_pointer = focus_input_plan(report, c.plan);
  if (input_pointer.empty()) throw InputError(file, "/inputs/plans", "no input plan named \"" + c.plan + "\"");
  const Json* input = &report.at(Json::json_pointer(input_pointer));
  if (plan.contains("venues") && plan.at("venues").is_object()) {
    c.venues = &plan.at("venues");
    c.venues_pointer = fmt::format("/plans/{}/venues", index);
    c.input_venues_pointer = input_pointer + "/venues";
    if (input->contains("venues") && input->at("venues").is_array()) c.input_venues = &input->at("venues");
  }
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
              ? focus_block_instruments(c, *input, plan.contains("commitments") ? plan.at("commitments") : kNoFigures, months, file,
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
    if (focus_venue_rows(rows, c, *map, usd, paid_months == 1, file)) continue;  // a plan with venues: theirs
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
  // The replay's report holds the mean over its paths; the fluid model's keeps the deterministic run
  // beside its path statistics (cli/report_pipeline.cpp).
  base.statistic = report.at("monte_carlo").at("mode") == "discrete_event" ? "mean" : "deterministic";
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
