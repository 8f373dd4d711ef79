// Reading the report document in tests (reports/document/): a row of a table as the human
// formats show it.
#pragma once

#include <string>
#include <vector>

#include "reports/document/cell_text.hpp"
#include "reports/document/report_section.hpp"

namespace tco::test {

inline std::vector<std::string> shown_cells(const Table& t, std::size_t row) {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c].shown != Shown::csv) out.push_back(cell_text(t.rows.at(row).cells.at(c)));
  return out;
}

}  // namespace tco::test
