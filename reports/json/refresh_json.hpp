// A refreshing plan's `refresh` block of the JSON report (docs/report.md): the successor fleet
// and the money at the refresh, in the deterministic run (the scenario's arrival month; a drawn
// arrival's median). Months count from 0 at the scenario's start.
#pragma once

#include "core/io/json_reader.hpp"
#include "engine/ledger/refresh_booking.hpp"

namespace tco {

Json refresh_json(const RefreshFigures& figures, int months_after_arrival);

}  // namespace tco
