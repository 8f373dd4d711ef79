// One cell of a report table (docs/architecture.md, "The report document"): what kind of figure
// it holds, the raw value as the JSON report has it (the CSV writes it as it is), and how many
// decimals the human formats show. The renderers (markdown_section, html_section,
// terminal_section, csv_section) decide how a kind reads; a section only says what it holds.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

enum class CellKind {
  text,            // a name or words, shown as they are (a long one shortened in HTML and the terminal)
  prose,           // words that wrap (a source, a note): whole in Markdown and HTML, shortened in the terminal
  usd,             // whole dollars: "$1,234,567", "-$1,234"
  usd_price,       // a price with cents or mills: "$2.990" (decimals)
  percent,         // a fraction shown x100: "12.3%"; beyond +/-1,000% flagged
  signed_percent,  // the same with its sign: "+3.0%", "-26.0%"
  count,           // a number of things or events: "1,234" or "0.25" (decimals)
  signed_count,    // the same with its sign: "+0.05"
  gpu_hours,       // GPU-hours, grouped: "10,752"
  month,           // a month index from 0 at the start: "14"
  hours,           // a duration in hours: "12 h"
  co2_kg,          // kg of CO2 shown in tonnes: "105.1 t"
  date,            // "2026-11-29"
};

struct Cell {
  CellKind kind = CellKind::text;
  Json raw;              // the JSON report's value: a number, a string, or null
  int decimals = 0;      // shown after the point (usd_price, percent, count, co2_kg)
  std::string shown_as;  // words that replace the number in the human formats ("none", "-", "n/a (...)")

  bool has_number() const { return raw.is_number(); }
  double number() const { return raw.get<double>(); }
};

Cell text_cell(const Json& text_or_null);  // a string, or null: "-"
Cell prose_cell(const Json& text_or_null);
Cell usd_cell(const Json& usd);
Cell usd_price_cell(const Json& usd, int decimals = 3);
Cell percent_cell(const Json& fraction, int decimals = 1);
Cell signed_percent_cell(const Json& fraction, int decimals = 1);
Cell count_cell(const Json& count, int decimals = 0);
Cell signed_count_cell(const Json& count, int decimals = 2);
Cell gpu_hours_cell(const Json& gpu_hours);
Cell month_cell(const Json& month);
Cell hours_cell(const Json& hours);
Cell co2_kg_cell(const Json& kg);
Cell date_cell(const std::string& date);

// Words, not a figure: left-aligned, never compared as a number.
inline bool is_words(CellKind kind) { return kind == CellKind::text || kind == CellKind::prose; }

// The same cell with words in place of its number in the human formats (the CSV keeps the number).
Cell shown_as(Cell cell, std::string words);

}  // namespace tco
