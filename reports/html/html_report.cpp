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

void flatten(const Json& value, const std::string& prefix, std::string& out) {
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) flatten(v, prefix + "/" + k, out);
  } else if (value.is_array() && !value.empty() && (value[0].is_object() || value[0].is_array())) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten(value[i], prefix + "/" + std::to_string(i), out);
  } else {
    out += "<tr><td><code>" + html_escape(prefix) + "</code></td><td>" + html_escape(value.is_array() ? value.dump() : text_of(value)) + "</td></tr>\n";
  }
}

// Every resolved input, flattened to its JSON pointer, folded under the reproduce table.
std::string resolved_inputs(const Json& report) {
  std::string out = "<details><summary>every resolved input</summary><table>\n";
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

constexpr const char* kStyle = R"(body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em;max-width:100%;display:block;overflow-x:auto}
td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;overflow-wrap:break-word}
.scroll{overflow-x:auto}p,li{overflow-wrap:anywhere}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.w{white-space:normal}td.prose{overflow-wrap:anywhere;min-width:20em}
#verdict+p{font-size:1.15em;background:#f3f7fb;padding:.8em;border-left:4px solid #1b6ca8}.note{color:#666}details{margin:.4em 0}code{font-size:.95em})";

}  // namespace

std::string html_report(const Json& report) {
  const Json& sc = report.at("scenario");
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">";
  html += fmt::format("<title>tcosim: {}</title><style>{}</style></head><body>\n", html_escape(sc.at("name").get<std::string>()), kStyle);
  html += fmt::format("<h1>tcosim: {}</h1>\n<p>{}</p>\n", html_escape(sc.at("name").get<std::string>()),
                      html_escape(sc.value("description", "")));
  html += fmt::format("<p>{} from {}, discount rate {:.2f}% a year, baseline {}.</p>\n", format_months(sc.at("horizon_months").get<int>()),
                      html_escape(sc.at("start").get<std::string>()), 100 * sc.at("discount_rate_per_year").get<double>(),
                      html_escape(sc.at("baseline").get<std::string>()));
  // The report document's sections (reports/document/section_order.cpp): the verdict, an uncertain
  // scenario's analysis with its tornado, the plans and the breakevens on the first screen; the
  // charts of the tornado and the Monte Carlo distribution under the tables of the same figures.
  const auto with_charts = [&](const Section& section) {
    std::string out = html_section(section);
    if (section.id == "sensitivity") out += tornado_chart(report);
    if (section.id == "monte_carlo") out += monte_carlo_charts(report);
    if (section.id == "latency") out += latency_charts(report);
    return out;
  };
  for (const Section& section : report_sections(report, true)) html += with_charts(section);
  html += "<h2>Cumulative discounted cost</h2>\n" + cumulative_cost_section(report);
  // Sections with nothing to show are left out; one line says what would fill them.
  const SectionPresence present = sections_present(report);
  if (present.sizing) html += "<h2>Cost vs on-prem nodes</h2>\n" + sizing_section(report);
  if (const std::string missing = missing_sections_line(present); !missing.empty())
    html += "<p class=note>" + html_escape(missing) + "</p>\n";
  for (const Section& section : report_sections(report, false)) html += with_charts(section);
  html += "<h2>Reproduce</h2>\n" + reproduce_section(report) + resolved_inputs(report);
  return html + "</body></html>\n";
}

}  // namespace tco
