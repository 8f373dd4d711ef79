#include "reports/html_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/html_escape.hpp"

#include "reports/markdown_summary.hpp"
#include "reports/svg_chart.hpp"
#include "reports/verdict_text.hpp"

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

int column_index(const Json& columns, const std::string& name) {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

// The Monte Carlo statistics of a plan's NPV when the report has them: an object with
// mean, p5, p10, p50, p90, p95 (docs/report.md).
const Json* npv_statistics(const Json& report, const std::string& plan) {
  if (!report.contains("monte_carlo") || !report.at("monte_carlo").contains("plans")) return nullptr;
  for (const auto& p : report.at("monte_carlo").at("plans"))
    if (p.value("name", "") == plan && p.contains("npv_usd") && p.at("npv_usd").is_object()) return &p.at("npv_usd");
  return nullptr;
}

std::string plans_table(const Json& report) {
  std::string out =
      "<table><tr><th>plan</th><th>kind</th><th>nodes</th><th>NPV</th><th>total (nominal)</th><th>$/useful "
      "GPU-h</th><th>NPV saving vs baseline</th><th>payback</th><th>IRR</th><th>on-prem utilization</th></tr>\n";
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    const Json* c = find_comparison(report, name);
    const Json& util = p.at("onprem_utilization");
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td "
        "class=n>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td></tr>\n",
        html_escape(name), html_escape(p.at("kind").get<std::string>()), p.at("onprem_nodes").get<int>(), format_usd(p.at("npv_usd").get<double>()),
        format_usd(p.at("total_nominal_usd")),
        p.at("usd_per_useful_gpu_hour").is_number() ? fmt::format("${:.2f}", p.at("usd_per_useful_gpu_hour").get<double>()) : "n/a",
        c ? format_usd(c->at("npv_saving_usd")) : "baseline",
        c ? payback_words(*c) : "-", c ? irr_words(*c) : "-",
        util.is_number() ? fmt::format("{:.1f}%", 100 * util.get<double>()) : "-");
  }
  out += "</table>\n";
  return out + fmt::format("<p class=note>Savings, payback and IRR are against the baseline, {}. The IRR is the return "
                           "on the extra money a plan spends first; a plan that saves from its first month has none.</p>\n",
                           html_escape(report.at("scenario").at("baseline").get<std::string>()));
}

std::string cumulative_chart(const Json& report) {
  std::vector<svg::Series> series;
  std::vector<svg::Marker> markers;
  for (const auto& p : report.at("plans")) {
    const Json& monthly = p.at("monthly");
    const int col = column_index(monthly.at("columns"), "cumulative_discounted_usd");
    svg::Series s{p.at("name").get<std::string>(), {}};
    for (const auto& row : monthly.at("rows")) s.y.push_back(row.at(col).get<double>());
    const Json* c = find_comparison(report, s.name);
    if (c && c->at("payback_month").is_number()) {
      const int m = c->at("payback_month").get<int>();
      markers.push_back({static_cast<int>(series.size()), m, fmt::format("payback month {}", m)});
    }
    series.push_back(std::move(s));
  }
  return svg::line_chart(series, markers, "month", "cumulative discounted cost (USD)");
}

std::string distribution_chart(const Json& report) {
  std::vector<svg::Box> boxes;
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    if (const Json* s = npv_statistics(report, name)) {
      boxes.push_back({name, s->value("p5", 0.0), s->value("p10", 0.0), s->value("p50", 0.0), s->value("p90", 0.0),
                       s->value("p95", 0.0), s->value("mean", 0.0)});
    }
  }
  if (boxes.empty()) return "<p class=note>Deterministic run: every plan's cost is a single number (no Monte Carlo paths).</p>\n";
  return svg::box_chart(boxes, "NPV (USD) over Monte Carlo paths");
}

std::string sizing_section(const Json& report) {
  if (!report.contains("sizing")) return "<p class=note>No sizing curve in this report (run <code>tcosim optimize</code>).</p>\n";
  const Json& sizing = report.at("sizing");
  std::vector<svg::CurvePoint> points;
  for (const auto& c : sizing.at("curve")) {
    const double mean = c.at("npv_mean_usd").get<double>();
    points.push_back({c.at("nodes").get<double>(), mean, c.value("npv_p10_usd", mean), c.value("npv_p90_usd", mean)});
  }
  const double best = sizing.at("best").at("mean").at("nodes").get<double>();
  return svg::curve_chart(points, best, "on-prem nodes", "NPV (USD), P10-P90 whiskers");
}

std::string tornado_section(const Json& report) {
  if (!report.contains("sensitivity") || !report.at("sensitivity").contains("tornado"))
    return "<p class=note>No sensitivity analysis in this report (run <code>tcosim sensitivity</code>).</p>\n";
  const Json& t = report.at("sensitivity").at("tornado");
  std::vector<svg::Bar> bars;
  for (const auto& row : t.at("inputs"))
    bars.push_back({row.at("input").get<std::string>(), row.at("saving_at_low_usd").get<double>(),
                    row.at("saving_at_high_usd").get<double>()});
  return fmt::format("<p>The NPV saving of plan {} against {}, each input at its low and high value:</p>\n",
                     html_escape(t.at("plan").get<std::string>()), html_escape(t.at("baseline").get<std::string>())) +
         svg::tornado_chart(bars, t.at("base_saving_usd").get<double>(), "NPV saving vs baseline (USD)");
}

std::string monthly_tables(const Json& report) {
  std::string out;
  for (const auto& p : report.at("plans")) {
    const Json& monthly = p.at("monthly");
    out += fmt::format("<details><summary>{}: monthly cash flows (USD)</summary><table><tr>", html_escape(p.at("name").get<std::string>()));
    for (const auto& c : monthly.at("columns")) out += "<th>" + html_escape(c.get<std::string>()) + "</th>";
    out += "</tr>\n";
    for (const auto& row : monthly.at("rows")) {
      out += "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i)
        out += i == 0 ? fmt::format("<td>{}</td>", row[i].get<int>()) : fmt::format("<td class=n>{:.2f}</td>", row[i].get<double>());
      out += "</tr>\n";
    }
    out += "</table></details>\n";
  }
  return out;
}

std::string breakdown_table(const Json& report) {
  const Json& plans = report.at("plans");
  std::string out = "<table><tr><th>category (NPV, USD)</th>";
  for (const auto& p : plans) out += "<th>" + html_escape(p.at("name").get<std::string>()) + "</th>";
  out += "</tr>\n";
  for (const auto& [category, ignored] : plans.at(0).at("breakdown_npv_usd").items()) {
    out += "<tr><td>" + html_escape(category) + "</td>";
    for (const auto& p : plans) out += "<td class=n>" + format_usd(p.at("breakdown_npv_usd").at(category)) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string breakevens_section(const Json& report) {
  std::string out;
  const Json& util = report.at("breakevens").at("utilization");
  if (!util.empty()) {
    out += "<table><tr><th>server</th><th>fleet</th><th>cloud offer</th><th>price</th><th>cloud $/GPU-h</th><th>breakeven utilization per node</th><th>GPU-hours per node per month</th></tr>\n";
    for (const auto& b : util) {
      out += fmt::format("<tr><td>{}</td><td class=n>{} nodes</td><td>{}</td><td>{}</td><td class=n>${:.3f}</td><td class=n>{}</td><td class=n>{}</td></tr>\n",
                         html_escape(b.at("server").get<std::string>()), b.value("fleet_nodes", 1),
                         html_escape(b.value("offer", "")),
                         html_escape(b.at("price_basis").get<std::string>()),
                         b.at("cloud_usd_per_gpu_hour").get<double>(),
                         b.at("utilization").is_number() ? fmt::format("{:.1f}%", 100 * b.at("utilization").get<double>()) : "never",
                         b.at("gpu_hours_per_month").is_number() ? fmt::format("{:.0f}", b.at("gpu_hours_per_month").get<double>()) : "-");
    }
    out += "</table>\n";
  }
  out += "<ul>";
  for (const auto& b : report.at("breakevens").at("cloud_price_multiplier"))
    out += "<li>" + html_escape(price_breakeven_sentence(b)) + "</li>";
  return out + "</ul>\n";
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
  std::string out = "<table><tr><th>catalog record</th><th>kind</th><th>source</th><th>as of</th></tr>\n";
  for (const auto& r : report.at("pricing").at("records")) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(r.at("id").get<std::string>()),
                       html_escape(r.at("kind").get<std::string>()), html_escape(r.at("source").get<std::string>()),
                       html_escape(r.at("as_of").get<std::string>()));
  }
  out += "</table>\n<details><summary>every resolved input</summary><table>\n";
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
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}.headline{font-size:1.15em;background:#f3f7fb;padding:.8em;border-left:4px solid #1b6ca8}
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
  html += fmt::format("<p>{} months from {}, discount rate {:.2f}% a year, baseline {}.</p>\n", sc.at("horizon_months").get<int>(),
                      html_escape(sc.at("start").get<std::string>()), 100 * sc.at("discount_rate_per_year").get<double>(),
                      html_escape(sc.at("baseline").get<std::string>()));
  // An uncertain scenario's answer is its uncertainty: on the first screen, with the tornado.
  if (const std::string uncertainty = uncertainty_sentence(report); !uncertainty.empty())
    html += "<p class=headline>" + html_escape(uncertainty) + "</p>\n" + tornado_section(report);
  html += "<h2>Plans</h2>\n" + plans_table(report);
  html += "<h2>Cumulative discounted cost</h2>\n" + cumulative_chart(report);
  // Sections with nothing to show are left out; one line says what would fill them.
  const SectionPresence present = sections_present(report);
  if (present.distribution) html += "<h2>Cost distribution</h2>\n" + distribution_chart(report);
  if (present.sizing) html += "<h2>Cost vs on-prem nodes</h2>\n" + sizing_section(report);
  if (present.tornado && uncertainty_sentence(report).empty())
    html += "<h2>Sensitivity (tornado)</h2>\n" + tornado_section(report);
  if (const std::string missing = missing_sections_line(present); !missing.empty())
    html += "<p class=note>" + html_escape(missing) + "</p>\n";
  html += "<h2>Cost by category</h2>\n" + breakdown_table(report);
  html += "<h2>Breakevens</h2>\n" + breakevens_section(report);
  html += "<h2>Monthly cash flows</h2>\n" + monthly_tables(report);
  html += "<h2>Assumptions and sources</h2>\n" + assumptions_section(report);
  html += "<h2>Warnings</h2>\n" + warnings_section(report);
  html += "<h2>Reproduce</h2>\n" + reproduce_section(report);
  return html + "</body></html>\n";
}

}  // namespace tco
