// The report document (docs/architecture.md, "The report document"): what a report shows,
// before any markup. A section has a stable id, a title, a lead (what its tables hold), tables
// of typed cells (reports/document/report_cell.hpp), a list of items, sentences after them and
// flags. Each
// concept builds its section once, from the JSON report, in reports/document/sections/ (the
// features) or reports/document/answer/ (the plans, the costs, the sources, the warnings); one
// renderer per format draws every section (markdown_section, html_section, terminal_section,
// csv_section); reports/document/section_order.cpp gives their order.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reports/document/report_cell.hpp"

namespace tco {

// Where a column shows: in every format, only in the human ones (words that join several
// figures), or only in the CSV (a raw figure the words stand for).
enum class Shown { everywhere, human, csv };

struct Column {
  std::string header;   // the human formats' header ("deposit")
  std::string csv_key;  // the CSV's header ("deposit_usd"); empty for a human-only column
  Shown shown = Shown::everywhere;

  Column(std::string header_, std::string csv_key_, Shown shown_ = Shown::everywhere)
      : header(std::move(header_)), csv_key(std::move(csv_key_)), shown(shown_) {}
};

struct Row {
  std::vector<Cell> cells;  // one per column, in the columns' order
  bool human_only = false;  // a summary row the CSV leaves out ("no venue: waited")

  Row(std::vector<Cell> cells_, bool human_only_ = false) : cells(std::move(cells_)), human_only(human_only_) {}
};

struct Table {
  std::string caption;   // above the table in the human formats (a plan's name); may be empty
  std::vector<Column> columns;
  std::vector<Row> rows;
  std::string csv_file;  // the CSV file this table is written to ("procurement.csv"); empty: none
  std::string after;     // one sentence under the table in the human formats
  // A long table (a plan's monthly flows): the HTML folds it under its caption, Markdown and the
  // terminal name it in one line per section instead of drawing it. Tables of one section that
  // name the same csv_file are written to it one after another under the first one's header.
  bool folded = false;
};

struct Section {
  std::string id;                      // stable: "carbon", "procurement", ...
  std::string title;                   // "CO2 per plan"
  std::string lead;                    // what the tables hold, their units and terms
  std::vector<std::string> opening;    // sentences before the tables
  std::vector<Table> tables;           // a table whose columns are all CSV-only is written to the CSV only
  std::vector<std::string> items;      // a list after the tables, one line each ("- ..." in Markdown)
  std::vector<std::string> sentences;  // after the tables
  std::vector<std::string> flags;      // a figure a reader must not miss ("Flag: ...")
  std::string nothing_to_show;         // said once, when the section is present but has no rows

  // A section with no table rows, no items, no sentences and no words for the empty case is left out.
  bool empty() const {
    for (const Table& t : tables)
      if (!t.rows.empty()) return false;
    return opening.empty() && items.empty() && sentences.empty() && nothing_to_show.empty();
  }
};

// True when the human formats draw the table: it has rows and a column they show (Markdown and
// the terminal name a folded one instead).
inline bool drawn_for_people(const Table& t) {
  if (t.rows.empty()) return false;
  for (const Column& c : t.columns)
    if (c.shown != Shown::csv) return true;
  return false;
}

inline Table make_table(std::vector<Column> columns, std::string csv_file = {}) {
  Table t;
  t.columns = std::move(columns);
  t.csv_file = std::move(csv_file);
  return t;
}

inline Section make_section(std::string id, std::string title, std::string lead, std::vector<Table> tables = {},
                            std::vector<std::string> opening = {}) {
  Section s;
  s.id = std::move(id);
  s.title = std::move(title);
  s.lead = std::move(lead);
  s.tables = std::move(tables);
  s.opening = std::move(opening);
  return s;
}

// "In the HTML page (folded) and the CSV output (monthly_cash_flows.csv), one table each: a, b."
// for Markdown and the terminal, naming the section's folded tables by caption; "" when none.
inline std::string folded_tables_line(const Section& s) {
  std::string captions, files;
  for (const Table& t : s.tables) {
    if (!t.folded || !drawn_for_people(t)) continue;
    captions += (captions.empty() ? "" : ", ") + t.caption;
    if (!t.csv_file.empty() && files.find(t.csv_file) == std::string::npos) files += (files.empty() ? "" : ", ") + t.csv_file;
  }
  if (captions.empty()) return "";
  return "In the HTML page (folded)" + (files.empty() ? std::string() : " and the CSV output (" + files + ")") +
         ", one table each: " + captions + ".";
}

}  // namespace tco
