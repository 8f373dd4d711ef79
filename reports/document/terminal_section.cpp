#include <algorithm>

#include "reports/document/cell_text.hpp"
#include "reports/document/section_render.hpp"

namespace tco {

namespace {

// Characters as the terminal counts them: UTF-8 continuation bytes take no column.
std::size_t columns_of(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
}

std::string padded(const std::string& text, std::size_t width, bool right) {
  const std::string pad(width > columns_of(text) ? width - columns_of(text) : 0, ' ');
  return right ? pad + text : text + pad;
}

// `text` in lines of at most `columns`, broken at spaces, each starting with `indent` spaces
// (continuation lines two more).
std::string wrapped(const std::string& text, std::size_t columns, std::size_t indent) {
  std::string out, line(indent, ' ');
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line.size() > indent && columns_of(line) + 1 + columns_of(word) > columns) {
      out += line + "\n";
      line = std::string(indent + 2, ' ');
    }
    line += (line.size() > indent && line.back() != ' ' ? " " : "") + word;
    start = end + 1;
  }
  return out + line + "\n";
}

std::string terminal_table(const Table& t) {
  std::vector<std::size_t> shown;
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c].shown != Shown::csv) shown.push_back(c);
  std::vector<std::vector<std::string>> lines(1);
  for (std::size_t c : shown) lines[0].push_back(t.columns[c].header);
  for (const Row& r : t.rows) {
    lines.emplace_back();
    for (std::size_t c : shown) {
      const Cell& cell = r.cells.at(c);
      const std::string text = cell_text(cell);
      lines.back().push_back(is_words(cell.kind) ? shortened(text, kMaxShownNameChars) : text);
    }
  }
  std::vector<std::size_t> width(shown.size(), 0);
  for (const auto& line : lines)
    for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], columns_of(line[i]));
  std::string out = t.caption.empty() ? "" : t.caption + ":\n";
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::string text;
    for (std::size_t i = 0; i < shown.size(); ++i) {
      // A column of numbers is right-aligned, its header too; the first row says which it is.
      const bool right = !t.rows.empty() && !is_words(t.rows[l == 0 ? 0 : l - 1].cells.at(shown[i]).kind);
      text += "  " + padded(lines[l][i], width[i], right);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

// One line a row, wrapped: the first cell, then each other column's header and cell ("plan: mean
// NPV $1; P(cheaper) 100.0%"), a cell with no text or "-" left out. Nothing is shortened.
std::string terminal_row_lines(const Table& t, std::size_t columns) {
  std::string out = t.caption.empty() ? "" : wrapped(t.caption + ":", columns, 2);
  for (const Row& r : t.rows) {
    std::string line;
    bool lead = true, first_pair = true;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      if (t.columns[c].shown == Shown::csv) continue;
      const std::string text = cell_text(r.cells.at(c));
      if (lead) {
        line = text + ":";
        lead = false;
      } else if (!text.empty() && text != "-") {
        line += (first_pair ? " " : "; ") + t.columns[c].header + " " + text;
        first_pair = false;
      }
    }
    out += wrapped(line, columns, 2);
  }
  return out;
}

}  // namespace

std::string terminal_section(const Section& s, std::size_t columns, TerminalTables tables) {
  if (s.empty()) return "";
  // A section of folded tables alone (the monthly flows) is for the pages and the CSV.
  const bool only_folded = std::all_of(s.tables.begin(), s.tables.end(), [](const Table& t) { return t.folded || t.rows.empty(); });
  if (only_folded && s.opening.empty() && s.items.empty() && s.sentences.empty() && s.flags.empty() &&
      s.nothing_to_show.empty())
    return "";
  std::string out = "\n" + wrapped(s.title + (s.lead.empty() ? "" : " (" + s.lead + ")") + ":", columns, 0);
  for (const std::string& o : s.opening) out += wrapped(o, columns, 2);
  bool rows = false;
  for (const Table& t : s.tables) {
    if (t.rows.empty()) continue;
    rows = true;
    if (!drawn_for_people(t) || t.folded) continue;
    out += tables == TerminalTables::one_row_a_line ? terminal_row_lines(t, columns) : terminal_table(t);
    if (!t.after.empty()) out += wrapped(t.after, columns, 2);
  }
  if (!rows && !s.nothing_to_show.empty()) out += wrapped(s.nothing_to_show, columns, 2);
  for (const std::string& item : s.items) out += wrapped("- " + item, columns, 2);
  for (const std::string& sentence : s.sentences) out += wrapped(sentence, columns, 2);
  for (const std::string& f : s.flags) out += wrapped("Flag: " + f + ".", columns, 2);
  return out;
}

}  // namespace tco
