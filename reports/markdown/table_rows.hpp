// The body rows of a report table, shared by the Markdown summary's and the HTML page's sections
// that show the same rows (goodput, time shifting, ...): `cells` turns one row of the section's
// table (reports/json/*_json.hpp) into its text cells.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

using TableCells = std::vector<std::string> (*)(const Json& row);

// "| a | b |\n" per row; empty for no rows.
std::string markdown_table_rows(const std::vector<Json>& rows, TableCells cells);

// "<tr><td>a</td><td class=n>b</td></tr>\n" per row, the cells escaped; the columns in
// `text_columns` are left-aligned text, the others numbers. Empty for no rows.
std::string html_table_rows(const std::vector<Json>& rows, TableCells cells, const std::set<std::size_t>& text_columns = {0});

}  // namespace tco
