#include "reports/csv/csv_report.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/atomic_file.hpp"

namespace tco {

namespace {

std::string cell(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string quoted = "\"";
    for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }
  return v.dump();
}

std::string row(const Json& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + cell(values[i]);
  return out + "\n";
}

std::string monthly_cash_flows(const Json& report) {
  Json header = Json::array({"plan"});
  for (const auto& c : report.at("plans").at(0).at("monthly").at("columns")) header.push_back(c);
  std::string out = row(header);
  for (const auto& p : report.at("plans")) {
    for (const auto& r : p.at("monthly").at("rows")) {
      Json line = Json::array({p.at("name")});
      for (const auto& v : r) line.push_back(v);
      out += row(line);
    }
  }
  return out;
}

std::string plans_table(const Json& report) {
  std::string out = "plan,kind,onprem_nodes,npv_usd,total_nominal_usd,usd_per_useful_gpu_hour,npv_saving_usd,payback_month,irr_per_year\n";
  for (const auto& p : report.at("plans")) {
    Json saving = nullptr, payback = nullptr, irr = nullptr;
    for (const auto& c : report.at("comparisons")) {
      if (c.at("plan") != p.at("name")) continue;
      saving = c.at("npv_saving_usd");
      payback = c.at("payback_month");
      irr = c.at("irr_per_year");
    }
    out += row(Json::array({p.at("name"), p.at("kind"), p.at("onprem_nodes"), p.at("npv_usd"), p.at("total_nominal_usd"),
                            p.at("usd_per_useful_gpu_hour"), saving, payback, irr}));
  }
  return out;
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

}  // namespace

CsvTables csv_tables(const Json& report) {
  CsvTables tables = {{"monthly_cash_flows.csv", monthly_cash_flows(report)}, {"plans.csv", plans_table(report)}};
  if (report.contains("sizing")) tables.emplace_back("sizing.csv", objects_table(report.at("sizing").at("curve")));
  if (report.at("pricing").contains("implied_forwards"))
    tables.emplace_back("implied_forwards.csv", objects_table(report.at("pricing").at("implied_forwards")));
  if (report.contains("sensitivity") && report.at("sensitivity").contains("tornado"))
    tables.emplace_back("sensitivity.csv", objects_table(report.at("sensitivity").at("tornado").at("inputs")));
  return tables;
}

}  // namespace tco
