#include "reports/workbook/workbook.hpp"

#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <xlsxwriter.h>

#include "core/error.hpp"
#include "core/io/staging_files.hpp"
#include "reports/document/section_order.hpp"
#include "reports/json/depreciation_json.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/verdict/verdict_text.hpp"
#include "reports/workbook/live_plan.hpp"
#include "reports/workbook/tokens_sheet.hpp"

namespace tco {

namespace {

namespace fs = std::filesystem;

std::string column_letters(int col) {
  std::string out;
  for (++col; col > 0; col = (col - 1) / 26) out.insert(out.begin(), static_cast<char>('A' + (col - 1) % 26));
  return out;
}

// A1 reference (0-based row and column); absolute with $ when asked.
std::string ref(int row, int col, bool absolute = false) {
  return absolute ? fmt::format("${}${}", column_letters(col), row + 1) : fmt::format("{}{}", column_letters(col), row + 1);
}

std::string range(int first_row, int last_row, int col) {
  return fmt::format("${}${}:${}${}", column_letters(col), first_row + 1, column_letters(col), last_row + 1);
}

std::string quoted_sheet(const std::string& name) {
  std::string out = "'";
  for (char c : name) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A new worksheet, or an error naming the workbook and the sheet (libxlsxwriter returns NULL for a
// name already taken or not allowed; writing to it would crash).
lxw_worksheet* add_sheet(lxw_workbook* wb, const std::string& name, const std::string& file) {
  lxw_worksheet* ws = workbook_add_worksheet(wb, name.c_str());
  if (!ws) throw InputError(file, "", "cannot add the sheet \"" + name + "\" to the workbook");
  return ws;
}

// One worksheet; remembers the first libxlsxwriter error so the caller can report it once.
class Sheet {
 public:
  Sheet(lxw_worksheet* ws, lxw_error* first_error) : ws_(ws), error_(first_error) {}
  void num(int row, int col, double v, lxw_format* f = nullptr) { check(worksheet_write_number(ws_, row, col, v, f)); }
  void str(int row, int col, const std::string& s, lxw_format* f = nullptr) {
    check(worksheet_write_string(ws_, row, col, s.c_str(), f));
  }
  // A formula with the value tcosim computed cached in it, for viewers that do not recalculate.
  void formula(int row, int col, const std::string& text, double cached, lxw_format* f = nullptr) {
    check(worksheet_write_formula_num(ws_, row, col, ("=" + text).c_str(), f, cached));
  }
  void value(int row, int col, const Json& v, lxw_format* f = nullptr) {
    if (v.is_number()) num(row, col, v.get<double>(), f);
    else if (v.is_boolean()) check(worksheet_write_boolean(ws_, row, col, v.get<bool>(), f));
    else if (v.is_string()) str(row, col, v.get<std::string>(), f);
    else if (v.is_null()) str(row, col, "(none)", f);
    else str(row, col, v.dump(), f);
  }
  void width(int first_col, int last_col, double w) { check(worksheet_set_column(ws_, first_col, last_col, w, nullptr)); }
  lxw_worksheet* raw() { return ws_; }

 private:
  void check(lxw_error e) {
    if (e != LXW_NO_ERROR && *error_ == LXW_NO_ERROR) *error_ = e;
  }
  lxw_worksheet* ws_;
  lxw_error* error_;
};

struct Formats {
  lxw_format* bold;
  lxw_format* usd;
  lxw_format* factor;
  lxw_format* rate;
  lxw_format* live;        // the header of a live column (green)
  lxw_format* live_input;  // an input cell a live column reads (green)
};

// The unit of an input from its key, by the project's naming rule (units in names, STYLE.md 5):
// "on_demand_usd_per_hour" -> "USD/hour", "peak_kw" -> "kW", "usd_per_fte_year" -> "USD/FTE year",
// "price_change_per_year" -> "per year", "pue_slope_per_c" -> "per °C".
std::string unit_of(const std::string& key) {
  static const std::vector<std::pair<std::string, std::string>> units = {
      {"usd", "USD"}, {"kwh", "kWh"}, {"kw", "kW"},   {"w", "W"},         {"h", "h"},           {"s", "s"},
      {"gb", "GB"},   {"kg", "kg"},   {"cfm", "CFM"}, {"c", "°C"},        {"mw", "MW"},         {"hours", "hours"},
      {"days", "days"}, {"months", "months"}, {"years", "years"}, {"gpus", "GPUs"}, {"nodes", "nodes"}, {"fte", "FTE"}, {"g", "g"}};
  static const std::vector<std::pair<std::string, std::string>> words = {
      {"gpu", "GPU"}, {"co2", "CO2"}, {"kwh", "kWh"}, {"kw", "kW"}, {"usd", "USD"}, {"fte", "FTE"}, {"c", "°C"},
      {"gb", "GB"}};
  std::vector<std::string> tokens;
  for (std::size_t at = 0; at <= key.size();) {
    const std::size_t next = std::min(key.find('_', at), key.size());
    tokens.push_back(key.substr(at, next - at));
    at = next + 1;
  }
  auto lookup = [](const auto& table, const std::string& t) -> const std::string* {
    for (const auto& [k, v] : table)
      if (t == k) return &v;
    return nullptr;
  };
  // The unit starts at the first unit word (the first word only when it is the whole key or a
  // "per" or CO2 follows: "gpus", "gpus_per_instance", "g_co2_per_kwh"; otherwise it names the
  // thing), or at a bare "per".
  std::size_t first = tokens.size();
  for (std::size_t i = 0; i < tokens.size() && first == tokens.size(); ++i) {
    const bool leads =
        i > 0 || tokens.size() == 1 || (tokens.size() > 1 && (tokens[1] == "per" || tokens[1] == "co2"));
    if (tokens[i] == "per" || (leads && lookup(units, tokens[i]))) first = i;
  }
  if (first == tokens.size()) {
    for (const char* fraction : {"share", "fraction", "availability", "efficiency", "utilization", "relative"})
      if (key.find(fraction) != std::string::npos) return "fraction";
    return "";
  }
  std::string out;
  for (std::size_t j = first; j < tokens.size(); ++j) {
    if (tokens[j] == "per") {
      out += out.empty() ? "per " : "/";
      continue;
    }
    const std::string* w = j == first ? lookup(units, tokens[j]) : lookup(words, tokens[j]);
    if (!w) w = lookup(units, tokens[j]);
    if (!out.empty() && out.back() != '/' && out.back() != ' ') out += " ";
    out += w ? *w : tokens[j];
  }
  return out;
}

struct InputRow {
  std::string name;
  Json value;
  std::string source;
  std::string as_of;
  std::string record;
};

// Leaves of the resolved inputs, each with the provenance of the nearest record above it.
void flatten(const Json& node, const std::string& name, const Json* provenance, std::vector<InputRow>& out) {
  if (node.is_object()) {
    const Json* here = node.contains("provenance") && node.at("provenance").is_object() ? &node.at("provenance") : provenance;
    for (const auto& [key, child] : node.items())
      if (key != "provenance") flatten(child, name.empty() ? key : name + "." + key, here, out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      const Json& child = node[i];
      const std::string label = child.is_object() && child.contains("name") && child.at("name").is_string()
                                    ? child.at("name").get<std::string>()
                                    : std::to_string(i);
      flatten(child, fmt::format("{}[{}]", name, label), provenance, out);
    }
  } else {
    InputRow row{name, node, "scenario or default", "", ""};
    if (provenance) {
      row.source = provenance->value("source", "");
      row.as_of = provenance->value("as_of", "");
      row.record = provenance->value("kind", "") + " " + provenance->value("id", "");
    }
    out.push_back(std::move(row));
  }
}

std::string last_key(const std::string& name) {
  const std::size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

constexpr const char* kDiscountRateName = "DiscountRate";
constexpr const char* kHoursSheetName = "Hours";

// Returns the numeric and boolean input cells by name, for the plan sheets' live formulas.
InputCells write_inputs(lxw_workbook* wb, Sheet sheet, const Json& report, const Formats& f) {
  InputCells cells;
  const Json& sc = report.at("scenario");
  int row = 0;
  sheet.str(row, 0, "input", f.bold);
  sheet.str(row, 1, "value", f.bold);
  sheet.str(row, 2, "unit", f.bold);
  sheet.str(row, 3, "source", f.bold);
  sheet.str(row, 4, "as_of", f.bold);
  sheet.str(row, 5, "record", f.bold);
  ++row;
  // Row 2: the discount rate every plan sheet's discount factors refer to. Change it and the
  // workbook recomputes every NPV.
  sheet.str(row, 0, "scenario.discount_rate_per_year");
  sheet.num(row, 1, sc.at("discount_rate_per_year").get<double>(), f.rate);
  sheet.str(row, 2, "per year");
  sheet.str(row, 3, "scenario (named cell DiscountRate)");
  if (workbook_define_name(wb, kDiscountRateName, ("=" + quoted_sheet("Inputs") + "!" + ref(row, 1, true)).c_str()) !=
      LXW_NO_ERROR)
    throw InputError("", "", "cannot name the discount rate cell");
  ++row;
  std::vector<InputRow> rows;
  for (const char* key : {"name", "file", "start", "horizon_months", "waiting_usd_per_gpu_hour", "baseline"})
    rows.push_back({std::string("scenario.") + key, sc.at(key), "scenario", "", ""});
  const Json& mc = report.at("monte_carlo");
  for (const char* key : {"mode", "seed", "paths"})
    if (mc.contains(key)) rows.push_back({std::string("monte_carlo.") + key, mc.at(key), "run", "", ""});
  flatten(report.at("inputs"), "inputs", nullptr, rows);
  for (const InputRow& r : rows) {
    sheet.str(row, 0, r.name);
    sheet.value(row, 1, r.value);
    if (r.value.is_number() || r.value.is_boolean())
      cells[r.name] = {quoted_sheet("Inputs") + "!" + ref(row, 1, true),
                       r.value.is_boolean() ? (r.value.get<bool>() ? 1.0 : 0.0) : r.value.get<double>(), row,
                       r.value.is_boolean()};
    sheet.str(row, 2, r.value.is_number() ? unit_of(last_key(r.name)) : std::string());
    sheet.str(row, 3, r.source);
    sheet.str(row, 4, r.as_of);
    sheet.str(row, 5, r.record);
    ++row;
  }
  ++row;
  sheet.str(row, 0, "pricing records used", f.bold);
  sheet.str(row, 1, "kind", f.bold);
  sheet.str(row, 3, "source", f.bold);
  sheet.str(row, 4, "as_of", f.bold);
  ++row;
  for (const auto& r : report.at("pricing").at("records")) {
    sheet.value(row, 0, r.at("id"));
    sheet.value(row, 1, r.at("kind"));
    sheet.value(row, 3, r.at("source"));
    sheet.value(row, 4, r.at("as_of"));
    ++row;
  }
  if (report.at("pricing").contains("implied_forwards")) {
    ++row;
    sheet.str(row, 0, "implied forward reserved price (years 2-3, from the 1-year / 3-year pair)", f.bold);
    ++row;
    for (const auto& fw : report.at("pricing").at("implied_forwards")) {
      const std::string offer = fw.at("offer").get<std::string>();
      for (const char* key : {"reserved_1y_usd_per_instance_hour", "reserved_3y_usd_per_instance_hour",
                              "discount_rate_per_year", "implied_forward_usd_per_instance_hour",
                              "implied_forward_usd_per_gpu_hour", "forward_change_vs_1y"}) {
        sheet.str(row, 0, offer + " " + key);
        sheet.value(row, 1, fw.at(key));
        sheet.str(row, 2, unit_of(key));
        ++row;
      }
    }
  }
  if (report.contains("next_generation")) {
    ++row;
    sheet.str(row, 0, "next generation: NPV with and without the event (effect > 0 costs the plan)", f.bold);
    ++row;
    for (const auto& p : report.at("next_generation").at("plans")) {
      const std::string plan = p.at("plan").get<std::string>();
      for (const char* key : {"npv_usd", "npv_without_event_usd", "npv_effect_usd", "residual_npv_effect_usd"}) {
        sheet.str(row, 0, plan + " " + key);
        sheet.value(row, 1, p.at(key));
        sheet.str(row, 2, unit_of(key));
        ++row;
      }
    }
    if (report.at("next_generation").contains("arrival_month_over_paths")) {
      const Json& o = report.at("next_generation").at("arrival_month_over_paths");
      const std::pair<const char*, const char*> figures[] = {{"paths", "paths"}, {"mean", "month"},
                                                              {"p5", "month"},    {"p50", "month"},
                                                              {"p95", "month"},   {"share_inside_horizon", "fraction"}};
      for (const auto& [key, unit] : figures) {
        sheet.str(row, 0, std::string("arrival month over the paths: ") + key);
        sheet.value(row, 1, o.at(key));
        sheet.str(row, 2, unit);
        ++row;
      }
    }
  }
  sheet.width(0, 0, 60);
  sheet.width(1, 2, 16);
  sheet.width(3, 3, 80);
  sheet.width(4, 5, 14);
  return cells;
}

// The hourly demand the plan sheets' cloud and energy formulas read: an input like the others.
void write_hours(Sheet sheet, const std::vector<double>& demand_gpus, const Formats& f) {
  sheet.str(0, 0, "hour", f.bold);
  sheet.str(0, 1, "demand_gpus", f.bold);
  sheet.str(0, 2, "month", f.bold);
  sheet.str(0, 4, "D(h): the work demanded in hour h (reference GPUs) over the horizon, as the run computed it from "
                  "the workload; the plan sheets' cloud and energy formulas read it. Edit it to change the demand.");
  for (std::size_t h = 0; h < demand_gpus.size(); ++h) {
    const int row = static_cast<int>(h) + 1;
    sheet.num(row, 0, static_cast<double>(h));
    sheet.num(row, 1, demand_gpus[h]);
    sheet.num(row, 2, static_cast<double>(h / 730));
  }
  sheet.width(0, 2, 12);
  worksheet_freeze_panes(sheet.raw(), 1, 0);
}

int column_index(const Json& columns, const std::string& name, const std::string& plan) {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  throw InputError("", "/plans", fmt::format("plan {}: the monthly table has no \"{}\" column (a report from an older "
                                             "tcosim? run the scenario again)",
                                             plan, name));
}

// Where a plan sheet keeps the figures the Summary refers to.
struct PlanCells {
  std::string npv;    // 'sheet'!$B$3
  std::string total;  // 'sheet'!$B$4
};

// Layout: rows 1-5 the plan and its NPV and total (formulas), row 7 the header, one row per
// month from row 8, then a row of totals.
PlanCells write_plan(Sheet sheet, const std::string& sheet_name, const Json& plan, const LivePlan& live, double rate,
                     const Formats& f) {
  const std::string name = plan.at("name").get<std::string>();
  const Json& columns = plan.at("monthly").at("columns");
  const Json& rows = plan.at("monthly").at("rows");
  const int c_total = column_index(columns, "total_usd", name);
  const int c_start = column_index(columns, "start_of_month_usd", name);
  const int c_cum = column_index(columns, "cumulative_discounted_usd", name);
  const int c_dep = column_index(columns, "depreciation_usd", name);
  const int c_kw = column_index(columns, "peak_facility_kw", name);
  std::vector<std::string> categories;  // the columns between month and total_usd
  for (int i = 1; i < c_total; ++i) categories.push_back(columns[i].get<std::string>());
  const int n_cat = static_cast<int>(categories.size());
  // Column positions on the sheet.
  const int k_total = 1 + n_cat, k_start = k_total + 1, k_end = k_total + 2, k_dfs = k_total + 3, k_dfe = k_total + 4,
            k_disc = k_total + 5, k_cum = k_total + 6, k_dep = k_total + 7, k_kw = k_total + 8;
  const int header = 6, first = header + 1, months = static_cast<int>(rows.size()), last = first + months - 1;
  const int totals = last + 1;

  sheet.str(0, 0, "plan", f.bold);
  sheet.str(0, 1, name);
  sheet.str(1, 0, "kind");
  sheet.value(1, 1, plan.at("kind"));
  sheet.str(2, 0, "NPV (USD)", f.bold);
  sheet.formula(2, 1,
                fmt::format("SUMPRODUCT({},{})+SUMPRODUCT({},{})", range(first, last, k_start), range(first, last, k_dfs),
                            range(first, last, k_end), range(first, last, k_dfe)),
                plan.at("npv_usd").get<double>(), f.usd);
  sheet.str(3, 0, "total nominal (USD)", f.bold);
  sheet.formula(3, 1, fmt::format("SUM({})", range(first, last, k_total)), plan.at("total_nominal_usd").get<double>(), f.usd);
  sheet.str(4, 0, "discount rate per year");
  sheet.formula(4, 1, kDiscountRateName, rate, f.rate);
  sheet.str(4, 2, "from Inputs; flows at the start of month m are discounted (1+rate)^(-m/12), at its end "
                  "(1+rate)^(-(m+1)/12) (SPEC §6)");
  const std::vector<std::string> notes = live.notes();
  for (std::size_t i = 0; i < notes.size() && i < 4; ++i) sheet.str(static_cast<int>(i), 2, notes[i]);
  // Capex and leases are the flows at the start of a month: a formula when they are live.
  const bool start_live = live.start_of_month_live();

  sheet.str(header, 0, "month", f.bold);
  for (int i = 0; i < n_cat; ++i)
    sheet.str(header, 1 + i, categories[i] + "_usd",
              live.live(categories[i]) || live.bill_share(categories[i]) ? f.live : f.bold);
  const char* extra[] = {"total_usd",           "start_of_month_usd", "end_of_month_usd",
                         "discount_factor_start", "discount_factor_end", "discounted_usd",
                         "cumulative_discounted_usd", "depreciation_usd", "peak_facility_kw"};
  for (int i = 0; i < 9; ++i) sheet.str(header, k_total + i, extra[i], i == 1 && start_live ? f.live : f.bold);

  for (int m = 0; m < months; ++m) {
    const Json& r = rows[m];
    const int row = first + m;
    const double total = r.at(c_total).get<double>(), start = r.at(static_cast<std::size_t>(c_start)).get<double>();
    const double dfs = std::pow(1.0 + rate, -static_cast<double>(m) / 12.0);
    const double dfe = std::pow(1.0 + rate, -static_cast<double>(m + 1) / 12.0);
    sheet.num(row, 0, r.at(0).get<double>());
    for (int i = 0; i < n_cat; ++i) {
      if (const auto text = live.formula(categories[i], m, fmt::format("${}", ref(row, 0)))) {
        sheet.formula(row, 1 + i, *text, r.at(1 + i).get<double>(), f.usd);
      } else if (const LivePlan::BillShare* share = live.bill_share(categories[i])) {
        const auto cell = [&](int k) { return ref(row, 1 + k); };
        sheet.formula(row, 1 + i, bill_share_formula(*share, categories, cell), r.at(1 + i).get<double>(), f.usd);
      } else
        sheet.num(row, 1 + i, r.at(1 + i).get<double>(), f.usd);
    }
    sheet.formula(row, k_total, fmt::format("SUM({}:{})", ref(row, 1), ref(row, n_cat)), total, f.usd);
    if (start_live) {
      std::string capex_cell, lease_cell;
      for (int i = 0; i < n_cat; ++i) {
        if (categories[i] == "capex") capex_cell = ref(row, 1 + i);
        if (categories[i] == "lease") lease_cell = ref(row, 1 + i);
      }
      sheet.formula(row, k_start, live.start_of_month_formula(fmt::format("${}", ref(row, 0)), capex_cell, lease_cell),
                    start, f.usd);
    } else {
      sheet.num(row, k_start, start, f.usd);
    }
    sheet.formula(row, k_end, fmt::format("{}-{}", ref(row, k_total), ref(row, k_start)), total - start, f.usd);
    sheet.formula(row, k_dfs, fmt::format("(1+{})^(-{}/12)", kDiscountRateName, ref(row, 0)), dfs, f.factor);
    sheet.formula(row, k_dfe, fmt::format("(1+{})^(-({}+1)/12)", kDiscountRateName, ref(row, 0)), dfe, f.factor);
    sheet.formula(row, k_disc,
                  fmt::format("{}*{}+{}*{}", ref(row, k_start), ref(row, k_dfs), ref(row, k_end), ref(row, k_dfe)),
                  start * dfs + (total - start) * dfe, f.usd);
    sheet.formula(row, k_cum, m == 0 ? ref(row, k_disc) : fmt::format("{}+{}", ref(row - 1, k_cum), ref(row, k_disc)),
                  r.at(c_cum).get<double>(), f.usd);
    sheet.num(row, k_dep, r.at(c_dep).get<double>(), f.usd);
    sheet.num(row, k_kw, r.at(c_kw).get<double>());
  }
  // Totals: nominal per category (the report's breakdown_nominal_usd) and in all.
  sheet.str(totals, 0, "total", f.bold);
  const Json& breakdown = plan.at("breakdown_nominal_usd");
  for (int i = 0; i < n_cat; ++i)
    sheet.formula(totals, 1 + i, fmt::format("SUM({})", range(first, last, 1 + i)),
                  breakdown.value(categories[i], 0.0), f.usd);
  double start_sum = 0.0, discounted_sum = 0.0;
  for (int m = 0; m < months; ++m) start_sum += rows[m].at(c_start).get<double>();
  discounted_sum = plan.at("npv_usd").get<double>();
  const double total_sum = plan.at("total_nominal_usd").get<double>();
  sheet.formula(totals, k_total, fmt::format("SUM({})", range(first, last, k_total)), total_sum, f.usd);
  sheet.formula(totals, k_start, fmt::format("SUM({})", range(first, last, k_start)), start_sum, f.usd);
  sheet.formula(totals, k_end, fmt::format("SUM({})", range(first, last, k_end)), total_sum - start_sum, f.usd);
  sheet.formula(totals, k_disc, fmt::format("SUM({})", range(first, last, k_disc)), discounted_sum, f.usd);
  sheet.width(0, 0, 22);
  sheet.width(1, k_kw, 16);
  worksheet_freeze_panes(sheet.raw(), first, 1);
  const std::string prefix = quoted_sheet(sheet_name) + "!";
  return {prefix + ref(2, 1, true), prefix + ref(3, 1, true)};
}

const Json* comparison_for(const Json& comparisons, const std::string& plan) {
  for (const auto& c : comparisons)
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

void write_summary(Sheet sheet, const Json& report, const std::vector<PlanCells>& cells,
                   const std::vector<std::string>& sheet_names, const InputCells& inputs, const Formats& f) {
  const Json& sc = report.at("scenario");
  const Json& plans = report.at("plans");
  const std::string baseline = sc.at("baseline").get<std::string>();
  std::size_t base = 0, best = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (plans[i].at("name") == baseline) base = i;
    // The verdict's plan; a report written before verdicts existed: the lowest NPV.
    if (report.contains("verdict") ? plans[i].at("name") == report.at("verdict").at("plan")
                                   : plans[i].at("npv_usd").get<double>() < plans[best].at("npv_usd").get<double>())
      best = i;
  }
  sheet.str(0, 0, "tcosim: " + sc.at("name").get<std::string>(), f.bold);
  sheet.str(1, 0, "scenario file");
  sheet.value(1, 1, sc.at("file"));
  sheet.str(2, 0, "start, horizon (months)");
  sheet.value(2, 1, sc.at("start"));
  sheet.value(2, 2, sc.at("horizon_months"));
  sheet.str(3, 0, "discount rate per year");
  sheet.formula(3, 1, kDiscountRateName, sc.at("discount_rate_per_year").get<double>(), f.rate);
  sheet.str(4, 0, "baseline");
  sheet.str(4, 1, baseline);
  sheet.str(6, 0, "verdict", f.bold);
  sheet.str(6, 1, verdict_sentence(report));
  sheet.str(7, 0, "recommended plan");
  sheet.value(7, 1, plans[best].at("name"));
  sheet.str(8, 0, "its NPV saving vs baseline (USD)");
  sheet.formula(8, 1, fmt::format("{}-{}", cells[base].npv, cells[best].npv),
                plans[base].at("npv_usd").get<double>() - plans[best].at("npv_usd").get<double>(), f.usd);
  sheet.str(9, 0, "(the plan sheets' live columns are formulas over the Inputs sheet's cells and the Hours sheet's "
                  "demand, and the NPVs, totals and savings here follow them; each plan sheet says which of its columns "
                  "are live. The verdict's wording, the recommended plan, useful and unserved GPU-hours, payback, IRR "
                  "and CO2 are the run's values: an edit does not move them)");

  const int header = 11;
  const char* heads[] = {"plan",         "kind",         "on-prem nodes", "NPV (USD)",
                         "total nominal (USD)", "useful GPU-hours", "USD per useful GPU-hour", "unserved GPU-hours",
                         "NPV saving vs baseline (USD)", "nominal saving vs baseline (USD)", "payback month",
                         "IRR per year", "sheet", "on-prem grid CO2 (kg)", "embodied CO2 (kg)", "cloud CO2 (kg)"};
  for (int i = 0; i < static_cast<int>(std::size(heads)); ++i) sheet.str(header, i, heads[i], f.bold);
  const int base_row = header + 1 + static_cast<int>(base);
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const Json& p = plans[i];
    const int row = header + 1 + static_cast<int>(i);
    sheet.value(row, 0, p.at("name"));
    sheet.value(row, 1, p.at("kind"));
    // The node count is the Inputs sheet's cell, so that an edited count shows here too.
    const auto nodes = inputs.find("inputs.plans[" + p.at("name").get<std::string>() + "].onprem_nodes");
    if (nodes != inputs.end() && p.at("onprem_nodes").is_number())
      sheet.formula(row, 2, nodes->second.ref, p.at("onprem_nodes").get<double>());
    else
      sheet.value(row, 2, p.at("onprem_nodes"));
    sheet.formula(row, 3, cells[i].npv, p.at("npv_usd").get<double>(), f.usd);
    sheet.formula(row, 4, cells[i].total, p.at("total_nominal_usd").get<double>(), f.usd);
    const double useful = p.at("gpu_hours").at("useful").get<double>();
    sheet.num(row, 5, useful);
    if (useful > 0.0 && p.at("usd_per_useful_gpu_hour").is_number())
      sheet.formula(row, 6, fmt::format("{}/{}", ref(row, 4), ref(row, 5)), p.at("usd_per_useful_gpu_hour").get<double>());
    else
      sheet.str(row, 6, "n/a");
    sheet.value(row, 7, p.at("gpu_hours").at("unserved"));
    const Json* c = comparison_for(report.at("comparisons"), p.at("name").get<std::string>());
    if (i == base || !c) {
      sheet.str(row, 8, "(baseline)");
      sheet.str(row, 9, "(baseline)");
    } else {
      sheet.formula(row, 8, fmt::format("{}-{}", ref(base_row, 3, true), ref(row, 3)), c->at("npv_saving_usd").get<double>(),
                    f.usd);
      sheet.formula(row, 9, fmt::format("{}-{}", ref(base_row, 4, true), ref(row, 4)),
                    c->at("nominal_saving_usd").get<double>(), f.usd);
      sheet.value(row, 10, c->at("payback_month").is_number() ? c->at("payback_month") : Json("never"));
      sheet.value(row, 11, c->at("irr_per_year").is_number() ? c->at("irr_per_year") : Json("n/a"), f.rate);
    }
    sheet.str(row, 12, sheet_names[i]);
    const Json& co2 = p.at("co2_kg");
    sheet.value(row, 13, co2.at("onprem"));
    sheet.value(row, 14, co2.value("embodied", Json(nullptr)));
    // A null cloud figure: the offer gives no PUE or grid intensity (never a guessed 0).
    sheet.value(row, 15, co2.at("cloud").is_number() ? co2.at("cloud") : Json("n/a: no PUE or grid intensity"));
  }
  int note_row = header + 2 + static_cast<int>(plans.size());  // the plans section's notes: an IRR beyond 1,000%
  for (const std::string& note : report_section(report, "plans").sentences) sheet.str(note_row++, 0, note);
  sheet.width(0, 0, 34);
  sheet.width(1, 15, 18);
}

// Statistics over one column of per-path values, as in engine/statistics.hpp: the standard
// error s / sqrt(n), Student t interval, quantiles by linear interpolation (PERCENTILE.INC),
// CVaR95 the mean of the ceil(0.05 n) largest values (ties counted once each).
void write_path_statistics(Sheet& sheet, int first_stat_row, int col, const std::string& r, const Json& stats,
                           const Json* p_cheaper, const Formats& f) {
  const std::string n = fmt::format("COUNT({})", r);
  const std::string se = fmt::format("_xlfn.STDEV.S({0})/SQRT(COUNT({0}))", r);
  const std::string t = fmt::format("_xlfn.T.INV.2T(0.05,{}-1)", n);
  const std::string k = fmt::format("ROUNDUP(0.05*{},0)", n);
  const std::string tail = fmt::format("LARGE({},{})", r, k);
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"mean", fmt::format("AVERAGE({})", r)},
      {"stderr", se},
      {"ci95_low", fmt::format("AVERAGE({})-{}*{}", r, t, se)},
      {"ci95_high", fmt::format("AVERAGE({})+{}*{}", r, t, se)},
      {"p5", fmt::format("_xlfn.PERCENTILE.INC({},0.05)", r)},
      {"p50", fmt::format("_xlfn.PERCENTILE.INC({},0.5)", r)},
      {"p95", fmt::format("_xlfn.PERCENTILE.INC({},0.95)", r)},
      {"cvar95", fmt::format("(SUMPRODUCT(({0}>{1})*{0})+({2}-SUMPRODUCT(({0}>{1})*1))*{1})/{2}", r, tail, k)},
      {"min", fmt::format("MIN({})", r)},
      {"max", fmt::format("MAX({})", r)}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Json& cached = stats.contains(rows[i].first) ? stats.at(rows[i].first) : Json(0.0);
    sheet.formula(first_stat_row + static_cast<int>(i), col, rows[i].second, cached.is_number() ? cached.get<double>() : 0.0,
                  f.usd);
  }
  if (p_cheaper)
    sheet.formula(first_stat_row + static_cast<int>(rows.size()), col, fmt::format("COUNTIF({},\"<0\")/{}", r, n),
                  p_cheaper->get<double>());
}

inline constexpr const char* kStatNames[] = {"mean", "stderr", "ci95_low", "ci95_high", "p5", "p50",
                                             "p95",  "cvar95", "min",      "max",       "p_cheaper"};

void write_paths(Sheet sheet, const Json& report, const WorkbookPaths& paths, const Formats& f) {
  const Json& mc = report.at("monte_carlo");
  const Json& plans = report.at("plans");
  const std::string baseline = report.at("scenario").at("baseline").get<std::string>();
  const auto& npv = paths.npv_usd_by_path;
  if (npv.size() != plans.size()) throw InputError("", "/monte_carlo", "per-path NPVs do not match the report's plans");
  std::size_t base = 0;
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (plans[i].at("name") == baseline) base = i;
  const long n = static_cast<long>(npv.front().size());
  sheet.str(0, 0, fmt::format("Monte Carlo ({}): {} paths, seed {}; NPV per path (USD) and its statistics",
                              mc.at("mode").get<std::string>(), n, mc.at("seed").dump()),
            f.bold);
  sheet.str(1, 0, "Not live: each path's NPV is the run's value (its draws are not in the workbook), so an edit on the "
                  "Inputs sheet, the discount rate included, does not move this sheet; the statistics are formulas over "
                  "these values.");
  const int stat_header = 2, first_stat = 3, path_header = first_stat + 12, first_path = path_header + 1;
  const int last_path = first_path + static_cast<int>(n) - 1;
  sheet.str(stat_header, 0, "statistic", f.bold);
  sheet.str(path_header, 0, "path", f.bold);
  for (int s = 0; s < 11; ++s) sheet.str(first_stat + s, 0, kStatNames[s]);
  // Columns: each plan's NPV, then each non-baseline plan minus the baseline (negative: cheaper).
  std::vector<std::size_t> others;
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (i != base) others.push_back(i);
  const int plan_cols = static_cast<int>(plans.size());
  for (int i = 0; i < plan_cols; ++i) {
    const std::string name = plans[i].at("name").get<std::string>();
    sheet.str(stat_header, 1 + i, name + " NPV", f.bold);
    sheet.str(path_header, 1 + i, name + " NPV", f.bold);
  }
  for (std::size_t j = 0; j < others.size(); ++j) {
    const std::string label = plans[others[j]].at("name").get<std::string>() + " - " + baseline;
    sheet.str(stat_header, 1 + plan_cols + static_cast<int>(j), label, f.bold);
    sheet.str(path_header, 1 + plan_cols + static_cast<int>(j), label, f.bold);
  }
  for (long p = 0; p < n; ++p) {
    const int row = first_path + static_cast<int>(p);
    sheet.num(row, 0, static_cast<double>(p));
    for (int i = 0; i < plan_cols; ++i) sheet.num(row, 1 + i, npv[i][p], f.usd);
    for (std::size_t j = 0; j < others.size(); ++j)
      sheet.formula(row, 1 + plan_cols + static_cast<int>(j),
                    fmt::format("{}-{}", ref(row, 1 + static_cast<int>(others[j])), ref(row, 1 + static_cast<int>(base))),
                    npv[others[j]][p] - npv[base][p], f.usd);
  }
  for (int i = 0; i < plan_cols; ++i) {
    const Json* stats = nullptr;
    for (const auto& p : mc.at("plans"))
      if (p.at("name") == plans[i].at("name")) stats = &p.at("npv_usd");
    write_path_statistics(sheet, first_stat, 1 + i, range(first_path, last_path, 1 + i), stats ? *stats : Json::object(),
                          nullptr, f);
  }
  for (std::size_t j = 0; j < others.size(); ++j) {
    const int col = 1 + plan_cols + static_cast<int>(j);
    const Json* c = comparison_for(mc.at("comparisons"), plans[others[j]].at("name").get<std::string>());
    write_path_statistics(sheet, first_stat, col, range(first_path, last_path, col),
                          c ? c->at("npv_difference_usd") : Json::object(), c ? &c->at("p_cheaper") : nullptr, f);
  }
  sheet.width(0, 0, 12);
  sheet.width(1, plan_cols + static_cast<int>(others.size()), 22);
  worksheet_freeze_panes(sheet.raw(), first_path, 1);
}

// A header of columns, then the rows, as the CSV table of the same name (depreciation.csv,
// goodput.csv, time_shift.csv, refresh.csv, hourly_time_shift.csv); a column whose name holds "usd" is in dollars, a null
// is blank.
void write_rows(Sheet sheet, const std::vector<std::string>& header, const std::vector<Json>& rows, const Formats& f) {
  for (std::size_t c = 0; c < header.size(); ++c) sheet.str(0, static_cast<int>(c), header[c], f.bold);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < header.size(); ++c)
      if (!rows[r][c].is_null())  // blank, as the CSV's empty cell
        sheet.value(static_cast<int>(r + 1), static_cast<int>(c), rows[r][c],
                    header[c].find("usd") != std::string::npos ? f.usd : nullptr);
  sheet.width(0, 0, 24);
  sheet.width(1, static_cast<int>(header.size()) - 1, 16);
}

// The sheet of each report section with a CSV table (reports/document/section_order.cpp): the same
// columns and raw figures as its CSV file, in the sections' order.
void write_section_sheets(lxw_workbook* wb, const Json& report, lxw_error* first_error, const Formats& f,
                          const std::string& file) {
  for (const SectionSlot& slot : report_section_slots()) {
    if (!slot.workbook_sheet) continue;
    const Section section = slot.build(report);
    int tables_written = 0;
    for (const Table& t : section.tables) {
      if (t.csv_file.empty() || t.rows.empty()) continue;
      std::vector<std::string> header;
      std::vector<Json> rows;
      for (const Column& c : t.columns)
        if (c.shown != Shown::human) header.push_back(c.csv_key);
      for (const Row& r : t.rows) {
        if (r.human_only) continue;
        rows.push_back(Json::array());
        for (std::size_t c = 0; c < t.columns.size(); ++c)
          if (t.columns[c].shown != Shown::human) rows.back().push_back(r.cells.at(c).raw);
      }
      // A section's second CSV table gets a sheet of its own ("Venues 2"), never the same name.
      std::string sheet = slot.workbook_sheet;
      if (tables_written++ > 0) sheet = fmt::format("{} {}", slot.workbook_sheet, tables_written);
      write_rows(Sheet(add_sheet(wb, sheet, file), first_error), header, rows, f);
    }
  }
}

void build_workbook(const Json& report, const WorkbookPaths& paths, const std::string& file) {
  lxw_workbook* wb = workbook_new(file.c_str());
  if (!wb) throw InputError(file, "", "cannot create the workbook here");
  lxw_error first_error = LXW_NO_ERROR;
  try {
    Formats f{workbook_add_format(wb), workbook_add_format(wb), workbook_add_format(wb), workbook_add_format(wb),
              workbook_add_format(wb), workbook_add_format(wb)};
    format_set_bg_color(f.live_input, 0xC6EFCE);
    format_set_bold(f.bold);
    format_set_bold(f.live);
    format_set_bg_color(f.live, 0xC6EFCE);
    format_set_num_format(f.usd, "#,##0.00");
    format_set_num_format(f.factor, "0.0000000000");
    format_set_num_format(f.rate, "0.0000%");
    const Json& plans = report.at("plans");
    std::vector<std::string> plan_names;
    for (const auto& p : plans) plan_names.push_back(p.at("name").get<std::string>());
    const std::vector<std::string> sheet_names = workbook_plan_sheet_names(plan_names);
    const bool with_paths = !paths.npv_usd_by_path.empty() && paths.npv_usd_by_path.front().size() >= 2;
    // Sheet order: Summary first (what a reader opens), then Inputs, the plans, Paths.
    Sheet summary(add_sheet(wb, "Summary", file), &first_error);
    Sheet inputs(add_sheet(wb, "Inputs", file), &first_error);
    std::vector<lxw_worksheet*> plan_sheets;
    for (const auto& name : sheet_names) plan_sheets.push_back(add_sheet(wb, name, file));
    const int horizon_months = report.at("scenario").at("horizon_months").get<int>();
    const bool with_hours =
        static_cast<long>(paths.demand_gpus_by_hour.size()) == static_cast<long>(horizon_months) * 730;
    lxw_worksheet* hours_sheet = with_hours ? add_sheet(wb, kHoursSheetName, file) : nullptr;
    lxw_worksheet* paths_sheet = with_paths ? add_sheet(wb, "Paths", file) : nullptr;
    const InputCells input_cells = write_inputs(wb, inputs, report, f);
    if (hours_sheet) write_hours(Sheet(hours_sheet, &first_error), paths.demand_gpus_by_hour, f);
    const HoursSheet hours{kHoursSheetName, 1, with_hours ? &paths.demand_gpus_by_hour : nullptr};
    const bool replay = report.at("monte_carlo").value("mode", "") == "discrete_event";
    const double rate = report.at("scenario").at("discount_rate_per_year").get<double>();
    std::vector<PlanCells> cells;
    std::set<std::string> read;
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const LivePlan live(plans[i], report.at("inputs").at("plans").at(i), input_cells, hours, horizon_months, replay,
                          report.at("inputs").contains("next_generation"));
      cells.push_back(write_plan(Sheet(plan_sheets[i], &first_error), sheet_names[i], plans[i], live, rate, f));
      read.insert(live.cells_read().begin(), live.cells_read().end());
    }
    // The input cells a formula reads are green, like the live columns' headers.
    for (const auto& [name, cell] : input_cells) {
      if (!read.count(cell.ref)) continue;
      if (cell.boolean)
        inputs.value(cell.row, 1, Json(cell.value != 0.0), f.live_input);
      else
        inputs.num(cell.row, 1, cell.value, f.live_input);
    }
    write_summary(summary, report, cells, sheet_names, input_cells, f);
    if (paths_sheet) write_paths(Sheet(paths_sheet, &first_error), report, paths, f);
    if (const std::vector<Json> rows = depreciation_rows(report); !rows.empty())
      write_rows(Sheet(add_sheet(wb, "Depreciation", file), &first_error), depreciation_columns(), rows, f);
    write_section_sheets(wb, report, &first_error, f, file);
    std::vector<std::string> plan_totals;
    for (const PlanCells& c : cells) plan_totals.push_back(c.total);
    write_tokens_sheet(wb, report, plan_totals, {f.bold, f.usd}, &first_error);
  } catch (...) {
    workbook_close(wb);  // frees it; the caller removes the partial file
    throw;
  }
  const lxw_error closed = workbook_close(wb);
  if (first_error != LXW_NO_ERROR)
    throw InputError(file, "", std::string("writing the workbook failed: ") + lxw_strerror(first_error));
  if (closed != LXW_NO_ERROR)
    throw InputError(file, "", std::string("writing the workbook failed: ") + lxw_strerror(closed));
}

}  // namespace

std::vector<std::string> workbook_plan_sheet_names(const std::vector<std::string>& plan_names) {
  // The workbook's own sheets and every section's, its second table's too: a plan named "CO2" becomes "CO2~2".
  std::set<std::string> taken = {"inputs", "summary", "paths", "depreciation", lower(kHoursSheetName), "tokens"};
  for (const SectionSlot& slot : report_section_slots())
    if (slot.workbook_sheet) taken.insert({lower(slot.workbook_sheet), lower(slot.workbook_sheet) + " 2"});
  std::vector<std::string> out;
  for (const std::string& plan : plan_names) {
    std::string base;
    for (char c : plan) base += std::string("[]:*?/\\").find(c) == std::string::npos ? c : '_';
    while (!base.empty() && base.front() == '\'') base.erase(base.begin());
    while (!base.empty() && base.back() == '\'') base.pop_back();
    if (base.empty()) base = "plan";
    std::string name = base.substr(0, 31);
    for (int k = 2; taken.count(lower(name)); ++k) {
      const std::string suffix = "~" + std::to_string(k);
      name = base.substr(0, 31 - suffix.size()) + suffix;
    }
    taken.insert(lower(name));
    out.push_back(name);
  }
  return out;
}

void check_workbook_target(const std::string& path, const std::string& option) {
  const fs::path target(path);
  std::error_code ec;
  if (fs::is_directory(target, ec))
    throw InputError(path, "", option + ": is a folder; give the workbook's file name (e.g. report.xlsx)");
  const fs::path folder = target.parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec))
    throw InputError(path, "", option + ": the folder " + folder.string() + " does not exist");
}

void write_workbook_atomically(const Json& report, const WorkbookPaths& paths, const std::string& path) {
  const fs::path target(path);
  // Named and registered as a staging file (core/io/staging_files.hpp): a signal removes it, and
  // so does the folder's next writer once this process is gone.
  const fs::path temp = target.parent_path() / staging_file_name(target.filename().string(), ::getpid(), 0);
  const StagedPath staged(temp.string());
  std::error_code ec;
  try {
    build_workbook(report, paths, temp.string());
  } catch (const InputError& e) {
    fs::remove(temp, ec);
    throw InputError(path, e.where(), e.message());  // name the target, not the temporary file
  } catch (...) {
    fs::remove(temp, ec);
    throw;
  }
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw InputError(path, "", "cannot replace the file: " + ec.message());
  }
}

}  // namespace tco
