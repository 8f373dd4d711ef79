// The yearly depreciation views of an owned plan as the JSON report writes them
// (docs/report.md, `depreciation_views`): year 1 is the 12 months from the purchase month.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/ledger/depreciation_booking.hpp"
#include "models/scenario.hpp"

namespace tco {

// The plan's book and tax views, and the economic view (models/finance/economic_depreciation.hpp)
// on its resale curve over the book life; null without a residual.
Json depreciation_views_json(const Plan& plan, const DepreciationViews& views);

// The columns of depreciation.csv and the workbook's Depreciation sheet, and the rows of every
// plan with `depreciation_views` (year by year; null past a view's last year).
const std::vector<std::string>& depreciation_columns();
std::vector<Json> depreciation_rows(const Json& report);

}  // namespace tco
