// The Monte Carlo section of the HTML report: for a replay or fluid Monte Carlo run, the NPV
// distribution of every plan (box chart), a table of each plan's mean NPV with its 95%
// confidence interval and, against the baseline, the paired difference (plan minus baseline:
// negative means the plan is cheaper) with its 95% interval and P(cheaper), and the
// differences' distribution around 0. Every figure comes from the report's `monte_carlo`
// block; a statistic the report lacks is left out, never taken as 0.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string monte_carlo_section(const Json& report);

}  // namespace tco
