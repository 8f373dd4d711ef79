// The live columns of a plan sheet: each month's cash flow of a category as a formula over the
// Inputs sheet's cells and the Hours sheet's demand, so that editing an input moves the totals
// as `tcosim run` of the edited scenario would (docs/report.md, "The Excel workbook"). The
// formulas are the deterministic hourly model's (docs/model.md §3-§6), for month m over its
// hours h = 730 m .. 730 m + 729 (D(h) the demand, k = N_up G p perf the on-prem work capacity,
// N_up = N from the purchase month p on):
//   rest(h)         = max(0, (D(h) - k) / perf_cloud - R gpi)            cloud GPUs past reserved
//   c(x)            = (x > 1e-9) ceil(x / gpi - 1e-9)                    whole instances
//   cloud_on_demand = sum_h [c((1 - s) rest / q) + (1 - a)(c(rest / q) - c((1 - s) rest / q))]
//                     x on_demand_usd_per_hour x (1 + r)^(h / 8760)
//   cloud_spot      = sum_h c(s rest / q) x overhead x a x spot_usd_per_hour x (1 + r)^(h / 8760)
//   cloud_reserved  = 730 x R x reserved price x (1 + r)^(floor(m / 12T) T)
//   egress          = sum_h max(0, D(h) - k) / perf_cloud x gb per GPU-hour x usd per GB
//   energy          = sum_h (N_up idle_kw + (peak_kw - idle_kw) busy(h) / G) x PUE x usd_per_kwh
//                     x (1 + escalation)^(h / 8760),  busy(h) = min(N_up G p, D(h) / perf)
//   capex, lease, maintenance, facility, staff, residual, a loan's principal and interest:
//                     docs/model.md §6 with the cells
// A column is live only when the plan uses nothing the formulas leave out (a queue, venues,
// commitments, schedules, ambient PUE, ...) and, as a check, when the formulas' own values equal
// the run's figures month by month within 1e-9 relative. Where the hours cannot be formulas (a
// replay's queue, throttling, ...) but the figure is a price times a quantity, it is live in the
// price: cloud_on_demand = on_demand_usd_per_hour x (the run's figure / that price), the same for
// spot and reserved, energy = PUE x usd_per_kwh x (the run's figure / both) (a flat tariff and a
// constant PUE, no demand charge). Otherwise it keeps the run's values, and the note says why.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

// The Inputs sheet's numeric and boolean cells by their flattened name
// ("inputs.plans[buy-4].onprem.server.price_usd"): an absolute reference and the value.
struct InputCell {
  std::string ref;  // 'Inputs'!$B$57
  double value = 0.0;
  int row = 0;  // 0-based, in column B
  bool boolean = false;
};
using InputCells = std::map<std::string, InputCell>;

// The hourly demand on the Hours sheet: hour h's demand in column B, row first_row + h (0-based).
struct HoursSheet {
  std::string name;
  int first_row = 1;
  const std::vector<double>* demand_gpus = nullptr;  // null: no hours (a replay, or `tcosim report`)
};

class LivePlan {
 public:
  // `plan` the report's plans[i], `inputs` its inputs.plans[i]; `horizon_months` the scenario's.
  LivePlan(const Json& plan, const Json& inputs, const InputCells& cells, const HoursSheet& hours, int horizon_months,
           bool replay, bool next_generation);

  // Category `category`'s formula (without "=") in month m, whose month index is in `month_cell`
  // (e.g. "$A8"); nullopt when the column keeps the run's values.
  std::optional<std::string> formula(const std::string& category, int m, const std::string& month_cell) const;
  // What the sheet says beside the figures: the live columns and, for the others, why not.
  std::vector<std::string> notes() const;
  bool live(const std::string& category) const { return live_.count(category) > 0; }
  // The Inputs cells the formulas written so far read (their absolute references).
  const std::set<std::string>& cells_read() const { return read_; }
  // A rented plan's support or lost work (engine/ledger/hidden_cost_booking.cpp) as a share of the
  // row's bill columns `of`: support of the GPU, storage, network and CPU VM bills, lost work of
  // the GPU bill. Null when the column keeps the run's values.
  struct BillShare {
    double factor = 0.0;
    std::vector<std::string> of;
  };
  const BillShare* bill_share(const std::string& category) const;
  // The flows at the start of a month (capex paid in cash, leases) are then live columns' sum.
  bool start_of_month_live() const { return start_live_; }
  // The month's start-of-month flows as a formula, given the capex and lease cells of the row
  // ("" when the sheet has no lease column): capex + lease, or a loan's down payment.
  std::string start_of_month_formula(const std::string& month_cell, const std::string& capex_cell,
                                     const std::string& lease_cell) const;

 private:
  std::string plan_name_;
  std::map<std::string, std::string> why_not_;  // category -> reason it keeps values
  std::map<std::string, BillShare> bill_shares_;
  // A figure live in its prices only: price cells x the run's quantity (the figure / the prices).
  struct Scaled {
    std::vector<std::string> prices;
    std::vector<double> quantity;  // per month
  };
  std::map<std::string, Scaled> scaled_;
  std::map<std::string, std::string> why_scaled_;
  std::vector<std::string> zero_;            // not live, and 0 in every month
  std::map<std::string, int> live_;          // category -> kind of formula (an index)
  std::map<std::string, std::string> refs_;  // input key -> cell
  std::map<std::string, double> values_;     // input key -> value
  HoursSheet hours_;
  mutable std::set<std::string> read_;
  int horizon_months_;
  bool owned_ = false;
  bool leased_ = false;
  bool loan_ = false;
  bool colocated_ = false;
  bool start_live_ = false;

  bool has(const std::string& key) const { return refs_.count(key) > 0; }
  const std::string& r(const std::string& key) const {
    read_.insert(refs_.at(key));
    return refs_.at(key);
  }
  double v(const std::string& key) const { return values_.at(key); }
  std::string text(int kind, int m, const std::string& mc) const;
  // start_live_: capex (+ lease) are live and are the run's start-of-month flows in every month.
  void check_start_of_month(const Json& plan);
  double start_of_month_value(int m) const;
  std::string loan_text(bool principal, const std::string& month_cell) const;
  double loan_value(bool principal, int m) const;
  double value(int kind, int m) const;
};

// A bill share's formula in one row: its factor x the sum of its bills' cells, where `cell(k)` is
// the cell of `categories[k]` in that row.
std::string bill_share_formula(const LivePlan::BillShare& share, const std::vector<std::string>& categories,
                               const std::function<std::string(int)>& cell);

}  // namespace tco
