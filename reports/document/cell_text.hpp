// A cell as the human formats (Markdown, HTML, the terminal) write it, by its kind
// (reports/document/report_cell.hpp) and the rules of reports/document/number_words.hpp.
// A cell without a number reads "-" (or its own words); a number is never guessed.
#pragma once

#include <string>

#include "reports/document/report_cell.hpp"

namespace tco {

std::string cell_text(const Cell& cell);

// What a cell's text shows as a number, in the unit of its text ($, %, t, GPU-h, months), and
// the half-width of its rounding: for the tests that compare formats as numbers.
double cell_shown_number(const Cell& cell);
double cell_rounding(const Cell& cell);

}  // namespace tco
