// A report's monthly cash flows as FOCUS 1.2 rows (the FinOps Foundation's billing schema,
// https://focus.finops.org/focus-specification/v1-2/; docs/report.md "FOCUS export" maps each
// column). One row per plan, month and ledger category with a non-zero amount, except the
// commitments (cloud_reserved), which become a Purchase row when paid (BilledCost, EffectiveCost 0)
// and Usage rows over the term, split Used / Unused (EffectiveCost, BilledCost 0), and a plan's
// burst venues, one row each (reports/focus/focus_venues.hpp):
//   sum over a plan's rows of EffectiveCost = sum of its monthly categories = total_nominal_usd
//   GPU-Hours of category c in month m = the month's own figure (plans[].quantities_by_month), or in a
//   replay's report the plan's GPU-hours of c x cost(c, m) / sum_m cost(c, m) (exact when c's price is flat).
// Example: an on-demand plan of $100 in month 0 and $300 in month 1 over 1,000 billed GPU-hours
// writes two Usage rows of 250 and 750 GPU-Hours.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

// The columns, in the order written: FOCUS's (alphabetical), then tcosim's x_ columns.
const std::vector<std::string>& focus_columns();

// The CSV text (header and rows; empty fields are nulls). Throws InputError(file, pointer) when
// the report lacks what a row needs.
std::string focus_csv(const Json& report, const std::string& file);

}  // namespace tco
