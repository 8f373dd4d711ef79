// The workbook's Tokens sheet (docs/report.md, "The workbook"), for a report whose plans have
// `tokens`: one row per plan with its token counts and costs, and its $ per million tokens as
// formulas over them (docs/tokens.md §6), tcosim's values cached:
//   cost          = the plan sheet's total (a formula: 'plan'!$B$4)
//   $/M blended   = cost / served x 1e6
//   $/M input     = cost / (input + w x output) x 1e6,   $/M output = w x $/M input
// on the reservation basis (cost) and the usage basis (busy cost), w = output_token_cost_weight.
#pragma once

#include <string>
#include <vector>

#include <xlsxwriter.h>

#include "core/io/json_reader.hpp"

namespace tco {

struct TokensSheetFormats {
  lxw_format* bold;
  lxw_format* usd;
};

// `plan_total_cells`: each plan's total nominal cost cell ('sheet'!$B$4), in report order.
// Adds nothing when no plan has tokens; records the first write error in *first_error.
void write_tokens_sheet(lxw_workbook* wb, const Json& report, const std::vector<std::string>& plan_total_cells,
                        const TokensSheetFormats& f, lxw_error* first_error);

}  // namespace tco
