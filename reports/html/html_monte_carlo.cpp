#include "reports/html/html_monte_carlo.hpp"

#include <optional>

#include <fmt/format.h>

#include "reports/verdict/verdict_text.hpp"
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

std::string percent(const Json& share) { return fmt::format("{:.1f}%", 100.0 * share.get<double>()); }

}  // namespace

std::string monte_carlo_charts(const Json& report) {
  if (!is_monte_carlo(report) || !sections_present(report).distribution) return "";
  const Json& mc = report.at("monte_carlo");
  std::vector<svg::Box> npv_boxes, difference_boxes;
  for (const auto& p : mc.at("plans")) npv_boxes.push_back(box_of(report, p.at("name").get<std::string>(), p.at("npv_usd")));
  for (const auto& c : mc.at("comparisons"))
    difference_boxes.push_back(box_of(report, c.at("plan").get<std::string>(), c.at("npv_difference_usd"),
                                      "P(cheaper) " + percent(c.at("p_cheaper"))));
  std::string out = svg::box_chart(npv_boxes, "NPV (USD) over Monte Carlo paths", std::nullopt);
  if (!difference_boxes.empty())
    // The baseline is named in the section's opening: a long name would not fit the chart's title.
    out += svg::box_chart(difference_boxes, "NPV minus the baseline's (USD); left of the line: cheaper", 0.0);
  return out;
}

}  // namespace tco
