// A plan's commitment instruments as the JSON report writes them (docs/report.md, `commitments`):
// per instrument what was committed, used and left unused in dollars of its commitment, the same in
// GPU-hours where one rate applies (null otherwise: a savings plan over venues whose rates per
// GPU-hour differ), and its cost (nominal and NPV). Written only for a plan with commitments, so
// other reports keep their bytes.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "core/io/json_reader.hpp"
#include "engine/ledger/commitment_booking.hpp"

namespace tco {

// The keys of one instrument's object in report order; the CSV and workbook tables use them as columns.
inline constexpr std::array<std::string_view, 10> kCommitmentFigureKeys = {
    "name",        "kind",           "committed_usd",    "used_usd",         "unused_usd",
    "committed_gpu_hours", "used_gpu_hours", "unused_gpu_hours", "cost_nominal_usd", "cost_npv_usd"};

Json commitments_json(const std::vector<CommitmentFigures>& figures);

}  // namespace tco
