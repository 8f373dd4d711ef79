// One renderer per format draws every section of the report document
// (reports/document/report_section.hpp); the formatting rules are theirs and cell_text's:
// - Markdown: "**Title** (lead):", the tables, sentences, "**Flag:**" lines;
// - HTML: <h2>, the tables (numbers right-aligned, a text cell longer than kMaxShownNameChars
//   shortened with the full text in its title attribute, every cell free to wrap), the lead as
//   a note under them;
// - the terminal: the title and plain columns, text cells shortened to fit, or one line a row (the
//   first cell, then each column's header and cell); a folded table left out;
// - CSV: each table that names a csv_file, its CSV columns and raw values.
// A section's items are a list under its tables ("- " in Markdown and the terminal, <ul> in HTML).
// A table without rows is never drawn, nor in the human formats one whose columns are all
// CSV-only; a section with nothing to show says so once.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reports/document/report_section.hpp"

namespace tco {

// Names longer than this are shortened in HTML cells (the full name in the title attribute)
// and in the terminal's columns, so that a table never runs off the page.
inline constexpr std::size_t kMaxShownNameChars = 48;

std::string markdown_section(const Section& section);
std::string html_section(const Section& section);
// How the terminal draws a section's tables: as columns, whose width the caller checks (the
// terminal answer names a section too wide for its columns), or one row a line, wrapped: the
// answer's own parts, the breakevens and the Monte Carlo distribution, whose tables are wider.
enum class TerminalTables { columns, one_row_a_line };
// Prose wrapped to `columns` (continuation lines indented 2 more), then the tables.
std::string terminal_section(const Section& section, std::size_t columns = 100,
                             TerminalTables tables = TerminalTables::columns);

// (file name, text) per table of the section that has a csv_file and rows.
std::vector<std::pair<std::string, std::string>> csv_section(const Section& section);

// A name for an HTML cell: escaped, and beyond kMaxShownNameChars shortened inside a span whose
// title attribute holds it in full.
std::string html_name(const std::string& text);

// "abcdef..." of at most `max_chars` characters (UTF-8 safe: never cuts inside a character).
std::string shortened(const std::string& text, std::size_t max_chars);

// A CSV field: a string quoted when it holds a comma, a quote or a newline; a number as the JSON
// report writes it; null empty.
std::string csv_field(const Json& value);

}  // namespace tco
