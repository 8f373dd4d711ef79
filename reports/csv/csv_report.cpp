#include "reports/csv/csv_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "reports/json/depreciation_json.hpp"
#include "reports/json/goodput_json.hpp"
#include "reports/json/hourly_time_shift_json.hpp"
#include "reports/json/refresh_table.hpp"
#include "reports/json/time_shift_json.hpp"
#include "reports/json/commitments_json.hpp"

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
  std::string out = "plan,kind,onprem_nodes,npv_usd,total_nominal_usd,usd_per_useful_gpu_hour,npv_saving_usd,payback_month,"
                    "irr_per_year,co2_onprem_kg,co2_embodied_kg,co2_cloud_kg\n";
  for (const auto& p : report.at("plans")) {
    Json saving = nullptr, payback = nullptr, irr = nullptr;
    for (const auto& c : report.at("comparisons")) {
      if (c.at("plan") != p.at("name")) continue;
      saving = c.at("npv_saving_usd");
      payback = c.at("payback_month");
      irr = c.at("irr_per_year");
    }
    const Json& co2 = p.at("co2_kg");
    out += row(Json::array({p.at("name"), p.at("kind"), p.at("onprem_nodes"), p.at("npv_usd"), p.at("total_nominal_usd"),
                            p.at("usd_per_useful_gpu_hour"), saving, payback, irr, co2.at("onprem"),
                            co2.value("embodied", Json(nullptr)), co2.at("cloud")}));
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

// One row per plan with `procurement` (reports/json/procurement_json.hpp); empty when none has one.
std::string procurement_table(const Json& report) {
  std::string out;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("procurement")) continue;
    const Json& o = p.at("procurement");
    const Json& d = o.at("delivery_month");
    out += row(Json::array({p.at("name"), o.at("order_month"), o.at("deposit_usd"), o.at("purchase_month"),
                            o.at("planned_delivery_month"), o.at("delivery_slip"), d.at("paths"), d.at("mean"),
                            d.at("p5"), d.at("p50"), d.at("p95"), o.at("share_later_than_planned"),
                            o.at("share_past_horizon")}));
  }
  if (out.empty()) return out;
  return "plan,order_month,deposit_usd,purchase_month,planned_delivery_month,delivery_slip,paths,delivery_month_mean,"
         "delivery_month_p5,delivery_month_p50,delivery_month_p95,share_later_than_planned,share_past_horizon\n" +
         out;
}

// One row per venue of each plan with `venues` (reports/json/venues_json.hpp), the plan's waited and
// unserved GPU-hours beside; empty when no plan has venues.
std::string venues_table(const Json& report) {
  std::string out;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("venues")) continue;
    const Json& venues = p.at("venues");
    int order = 1;
    for (const auto& v : venues.at("list"))
      out += row(Json::array({p.at("name"), order++, v.at("name"), v.at("price"), v.at("work_gpu_hours"),
                              v.at("billed_gpu_hours"), v.at("cost_nominal_usd"), v.at("instance_hours"),
                              v.at("launched_instances"), venues.at("waited_gpu_hours"),
                              venues.at("unserved_gpu_hours")}));
  }
  if (out.empty()) return out;
  return "plan,order,venue,price,work_gpu_hours,billed_gpu_hours,cost_nominal_usd,instance_hours,launched_instances,"
         "plan_waited_gpu_hours,plan_unserved_gpu_hours\n" +
         out;
}

// A header of columns, then the rows (depreciation_rows, goodput_rows, refresh_rows, ...); empty when
// there are none.
std::string columns_table(const std::vector<std::string>& columns, const std::vector<Json>& rows) {
  if (rows.empty()) return "";
  std::string out = row(Json(columns));
  for (const Json& r : rows) out += row(r);
  return out;
}

// One row per instrument of each plan with `commitments` (reports/json/commitments_json.hpp).
std::string commitments_table(const Json& report) {
  std::string out;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("commitments")) continue;
    for (const auto& c : p.at("commitments")) {
      Json values = Json::array({p.at("name")});
      for (const std::string_view key : kCommitmentFigureKeys) values.push_back(c.at(std::string(key)));
      out += row(values);
    }
  }
  if (out.empty()) return out;
  std::string header = "plan";
  for (const std::string_view key : kCommitmentFigureKeys) header += "," + std::string(key);
  return header + "\n" + out;
}

}  // namespace

CsvTables csv_tables(const Json& report) {
  CsvTables tables = {{"monthly_cash_flows.csv", monthly_cash_flows(report)}, {"plans.csv", plans_table(report)}};
  if (report.contains("sizing")) tables.emplace_back("sizing.csv", objects_table(report.at("sizing").at("curve")));
  if (report.contains("sizing") && report.at("sizing").contains("frontier"))
    tables.emplace_back("sizing_frontier.csv", objects_table(report.at("sizing").at("frontier")));
  if (report.at("pricing").contains("implied_forwards"))
    tables.emplace_back("implied_forwards.csv", objects_table(report.at("pricing").at("implied_forwards")));
  if (report.contains("sensitivity") && report.at("sensitivity").contains("tornado"))
    tables.emplace_back("sensitivity.csv", objects_table(report.at("sensitivity").at("tornado").at("inputs")));
  if (std::string t = procurement_table(report); !t.empty()) tables.emplace_back("procurement.csv", std::move(t));
  if (std::string t = commitments_table(report); !t.empty()) tables.emplace_back("commitments.csv", std::move(t));
  if (std::string t = columns_table(refresh_columns(), refresh_rows(report)); !t.empty())
    tables.emplace_back("refresh.csv", std::move(t));
  if (report.contains("next_generation") && !report.at("next_generation").at("plans").empty())
    tables.emplace_back("next_generation.csv", objects_table(report.at("next_generation").at("plans")));
  if (report.contains("next_generation") && report.at("next_generation").contains("arrival_month_over_paths"))
    tables.emplace_back("next_generation_arrival.csv",
                        objects_table(Json::array({report.at("next_generation").at("arrival_month_over_paths")})));
  if (std::string t = columns_table(depreciation_columns(), depreciation_rows(report)); !t.empty())
    tables.emplace_back("depreciation.csv", std::move(t));
  if (std::string t = columns_table(goodput_columns(), goodput_rows(report)); !t.empty())
    tables.emplace_back("goodput.csv", std::move(t));
  if (std::string t = columns_table(time_shift_columns(), time_shift_rows(report)); !t.empty())
    tables.emplace_back("time_shift.csv", std::move(t));
  if (std::string t = columns_table(hourly_time_shift_columns(), hourly_time_shift_rows(report)); !t.empty())
    tables.emplace_back("hourly_time_shift.csv", std::move(t));
  if (std::string t = venues_table(report); !t.empty()) tables.emplace_back("venues.csv", std::move(t));
  return tables;
}

}  // namespace tco
