#include "cli/figure_dates.hpp"

#include <fmt/format.h>

#include "reports/json/figure_ages_json.hpp"
#include "reports/verdict/prices_as_of.hpp"

namespace tco::cli {

Json scenario_figure_ages(const Scenario& scenario, const std::string& today, int max_age_days) {
  return figure_ages_json(scenario.records_used, format_date(scenario.start), scenario.horizon_months, today,
                          max_age_days);
}

std::string figure_age_lines(const Json& ages) {
  std::string out;
  if (const std::string dates = dates_sentence(ages); !dates.empty()) out += dates + "\n";
  for (const Json& w : ages.at("warnings"))
    out += fmt::format("warning: {} [{}]\n", w.at("message").get<std::string>(), w.at("code").get<std::string>());
  return out;
}

}  // namespace tco::cli
