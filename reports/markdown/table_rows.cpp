#include "reports/markdown/table_rows.hpp"

#include "reports/html/html_escape.hpp"

namespace tco {

std::string markdown_table_rows(const std::vector<Json>& rows, TableCells cells) {
  std::string md;
  for (const Json& row : rows) {
    md += "|";
    for (const std::string& cell : cells(row)) md += " " + cell + " |";
    md += "\n";
  }
  return md;
}

std::string html_table_rows(const std::vector<Json>& rows, TableCells cells, const std::set<std::size_t>& text_columns) {
  std::string html;
  for (const Json& row : rows) {
    const std::vector<std::string> texts = cells(row);
    html += "<tr>";
    for (std::size_t c = 0; c < texts.size(); ++c)
      html += (text_columns.count(c) ? "<td>" : "<td class=n>") + html_escape(texts[c]) + "</td>";
    html += "</tr>\n";
  }
  return html;
}

}  // namespace tco
