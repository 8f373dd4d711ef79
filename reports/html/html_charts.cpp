#include "reports/html/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/markdown/sizing_markdown.hpp"
#include "reports/svg/svg_chart.hpp"

namespace tco {

namespace {

int column_index(const Json& columns, const std::string& name) {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

// The plan's payback month when it has one after month 0: a plan that never costs more than
// the baseline (payback month 0, no investment) or never pays back has no point to mark.
std::optional<int> payback_after_start(const Json& report, const std::string& plan) {
  for (const auto& c : report.at("comparisons"))
    if (c.at("plan") == plan && c.at("payback_month").is_number() && c.at("payback_month").get<int>() > 0)
      return c.at("payback_month").get<int>();
  return std::nullopt;
}

struct ResaleStep {
  std::string plans;  // "buy-4-burst $1,234,567 (NPV $987,654); ..."
};

// The plans whose last month books a resale (the residual column), with what they sell for.
ResaleStep resale_in_last_month(const Json& report) {
  ResaleStep out;
  const double rate = report.at("scenario").at("discount_rate_per_year").get<double>();
  for (const auto& p : report.at("plans")) {
    const Json& monthly = p.at("monthly");
    const int col = column_index(monthly.at("columns"), "residual");
    if (col < 0 || monthly.at("rows").empty()) continue;
    const double residual = monthly.at("rows").back().at(col).get<double>();
    if (residual >= 0.0) continue;
    // Booked at the end of the last month: discounted (1 + r)^(-H/12).
    const double months = static_cast<double>(monthly.at("rows").size());
    out.plans += fmt::format("{}{} {}, {} discounted", out.plans.empty() ? "" : "; ", p.at("name").get<std::string>(),
                             format_usd(-residual), format_usd(-residual * std::pow(1.0 + rate, -months / 12.0)));
  }
  return out;
}

}  // namespace

std::string cumulative_cost_section(const Json& report) {
  std::vector<svg::Series> series;
  std::vector<svg::Marker> markers;
  for (const auto& p : report.at("plans")) {
    const Json& monthly = p.at("monthly");
    const int col = column_index(monthly.at("columns"), "cumulative_discounted_usd");
    svg::Series s{p.at("name").get<std::string>(), {}};
    for (const auto& row : monthly.at("rows")) s.y.push_back(row.at(col).get<double>());
    if (const auto month = payback_after_start(report, s.name))
      markers.push_back({static_cast<int>(series.size()), *month,
                         fmt::format("pays back against {} in month {}",
                                     report.at("scenario").at("baseline").get<std::string>(), *month)});
    series.push_back(std::move(s));
  }
  const ResaleStep resale = resale_in_last_month(report);
  if (resale.plans.empty()) return svg::line_chart(series, markers, "month", "cumulative discounted cost (USD)");
  const int last = report.at("scenario").at("horizon_months").get<int>() - 1;
  std::string out = svg::line_chart(series, markers, "month", "cumulative discounted cost (USD)", svg::kContentWidthPx,
                                    320, svg::XNote{last, fmt::format("month {}: resale booked, the lines drop", last)});
  return out + fmt::format("<p class=note>The lines of the plans that own hardware drop in the last month, {}: the "
                           "resale of their nodes is booked there as a negative cost ({}), as SPEC §12.5 books it.</p>\n",
                           last, html_escape(resale.plans));
}

std::string sizing_section(const Json& report) {
  if (!report.contains("sizing")) return "<p class=note>No sizing curve in this report (run <code>tcosim optimize</code>).</p>\n";
  const Json& sizing = report.at("sizing");
  std::vector<svg::CurvePoint> points;
  for (const auto& c : sizing.at("curve")) {
    const double mean = c.at("npv_mean_usd").get<double>();
    points.push_back({c.at("nodes").get<double>(), mean, c.value("npv_p10_usd", mean), c.value("npv_p90_usd", mean), ""});
  }
  const double best = sizing.at("best").at("mean").at("nodes").get<double>();
  std::string out = svg::curve_chart(points, best, "on-prem nodes", "NPV (USD), P10-P90 whiskers");
  if (!sizing.contains("frontier")) return out;
  // The efficient frontier: CVaR95 against the mean, one point per node count on it.
  out += "<p>" + html_escape(sizing_answer_sentence(sizing)) + "</p>\n";
  if (const std::string shifting = sizing_shifting_sentence(sizing); !shifting.empty())
    out += "<p>" + html_escape(shifting) + "</p>\n";
  std::vector<svg::CurvePoint> frontier;
  std::string rows;
  for (const auto& f : sizing.at("frontier")) {
    const double mean = f.at("npv_mean_usd").get<double>(), cvar = f.at("npv_cvar95_usd").get<double>();
    const long nodes = f.at("nodes").get<long>();
    std::string label = fmt::format("{} node{}", nodes, nodes == 1 ? "" : "s");
    if (const long reserved = f.value("reserved_instances", 0L); reserved > 0) label += fmt::format(", {} reserved", reserved);
    frontier.push_back({mean, cvar, cvar, cvar, label});
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", f.at("nodes").get<long>(),
                        format_usd(f.at("npv_mean_usd")), format_usd(f.at("npv_p90_usd")),
                        format_usd(f.at("npv_cvar95_usd")));
  }
  std::sort(frontier.begin(), frontier.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  if (!frontier.empty()) {
    frontier.front().label += ": the lowest mean";
    if (frontier.size() > 1) frontier.back().label += ": the lowest CVaR95";
  }
  out += "<p>The efficient frontier: the node counts no other beats on both the mean NPV and the CVaR95 (the mean of "
         "the worst 5% of paths).</p>\n";
  if (frontier.size() > 1)
    out += svg::curve_chart(frontier, frontier.front().x, "mean NPV (USD)", "CVaR95 of the NPV (USD)");
  return out + "<table><tr><th>nodes</th><th>mean NPV</th><th>P90</th><th>CVaR95</th></tr>\n" + rows + "</table>\n";
}

std::string latency_charts(const Json& report) {
  std::string charts;
  std::vector<std::string> one_level;  // a steady request rate: a chart of one dot says less than the table
  for (const Json& p : report.at("plans")) {
    if (!p.contains("latency") || p.at("latency").is_null() || p.at("latency").value("by_load", Json::array()).empty())
      continue;
    std::vector<svg::CurvePoint> points;
    for (const Json& b : p.at("latency").at("by_load")) {
      const Json& t = b.at("ttft_s");
      points.push_back({b.at("requests_per_s").get<double>(), t.at("p90").get<double>(), t.at("p50").get<double>(),
                        t.at("p99").get<double>(), ""});
    }
    const std::string name = html_escape(p.at("name").get<std::string>());
    if (points.size() < 2) {
      one_level.push_back(fmt::format("{} ({:.3g} requests/s)", name, points.front().x));
      continue;
    }
    points.back().label =
        fmt::format("p90 {:.3f} s (p99 {:.3f} s) at {:.3g} requests/s", points.back().y, points.back().high, points.back().x);
    charts += "<p>" + name +
              ": TTFT against load (each request at its arrival hour's requests/s), p90 with p50..p99 whiskers.</p>\n" +
              svg::curve_chart(points, points.back().x, "load (requests/s)", "TTFT (s), p90 with p50-p99 whiskers");
  }
  if (one_level.empty()) return charts;
  std::string names;
  for (std::size_t i = 0; i < one_level.size(); ++i)
    names += (i == 0 ? "" : i + 1 == one_level.size() ? " and " : ", ") + one_level[i];
  return charts + "<p>TTFT against load: no curve to draw for " + names + ": " +
         (one_level.size() == 1 ? "its requests came" : "each one's requests came") +
         " at one load level, whose percentiles the table gives; a request rate that varies over the replayed hours "
         "draws one.</p>\n";
}

std::string tornado_chart(const Json& report) {
  if (!report.contains("sensitivity") || !report.at("sensitivity").contains("tornado")) return "";
  const Json& t = report.at("sensitivity").at("tornado");
  std::vector<svg::Bar> bars;
  for (const auto& row : t.at("inputs"))
    bars.push_back({row.at("input").get<std::string>(), row.at("saving_at_low_usd").get<double>(),
                    row.at("saving_at_high_usd").get<double>()});
  return svg::tornado_chart(bars, t.at("base_saving_usd").get<double>(), "NPV saving vs baseline (USD)");
}

}  // namespace tco
