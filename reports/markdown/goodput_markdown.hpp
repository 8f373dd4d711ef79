// The Markdown summary's goodput section: per owned plan with `goodput` (onprem.spares), its
// spares, goodput (and the per-path mean with its 95% CI), the GPU-hours behind it and the repair
// cost. Empty when no plan has one, so other summaries keep their bytes.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

std::string goodput_markdown(const Json& report);

// A goodput row's (reports/json/goodput_json.hpp) cells in words, shared with the HTML page:
// plan, spares, goodput, per-path mean [CI], useful, lost, repair wait, failures, swaps, repair cost.
std::vector<std::string> goodput_cells(const Json& row);

}  // namespace tco
