#include "reports/csv/csv_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "reports/document/section_order.hpp"
#include "reports/document/section_render.hpp"
#include "reports/json/depreciation_json.hpp"

namespace tco {

namespace {

std::string row(const Json& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + csv_field(values[i]);
  return out + "\n";
}

// A list of flat objects as a table, columns in the first object's key order.
std::string objects_table(const Json& objects) {
  if (objects.empty()) return "";
  Json header = Json::array();
  for (const auto& [k, v] : objects.at(0).items())
    if (!v.is_structured()) header.push_back(k);
  std::string out = row(header);
  for (const auto& o : objects) {
    Json line = Json::array();
    for (const auto& k : header) line.push_back(o.value(k.get<std::string>(), Json(nullptr)));
    out += row(line);
  }
  return out;
}



// A header of columns, then the rows (depreciation_rows, goodput_rows, refresh_rows, ...); empty when
// there are none.
std::string columns_table(const std::vector<std::string>& columns, const std::vector<Json>& rows) {
  if (rows.empty()) return "";
  std::string out = row(Json(columns));
  for (const Json& r : rows) out += row(r);
  return out;
}


}  // namespace

CsvTables csv_tables(const Json& report) {
  CsvTables tables;
  for (const Section& section : report_sections(report, true))  // sensitivity.csv, plans.csv, breakevens_*.csv
    for (auto& table : csv_section(section)) tables.push_back(std::move(table));
  if (report.contains("sizing")) tables.emplace_back("sizing.csv", objects_table(report.at("sizing").at("curve")));
  if (report.contains("sizing") && report.at("sizing").contains("frontier"))
    tables.emplace_back("sizing_frontier.csv", objects_table(report.at("sizing").at("frontier")));
  for (const Section& section : report_sections(report, false))  // monte_carlo.csv, ..., monthly_cash_flows.csv
    for (auto& table : csv_section(section)) tables.push_back(std::move(table));
  if (report.contains("next_generation") && report.at("next_generation").contains("arrival_month_over_paths"))
    tables.emplace_back("next_generation_arrival.csv",
                        objects_table(Json::array({report.at("next_generation").at("arrival_month_over_paths")})));
  if (std::string t = columns_table(depreciation_columns(), depreciation_rows(report)); !t.empty())
    tables.emplace_back("depreciation.csv", std::move(t));
  return tables;
}

}  // namespace tco
