// A plan's API bill (engine/ledger/api_booking.hpp) and the self-host-vs-API breakevens
// (engine/ledger/api_breakeven.hpp) as the JSON report writes them (docs/report.md, `api`,
// `breakevens.self_host_vs_api`).
#pragma once

#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/ledger/api_breakeven.hpp"
#include "engine/ledger/api_booking.hpp"

namespace tco {

Json api_figures_json(const ApiFigures& figures);
Json api_breakevens_json(const std::vector<ApiBreakeven>& breakevens);

}  // namespace tco
