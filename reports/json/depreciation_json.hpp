// The yearly depreciation views of an owned plan as the JSON report writes them
// (docs/report.md, `depreciation_views`): year 1 is the 12 months from the purchase month.
#pragma once

#include "core/io/json_reader.hpp"
#include "engine/ledger/depreciation_booking.hpp"
#include "models/scenario.hpp"

namespace tco {

Json depreciation_views_json(const OnPremSpec& onprem, const DepreciationViews& views);

}  // namespace tco
