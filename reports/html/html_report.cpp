#include "reports/html/html_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"

#include "reports/markdown/markdown_summary.hpp"
#include "reports/html/html_charts.hpp"
#include "reports/html/html_monte_carlo.hpp"
#include "reports/document/section_order.hpp"
#include "reports/document/section_render.hpp"
#include "reports/verdict/prices_as_of.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

namespace {


std::string text_of(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "n/a";
  if (v.is_number_float()) return fmt::format("{:.6g}", v.get<double>());
  return v.dump();
}

const Json* find_comparison(const Json& report, const std::string& plan) {
  for (const auto& c : report.at("comparisons"))
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

std::string plans_table(const Json& report) {
  const std::string recommended = recommended_reference(report);
  std::string out =
      "<table><tr><th>plan</th><th>kind</th><th>nodes</th><th>NPV</th><th>total (nominal)</th><th>$/useful "
      "GPU-h</th><th>NPV saving vs baseline</th><th>payback</th><th>IRR</th><th>on-prem utilization</th>" +
      (recommended.empty() ? std::string() : "<th>payback vs " + html_name(recommended) + "</th>") + "</tr>\n";
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    const Json* c = find_comparison(report, name);
    const Json& util = p.at("onprem_utilization");
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td "
        "class=n>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td>{}</tr>\n",
        html_name(name), html_escape(p.at("kind").get<std::string>()), p.at("onprem_nodes").get<int>(), format_usd(p.at("npv_usd").get<double>()),
        format_usd(p.at("total_nominal_usd")),
        p.at("usd_per_useful_gpu_hour").is_number() ? fmt::format("${:.2f}", p.at("usd_per_useful_gpu_hour").get<double>()) : "n/a",
        c ? format_usd(c->at("npv_saving_usd")) : "baseline",
        c ? payback_words(*c) : "-", c ? irr_words(*c) : "-",
        util.is_number() ? fmt::format("{:.1f}%", 100 * util.get<double>()) : "-",
        recommended.empty() ? std::string() : "<td>" + html_escape(payback_vs_recommended_words(report, name)) + "</td>");
  }
  out += "</table>\n";
  return out + fmt::format("<p class=note>Savings, payback and IRR are against the baseline, {}. The IRR is the return "
                           "on the extra money a plan spends first; a plan that saves from its first month has none.{}</p>\n",
                           html_escape(report.at("scenario").at("baseline").get<std::string>()),
                           recommended.empty() ? std::string()
                                               : " The last column is the payback against the recommended plan, " +
                                                     html_escape(recommended) + ".");
}

std::string monthly_tables(const Json& report) {
  std::string out;
  for (const auto& p : report.at("plans")) {
    const Json& monthly = p.at("monthly");
    out += fmt::format("<details><summary>{}: monthly cash flows (USD)</summary><div class=scroll><table><tr>",
                       html_name(p.at("name").get<std::string>()));
    for (const auto& c : monthly.at("columns")) out += "<th>" + html_escape(c.get<std::string>()) + "</th>";
    out += "</tr>\n";
    for (const auto& row : monthly.at("rows")) {
      out += "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i)
        out += i == 0 ? fmt::format("<td>{}</td>", row[i].get<int>()) : fmt::format("<td class=n>{:.2f}</td>", row[i].get<double>());
      out += "</tr>\n";
    }
    out += "</table></div></details>\n";
  }
  return out;
}

std::string breakdown_table(const Json& report) {
  const Json& plans = report.at("plans");
  std::string out = "<table><tr><th>category (NPV, USD)</th>";
  for (const auto& p : plans) out += "<th>" + html_name(p.at("name").get<std::string>()) + "</th>";
  out += "</tr>\n";
  for (const auto& [category, ignored] : plans.at(0).at("breakdown_npv_usd").items()) {
    out += "<tr><td>" + html_escape(category) + "</td>";
    for (const auto& p : plans) out += "<td class=n>" + format_usd(p.at("breakdown_npv_usd").at(category)) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string utilization_rows(const Json& report, bool deciding_only) {
  std::string out = "<table><tr><th>server</th><th>fleet</th><th>cloud offer</th><th>price</th><th>cloud price at the start, "
                    "path</th><th>breakeven utilization per node " +
                    html_escape(horizon_header(report)) +
                    "</th><th>over the node's life</th><th>GPU-hours per node per month (horizon)</th></tr>\n";
  for (const auto& b : report.at("breakevens").at("utilization")) {
    if (deciding_only && !utilization_row_decides(b)) continue;
    const Json* h = b.contains("over_horizon") ? &b.at("over_horizon").at("gpu_hours_per_month") : nullptr;
    out += fmt::format("<tr><td>{}</td><td class=n>{} nodes</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>\n",
                       html_escape(b.at("server").get<std::string>()), b.value("fleet_nodes", 1),
                       html_escape(b.value("offer", "")), html_escape(b.at("price_basis").get<std::string>()),
                       html_escape(price_path_cell(b)), html_escape(horizon_breakeven_cell(b)),
                       html_escape(life_breakeven_cell(b)),
                       h && h->is_number() ? fmt::format("{:.0f}", h->get<double>()) : "-");
  }
  return out + "</table>\n";
}

std::string price_rows(const Json& report, bool deciding_only) {
  std::string out = "<ul>";
  for (const auto& b : report.at("breakevens").at("cloud_price_multiplier"))
    if (!deciding_only || price_row_decides(b)) out += "<li>" + html_escape(price_breakeven_sentence(b)) + "</li>";
  return out + "</ul>\n";
}

// The rows that decide, and the full list behind "show all" when some are left out.
std::string breakevens_section(const Json& report) {
  std::string out;
  const Json& util = report.at("breakevens").at("utilization");
  if (!util.empty()) {
    out += "<p>Utilization breakeven: one node, with its share of the fleet's fixed staff, room and racks, against "
           "renting the same GPU-hours on the cloud price's path; over the horizon the node ends as the plans do, sold "
           "at the horizon's end when they book a resale. The rows for the prices the plans pay:</p>\n" +
           utilization_rows(report, true);
    if (!hidden_utilization_rows_line(report).empty())
      out += fmt::format("<details><summary>show all {} rows</summary>{}</details>\n", util.size(),
                         utilization_rows(report, false));
  }
  const Json& price = report.at("breakevens").at("cloud_price_multiplier");
  out += price_rows(report, true);
  if (!hidden_price_rows_line(report).empty())
    out += fmt::format("<details><summary>show all {} cloud-price breakevens (with the {} pairs that cost the same at no "
                       "multiple between 0 and 1000)</summary>{}</details>\n",
                       price.size(),
                       std::count_if(price.begin(), price.end(), [](const Json& b) { return !price_row_decides(b); }),
                       price_rows(report, false));
  return out;
}

void flatten(const Json& value, const std::string& prefix, std::string& out) {
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) flatten(v, prefix + "/" + k, out);
  } else if (value.is_array() && !value.empty() && (value[0].is_object() || value[0].is_array())) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten(value[i], prefix + "/" + std::to_string(i), out);
  } else {
    out += "<tr><td><code>" + html_escape(prefix) + "</code></td><td>" + html_escape(value.is_array() ? value.dump() : text_of(value)) + "</td></tr>\n";
  }
}

std::string assumptions_section(const Json& report) {
  std::string out = "<table><tr><th>catalog record</th><th>kind</th><th>source</th><th>as of</th>"
                    "<th>figures with their own date or source</th></tr>\n";
  for (const auto& r : report.at("pricing").at("records")) {
    std::string own;
    for (const auto& f : r.value("figures", Json::array())) {
      const bool own_date = f.at("as_of") != r.at("as_of"), own_source = f.at("source") != r.at("source");
      if (!own_date && !own_source) continue;
      own += (own.empty() ? "" : "<br>") + html_escape(f.at("field").get<std::string>()) + ": " +
             html_escape(f.at("as_of").get<std::string>()) +
             (own_source ? " (" + html_escape(f.at("source").get<std::string>()) + ")" : std::string());
    }
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(r.at("id").get<std::string>()),
                       html_escape(r.at("kind").get<std::string>()), html_escape(r.at("source").get<std::string>()),
                       html_escape(r.at("as_of").get<std::string>()), own);
  }
  out += "</table>\n";
  out += "<details><summary>every resolved input</summary><table>\n";
  flatten(report.at("inputs"), "", out);
  return out + "</table></details>\n";
}

std::string reproduce_section(const Json& report) {
  const Json& sc = report.at("scenario");
  const Json& mc = report.at("monte_carlo");
  return fmt::format(
      "<table><tr><td>tool</td><td>tcosim {}</td></tr><tr><td>scenario</td><td>{} (sha256 {})</td></tr>"
      "<tr><td>pricing catalog</td><td>sha256 {}</td></tr><tr><td>seed</td><td>{}</td></tr><tr><td>paths</td><td>{}</td></tr>"
      "<tr><td>report schema</td><td>{}</td></tr></table>\n<p>Reproduce with <code>tcosim run {} --out report.json{}</code>.</p>\n",
      html_escape(report.at("tool").at("version").get<std::string>()), html_escape(sc.at("file").get<std::string>()),
      html_escape(sc.at("digest_sha256").get<std::string>()), html_escape(report.at("pricing").at("catalog_digest_sha256").get<std::string>()),
      html_escape(text_of(mc.value("seed", Json(nullptr)))), html_escape(text_of(mc.value("paths", Json(1)))),
      html_escape(report.at("schema_version").get<std::string>()), html_escape(sc.at("file").get<std::string>()),
      mc.value("seed", Json(nullptr)).is_number() ? fmt::format(" --seed {} --paths {}", text_of(mc.at("seed")), text_of(mc.at("paths")))
                                                  : std::string());
}

std::string warnings_section(const Json& report) {
  if (report.at("warnings").empty()) return "<p>None.</p>\n";
  std::string out = "<ul>";
  for (const auto& w : report.at("warnings"))
    out += fmt::format("<li><code>{}</code> {}</li>", html_escape(w.at("code").get<std::string>()), html_escape(w.at("message").get<std::string>()));
  return out + "</ul>\n";
}

constexpr const char* kStyle = R"(body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em;max-width:100%;display:block;overflow-x:auto}table.mc{display:table}
td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;overflow-wrap:break-word}
.scroll{overflow-x:auto}p,li{overflow-wrap:anywhere}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.headline{font-size:1.15em;background:#f3f7fb;padding:.8em;border-left:4px solid #1b6ca8}
.note{color:#666}details{margin:.4em 0}code{font-size:.95em})";

}  // namespace

std::string headline_decision(const Json& report) { return verdict_sentence(report); }

std::string html_report(const Json& report) {
  const Json& sc = report.at("scenario");
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">";
  html += fmt::format("<title>tcosim: {}</title><style>{}</style></head><body>\n", html_escape(sc.at("name").get<std::string>()), kStyle);
  html += fmt::format("<h1>tcosim: {}</h1>\n<p>{}</p>\n", html_escape(sc.at("name").get<std::string>()),
                      html_escape(sc.value("description", "")));
  html += "<p class=headline>" + html_escape(headline_decision(report)) + "</p>\n";
  if (const std::string dates = dates_sentence(report); !dates.empty())
    html += "<p class=asof>" + html_escape(dates) + "</p>\n";
  for (const std::string& note : verdict_notes(report)) html += "<p>" + html_escape(note) + "</p>\n";
  html += fmt::format("<p>{} from {}, discount rate {:.2f}% a year, baseline {}.</p>\n", format_months(sc.at("horizon_months").get<int>()),
                      html_escape(sc.at("start").get<std::string>()), 100 * sc.at("discount_rate_per_year").get<double>(),
                      html_escape(sc.at("baseline").get<std::string>()));
  // An uncertain scenario's answer is its uncertainty: on the first screen, with the tornado.
  if (const std::string uncertainty = uncertainty_sentence(report); !uncertainty.empty())
    html += "<p class=headline>" + html_escape(uncertainty) + "</p>\n" + tornado_section(report);
  html += "<h2>Plans</h2>\n" + plans_table(report);
  html += "<h2>Cumulative discounted cost</h2>\n" + cumulative_cost_section(report);
  // Sections with nothing to show are left out; one line says what would fill them.
  const SectionPresence present = sections_present(report);
  if (present.distribution) html += "<h2>Cost distribution</h2>\n" + monte_carlo_section(report);
  if (present.sizing) html += "<h2>Cost vs on-prem nodes</h2>\n" + sizing_section(report);
  if (present.tornado && uncertainty_sentence(report).empty())
    html += "<h2>Sensitivity (tornado)</h2>\n" + tornado_section(report);
  if (const std::string missing = missing_sections_line(present); !missing.empty())
    html += "<p class=note>" + html_escape(missing) + "</p>\n";
  for (const Section& section : report_sections(report, false)) html += html_section(section);
  html += "<h2>Cost by category</h2>\n" + breakdown_table(report);
  html += "<h2>Breakevens</h2>\n" + breakevens_section(report);
  html += "<h2>Monthly cash flows</h2>\n" + monthly_tables(report);
  html += "<h2>Assumptions and sources</h2>\n" + assumptions_section(report);
  html += "<h2>Warnings</h2>\n" + warnings_section(report);
  html += "<h2>Reproduce</h2>\n" + reproduce_section(report);
  return html + "</body></html>\n";
}

}  // namespace tco
