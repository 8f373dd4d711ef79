#include "cli/terminal/plans_table.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "reports/document/cell_text.hpp"
#include "reports/document/section_order.hpp"

namespace tco::cli {

namespace {

constexpr std::size_t kCells = 9;
constexpr std::size_t kNameCell = 1;
constexpr int kNarrowestName = 10;
using Line = std::array<std::string, kCells>;  // one printed row: its number, then the cells

// The columns the terminal shows, by their CSV keys in the report document's plans table
// (reports/document/answer/plans_section.cpp), after the row's number.
constexpr std::array<const char*, kCells - 1> kKeys = {"plan",          "kind",
                                                      "onprem_nodes",  "npv_usd",
                                                      "total_nominal_usd", "usd_per_useful_gpu_hour",
                                                      "npv_saving_usd", "payback_month"};

Line plan_row(const Table& plans, const tco::Row& cells_of, std::size_t number) {
  Line row;
  row[0] = std::to_string(number);
  for (std::size_t k = 0; k < kKeys.size(); ++k) {
    std::size_t c = 0;
    while (plans.columns.at(c).csv_key != kKeys[k]) ++c;
    std::string text = cell_text(cells_of.cells.at(c));
    // The header says "$/GPU-h"; "none needed (no investment)" is cut to "none needed" (the
    // terminal answer's header says why) so that plan names keep their width.
    if (k == 5 && text.rfind("$", 0) == 0) text.erase(0, 1);
    if (const auto cut = text.find(" (no investment)"); k == 7 && cut != std::string::npos) text.erase(cut);
    row[k + 1] = text;
  }
  return row;
}

std::string row_text(const Line& row, const std::array<std::size_t, kCells>& width) {
  std::string line;
  for (std::size_t i = 0; i < kCells; ++i) {
    const bool left = i == kNameCell || i == 2;
    line += i == 0 ? "" : " ";
    line += left ? fmt::format("{:<{}}", row[i], width[i]) : fmt::format("{:>{}}", row[i], width[i]);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
}

}  // namespace

std::string plans_table(const Json& report, int columns) {
  std::vector<Line> rows = {{"#", "plan", "kind", "nodes", "NPV", "total", "$/GPU-h", "saving (NPV)", "payback"}};
  const Section section = report_section(report, "plans");
  const Table& plans = section.tables.at(0);
  std::size_t number = 0;
  for (const tco::Row& r : plans.rows) rows.push_back(plan_row(plans, r, ++number));

  std::array<std::size_t, kCells> width{};
  for (const Line& r : rows)
    for (std::size_t i = 0; i < kCells; ++i) width[i] = std::max(width[i], r[i].size());
  std::size_t others = kCells - 1;  // the spaces between cells
  for (std::size_t i = 0; i < kCells; ++i) others += i == kNameCell ? 0 : width[i];
  const std::size_t room = columns > static_cast<int>(others) ? static_cast<std::size_t>(columns) - others : 0;
  width[kNameCell] = std::min(width[kNameCell], std::max<std::size_t>(room, kNarrowestName));

  std::string legend;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    std::string& name = rows[r][kNameCell];
    if (name.size() <= width[kNameCell]) continue;
    legend += fmt::format("  {} = {}\n", rows[r][0], name);
    name = name.substr(0, width[kNameCell] - 1) + "~";
  }
  std::string out;
  for (const Line& r : rows) out += row_text(r, width);
  if (!legend.empty()) out += "plans shortened above (~), in full:\n" + legend;
  return out;
}

}  // namespace tco::cli
