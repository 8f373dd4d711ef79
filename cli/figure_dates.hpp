// The dates of a command whose output is not a JSON report (sweep, calibrate): the scenario's
// "prices as of" sentence and one line per stale figure, for the terminal (docs/cli.md, --today).
#pragma once

#include <string>

#include "core/io/json_reader.hpp"
#include "models/scenario.hpp"

namespace tco::cli {

// reports/json/figure_ages_json.hpp's figure_ages_json() of the scenario's figures.
Json scenario_figure_ages(const Scenario& scenario, const std::string& today, int max_age_days);

// "Prices as of ...\nwarning: ... [as-of-stale]\n" of such a block.
std::string figure_age_lines(const Json& ages);

}  // namespace tco::cli
