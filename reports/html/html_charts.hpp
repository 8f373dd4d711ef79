// The chart sections of the HTML report (reports/html/html_report.cpp puts them on the page): the
// cumulative discounted cost by plan with its payback points, the sizing curve, the tornado
// chart under the report document's sensitivity section (its table holds the same rows) and the
// TTFT-against-load charts under its latency section (its "TTFT against load" table). The
// Monte Carlo charts have their own file (reports/html/html_monte_carlo.hpp).
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string cumulative_cost_section(const Json& report);
std::string sizing_section(const Json& report);
std::string tornado_chart(const Json& report);  // "" without a tornado
// Latency percentile against load (requests/s), one chart per plan with `latency.by_load` points.
std::string latency_charts(const Json& report);

}  // namespace tco
