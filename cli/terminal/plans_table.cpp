#include "cli/terminal/plans_table.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "reports/markdown/markdown_summary.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco::cli {

namespace {

constexpr std::size_t kCells = 9;
constexpr std::size_t kNameCell = 1;
constexpr int kNarrowestName = 10;
using Row = std::array<std::string, kCells>;

// The report's payback words, with "none needed (no investment)" cut to "none needed" (the
// terminal answer's header says why) so that plan names keep their width.
std::string payback_cell(const Json& comparison) {
  std::string words = payback_words(comparison);
  if (const auto cut = words.find(" (no investment)"); cut != std::string::npos) words.erase(cut);
  return words;
}

const Json* comparison_of(const Json& report, const std::string& plan) {
  for (const auto& c : report.at("comparisons"))
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

Row plan_row(const Json& report, const Json& p, std::size_t number) {
  const std::string name = p.at("name").get<std::string>();
  const Json* c = comparison_of(report, name);
  const Json& per_hour = p.at("usd_per_useful_gpu_hour");
  return {std::to_string(number), name, p.at("kind").get<std::string>(), std::to_string(p.at("onprem_nodes").get<int>()),
          format_usd(p.at("npv_usd")), format_usd(p.at("total_nominal_usd")),
          per_hour.is_number() ? fmt::format("{:.2f}", per_hour.get<double>()) : "n/a",
          c ? format_usd(c->at("npv_saving_usd")) : "baseline", c ? payback_cell(*c) : "-"};
}

std::string row_text(const Row& row, const std::array<std::size_t, kCells>& width) {
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
  std::vector<Row> rows = {{"#", "plan", "kind", "nodes", "NPV", "total", "$/GPU-h", "saving (NPV)", "payback"}};
  std::size_t number = 0;
  for (const auto& p : report.at("plans")) rows.push_back(plan_row(report, p, ++number));

  std::array<std::size_t, kCells> width{};
  for (const Row& r : rows)
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
  for (const Row& r : rows) out += row_text(r, width);
  if (!legend.empty()) out += "plans shortened above (~), in full:\n" + legend;
  return out;
}

}  // namespace tco::cli
