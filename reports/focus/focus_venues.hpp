// A plan's burst venues (docs/model.md §3b) as FOCUS rows of their own: the month's cloud_on_demand
// (or cloud_spot) goes to the plan's on-demand (spot) venues, each row billed by the venue's
// provider for its catalog offer (SkuId) and its own GPU-hours (docs/report.md "Venues").
//   with the hourly model's months (plans[].venues.list[].*_by_month):
//     usd(v, m) = cost_usd_by_month(v, m),  GPU-Hours(v, m) = billed_gpu_hours_by_month(v, m)
//   without (a discrete-event replay's horizon means):
//     usd(v, m) = usd(m) x cost(v) / sum over the venues of cost,  GPU-Hours(v, m) = billed(v) x usd(v, m) / cost(v)
// and what the ledger's month holds beyond the venues' sum (a few ulps) goes onto the month's
// largest row, so EffectiveCost over the plan stays its total.
// Example: month m of $1,000 on demand, venue a $600 (100 GPU-hours), venue b $400 (50 GPU-hours):
// two rows, $600 and 100 GPU-Hours by a's provider, $400 and 50 by b's.
#pragma once

#include <string>
#include <vector>

#include "reports/focus/focus_rows.hpp"

namespace tco {

// Writes the rows of ledger category `map` (cloud_on_demand or cloud_spot), usd_by_month its ledger
// amounts, over the plan's venues of that price; false (nothing written) when the plan has no such
// venue. Throws InputError(file, pointer) for a venue list that does not fit the report.
bool focus_venue_rows(FocusPlanRows& rows, const FocusPlan& c, const FocusCategory& map,
                      const std::vector<double>& usd_by_month, bool one_time, const std::string& file);

}  // namespace tco
