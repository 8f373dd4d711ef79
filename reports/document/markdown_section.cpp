#include "reports/document/cell_text.hpp"
#include "reports/document/section_render.hpp"

namespace tco {

namespace {

bool shown_to_people(const Column& c) { return c.shown != Shown::csv; }

// A column of numbers is right-aligned: its first row's cell says which it is.
bool numeric_column(const Table& t, std::size_t c) {
  return !t.rows.empty() && !is_words(t.rows.front().cells.at(c).kind);
}

// "|" inside a cell would end it, and a line break the row.
std::string markdown_escape(const std::string& text) {
  std::string out;
  for (char ch : text) out += ch == '|' ? std::string("\\|") : ch == '\n' ? std::string(" ") : std::string(1, ch);
  return out;
}

std::string markdown_table(const Table& t) {
  std::string md = t.caption.empty() ? "" : "*" + markdown_escape(t.caption) + "*:\n\n";
  std::string header = "|", rule = "|";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (!shown_to_people(t.columns[c])) continue;
    header += " " + markdown_escape(t.columns[c].header) + " |";
    rule += numeric_column(t, c) ? "---:|" : "---|";
  }
  md += header + "\n" + rule + "\n";
  for (const Row& r : t.rows) {
    md += "|";
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      if (shown_to_people(t.columns[c])) md += " " + markdown_escape(cell_text(r.cells.at(c))) + " |";
    md += "\n";
  }
  if (!t.after.empty()) md += "\n" + t.after + "\n";
  return md;
}

}  // namespace

std::string markdown_section(const Section& s) {
  if (s.empty()) return "";
  std::string md = "\n**" + s.title + "**" + (s.lead.empty() ? "" : " (" + s.lead + ")");
  bool rows = false;
  for (const Table& t : s.tables) rows = rows || !t.rows.empty();
  if (!rows && !s.nothing_to_show.empty() && s.opening.empty() && s.items.empty() && s.sentences.empty())
    return md + ": " + s.nothing_to_show + "\n";
  md += ":\n\n";
  for (const std::string& o : s.opening) md += o + "\n\n";
  bool first = true;
  for (const Table& t : s.tables) {
    if (!drawn_for_people(t) || t.folded) continue;
    md += (first ? "" : "\n") + markdown_table(t);
    first = false;
  }
  if (!rows && !s.nothing_to_show.empty()) md += s.nothing_to_show + "\n";
  if (const std::string folded = folded_tables_line(s); !folded.empty()) md += folded + "\n";
  for (const std::string& item : s.items) md += "- " + item + "\n";
  for (const std::string& sentence : s.sentences) md += "\n" + sentence + "\n";
  for (const std::string& f : s.flags) md += "\n**Flag:** " + f + ".\n";
  return md;
}

}  // namespace tco
