// The Monte Carlo charts of the HTML report, drawn under the report document's Monte Carlo
// section (reports/document/answer/monte_carlo_section.cpp, whose table holds the same figures):
// for a replay or fluid Monte Carlo run whose paths vary, the NPV distribution of every plan (box
// chart) and, against the baseline, the paired differences' distribution around 0 (plan minus
// baseline: negative means the plan is cheaper). Every figure comes from the report's
// `monte_carlo` block; a statistic the report lacks is left out, never taken as 0.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// "" when the run has no Monte Carlo paths, or none that vary.
std::string monte_carlo_charts(const Json& report);

}  // namespace tco
