#pragma once
// The FOCUS export's CSV read back in tests: RFC 4180 (ChargeDescription holds commas, so it is
// quoted), written here apart from the importer's reader so that the two check each other.

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace tco::test {

using FocusRow = std::map<std::string, std::string>;  // column name -> cell

// The data rows of an RFC 4180 text, each keyed by the header row's names.
inline std::vector<FocusRow> focus_csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"') records.back().back() += text[++i];
    else if (c == '"') quoted = !quoted;
    else if (!quoted && c == ',') records.back().emplace_back();
    else if (!quoted && c == '\n') records.emplace_back(1);
    else records.back().back() += c;
  }
  if (records.back().size() == 1 && records.back()[0].empty()) records.pop_back();
  std::vector<FocusRow> rows;
  for (std::size_t r = 1; r < records.size(); ++r) {
    REQUIRE(records[r].size() == records[0].size());
    FocusRow row;
    for (std::size_t k = 0; k < records[0].size(); ++k) row[records[0][k]] = records[r][k];
    rows.push_back(row);
  }
  return rows;
}

inline double focus_number(const FocusRow& row, const std::string& column) { return std::stod(row.at(column)); }

}  // namespace tco::test
