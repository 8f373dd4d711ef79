#include <cctype>

#include "reports/document/cell_text.hpp"
#include "reports/document/section_render.hpp"
#include "reports/html/html_escape.hpp"

namespace tco {

namespace {

// "the tables hold ..." as a sentence under them: "The tables hold ....".
std::string as_sentence(std::string text) {
  if (text.empty()) return text;
  text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text.back() == '.' ? text : text + ".";
}

std::string html_cell(const Cell& cell) {
  const std::string text = cell_text(cell);
  // Words in a column of numbers ("none needed (no investment)") wrap between them; prose (a
  // source with its URLs) anywhere, so that its column never pushes the table past the page.
  if (!is_words(cell.kind)) return (cell.shown_as.empty() ? "<td class=n>" : "<td class=\"n w\">") + html_escape(text) + "</td>";
  if (cell.kind == CellKind::prose) return "<td class=prose>" + html_escape(text) + "</td>";
  return "<td>" + html_name(text) + "</td>";
}

std::string html_table(const Table& t) {
  // The caption introduces the table, as in Markdown and the terminal: "...:"; a folded table's
  // is the line that opens it.
  std::string out = t.folded      ? "<details><summary>" + html_name(t.caption) + "</summary>"
                    : t.caption.empty() ? ""
                                        : "<p>" + html_escape(t.caption) + ":</p>\n";
  out += "<table><tr>";
  for (const Column& c : t.columns)
    if (c.shown != Shown::csv) out += "<th>" + html_name(c.header) + "</th>";  // a plan's name may head a column
  out += "</tr>\n";
  for (const Row& r : t.rows) {
    out += "<tr>";
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      if (t.columns[c].shown != Shown::csv) out += html_cell(r.cells.at(c));
    out += "</tr>\n";
  }
  out += t.folded ? "</table></details>\n" : "</table>\n";
  if (!t.after.empty()) out += "<p>" + html_escape(t.after) + "</p>\n";
  return out;
}

}  // namespace

std::string html_section(const Section& s) {
  if (s.empty()) return "";
  std::string out = "<h2 id=\"" + html_escape(s.id) + "\">" + html_escape(s.title) + "</h2>\n";
  for (const std::string& o : s.opening) out += "<p>" + html_escape(o) + "</p>\n";
  bool rows = false;
  for (const Table& t : s.tables) {
    if (t.rows.empty()) continue;
    rows = true;
    if (drawn_for_people(t)) out += html_table(t);
  }
  if (!rows && !s.nothing_to_show.empty()) out += "<p>" + html_escape(as_sentence(s.nothing_to_show)) + "</p>\n";
  if (!s.items.empty()) {
    out += "<ul>";
    for (const std::string& item : s.items) out += "<li>" + html_escape(item) + "</li>";
    out += "</ul>\n";
  }
  if (rows && !s.lead.empty()) out += "<p class=note>" + html_escape(as_sentence(s.lead)) + "</p>\n";
  for (const std::string& sentence : s.sentences) out += "<p>" + html_escape(sentence) + "</p>\n";
  for (const std::string& f : s.flags) out += "<p class=note><b>Flag:</b> " + html_escape(f) + ".</p>\n";
  return out;
}

std::string html_name(const std::string& text) {
  if (text.size() <= kMaxShownNameChars) return html_escape(text);
  return "<span title=\"" + html_escape(text) + "\">" + html_escape(shortened(text, kMaxShownNameChars)) + "</span>";
}

std::string shortened(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  std::size_t cut = max_chars >= 3 ? max_chars - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a UTF-8 continuation byte
  return text.substr(0, cut) + "...";
}

}  // namespace tco
