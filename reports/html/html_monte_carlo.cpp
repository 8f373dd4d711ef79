#include "reports/html/html_monte_carlo.hpp"

#include <optional>

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/document/section_render.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/svg/svg_chart.hpp"

namespace tco {

namespace {

bool is_monte_carlo(const Json& report) {
  if (!report.contains("monte_carlo")) return false;
  const std::string mode = report.at("monte_carlo").value("mode", "");
  return mode == "discrete_event" || mode == "fluid";
}

std::optional<double> optional_number(const Json& stats, const char* key) {
  if (stats.contains(key) && stats.at(key).is_number()) return stats.at(key).get<double>();
  return std::nullopt;
}

// The plan's position in the report's plans: its colour in every chart of the page.
int plan_index(const Json& report, const std::string& plan) {
  const Json& plans = report.at("plans");
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (plans[i].at("name") == plan) return static_cast<int>(i);
  return -1;
}

svg::Box box_of(const Json& report, const std::string& label, const Json& stats, std::string note = {}) {
  return {label,
          stats.at("p5").get<double>(),
          stats.at("p50").get<double>(),
          stats.at("p95").get<double>(),
          stats.at("mean").get<double>(),
          optional_number(stats, "p10"),
          optional_number(stats, "p90"),
          std::move(note),
          plan_index(report, label)};
}

std::string interval(const Json& stats) {
  return format_usd(stats.at("ci95_low")) + " .. " + format_usd(stats.at("ci95_high"));
}

std::string percent(const Json& share) { return fmt::format("{:.1f}%", 100.0 * share.get<double>()); }

const Json* comparison_of(const Json& mc, const std::string& plan) {
  for (const auto& c : mc.at("comparisons"))
    if (c.at("plan") == plan) return &c;
  return nullptr;
}

// The figures never wrap; a long plan name does (within 12em), so the table fits the page.
std::string statistics_table(const Json& mc) {
  std::string out = fmt::format(
      "<table class=mc style=\"white-space:nowrap;font-size:.85em\"><tr><th>plan</th><th>mean NPV</th><th>its 95% CI</th>"
      "<th>NPV minus baseline</th><th>its 95% CI</th><th>P(cheaper)</th></tr>\n");
  for (const auto& p : mc.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    const Json& npv = p.at("npv_usd");
    const Json* c = comparison_of(mc, name);
    out += fmt::format(
        "<tr data-plan=\"{0}\"><td style=\"white-space:normal;overflow-wrap:anywhere;max-width:12em\">{3}</td>"
        "<td class=n>{1}</td><td class=\"n ci95\">{2}</td>", html_escape(name),
        format_usd(npv.at("mean")), interval(npv), html_name(name));
    if (c)
      out += fmt::format("<td class=n>{}</td><td class=\"n difference-ci95\">{}</td><td class=\"n p-cheaper\">{}</td></tr>\n",
                         format_usd(c->at("npv_difference_usd").at("mean")), interval(c->at("npv_difference_usd")),
                         percent(c->at("p_cheaper")));
    else
      out += "<td colspan=3>(the baseline)</td></tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string monte_carlo_section(const Json& report) {
  if (!is_monte_carlo(report))
    return "<p class=note>Deterministic run: every plan's cost is a single number (no Monte Carlo paths).</p>\n";
  const Json& mc = report.at("monte_carlo");
  const std::string baseline = report.at("scenario").at("baseline").get<std::string>();
  std::vector<svg::Box> npv_boxes, difference_boxes;
  for (const auto& p : mc.at("plans")) npv_boxes.push_back(box_of(report, p.at("name").get<std::string>(), p.at("npv_usd")));
  for (const auto& c : mc.at("comparisons"))
    difference_boxes.push_back(box_of(report, c.at("plan").get<std::string>(), c.at("npv_difference_usd"),
                                      "P(cheaper) " + percent(c.at("p_cheaper"))));
  const std::string model = mc.at("mode") == "fluid"            ? "the hourly fluid model"
                            : mc.contains("uncertain_inputs") ? "the discrete-event replay, each path in a world with "
                                                                "the scenario's uncertain inputs drawn"
                                                              : "the discrete-event replay";
  std::string out = fmt::format("<p>{} paths of {}, seed {}.</p>\n", mc.at("paths").get<long>(), model,
                                mc.at("seed").get<std::uint64_t>());
  out += svg::box_chart(npv_boxes, "NPV (USD) over Monte Carlo paths", std::nullopt);
  out += fmt::format(
      "<p>Against the baseline, {}, path by path (the same random draws for every plan): the difference is the "
      "plan's NPV minus the baseline's, so a negative difference means the plan is cheaper; P(cheaper) is the "
      "share of paths where it is.</p>\n",
      html_escape(baseline));
  out += statistics_table(mc);
  if (!difference_boxes.empty())
    // The baseline is named in the paragraph above: a long name would not fit the chart's title.
    out += svg::box_chart(difference_boxes, "NPV minus the baseline's (USD); left of the line: cheaper", 0.0);
  return out;
}

}  // namespace tco
