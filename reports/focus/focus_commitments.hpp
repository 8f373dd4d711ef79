// A plan's commitments (ledger category cloud_reserved) as FOCUS rows: BilledCost when paid, EffectiveCost
// over the months covered (docs/report.md "Commitments"), split Used / Unused month by month where the
// report has the monthly figures. Example: a 14-day capacity block of 32
// 8-GPU instances at $34.608, booked in month 0 and running 10 h of month 0 and 326 h of month 1, is a
// One-Time Purchase row of $372,105.216 and Usage rows of $11,074.56 and $361,030.656.
#pragma once

#include <string>
#include <vector>

#include "reports/focus/focus_rows.hpp"

namespace tco {

// One commitment instrument's rows: `billed_by_month` its bills (when paid), `effective_by_month`
// the same dollars over the months it covers; used_share splits the Usage rows Used / Unused.
struct FocusInstrument {
  std::string id, name, type, category;  // category: Usage | Spend (FOCUS CommitmentDiscountCategory)
  std::vector<double> billed_by_month, effective_by_month;
  std::vector<double> gpu_hours_by_month;  // committed GPU-hours of each effective month
  double used_share = 1.0;                 // of the effective dollars and GPU-hours
  bool prepaid = false;                    // paid at purchase (One-Time), else each month (Recurring)
  // Where the report has monthly figures (the fluid model's): month m's used GPU-hours, and its used
  // share of the dollars (used / committed GPU-hours; a savings plan's used / billed dollars). Empty:
  // used_share in every month.
  std::vector<double> used_gpu_hours_by_month, used_share_by_month;
};

// Its Purchase rows (BilledCost, EffectiveCost 0) and Used / Unused Usage rows (EffectiveCost).
void focus_instrument_rows(FocusPlanRows& rows, const FocusInstrument& in, std::vector<FocusRow>& out);

// The capacity blocks of the plan's echoed commitments, their bills where block_windows books them.
// `pointer`: the input plan's, for a block whose echo no scenario could have held (a report edited by hand).
std::vector<FocusInstrument> focus_block_instruments(const FocusPlan& c, const Json& input_plan, const Json& figures,
                                                     int months, const std::string& file, const std::string& pointer);

// The rest of cloud_reserved, paid month by month: reserved instances and the other commitments
// (take-or-pay, savings plans), as one instrument when the plan has one kind, else combined.
FocusInstrument focus_monthly_instrument(const FocusPlan& c, const Json& input_plan, const Json& report_plan,
                                         std::vector<double> usd_by_month);

// A few ulps of the ledger's sums the recomputed bills miss: onto the instrument's first bill and
// first covered month, so the totals stay exact without a row of nothing.
void add_rounding(FocusInstrument& in, double usd);

}  // namespace tco
