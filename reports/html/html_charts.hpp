// The chart sections of the HTML report (reports/html/html_report.cpp puts them on the page): the
// cumulative discounted cost by plan with its payback points, the sizing curve and the tornado.
// The Monte Carlo distribution has its own file (reports/html/html_monte_carlo.hpp).
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string cumulative_cost_section(const Json& report);
std::string sizing_section(const Json& report);
std::string tornado_section(const Json& report);

}  // namespace tco
