// Time shifting in the replay (docs/report.md, `monte_carlo.plans[].jobs_mean_per_path`): per
// shifted plan its holds and what they saved, beside its twin without shifting on the same random
// numbers; a flag where shifting added deadline misses.
#include <fmt/format.h>

#include "reports/document/number_words.hpp"
#include "reports/document/report_section.hpp"
#include "reports/json/time_shift_json.hpp"

namespace tco {

std::vector<std::string> time_shift_miss_flags(const Json& report) {
  std::vector<std::string> flags;
  for (const Json& r : time_shift_rows(report))
    if (r.at(10).is_number() && r.at(10).get<double>() > 0.0)
      flags.push_back(
          fmt::format("time shifting adds {:.2f} deadline misses per path on {} ({:.2f} against {:.2f} on "
                      "{} without shifting), beside an NPV change of {}",
                      r.at(10).get<double>(), r.at(0).get<std::string>(), r.at(4).get<double>(), r.at(9).get<double>(),
                      r.at(6).get<std::string>(), format_usd(r.at(8))));
  return flags;
}

namespace {

// The twin's columns are empty without a twin: "-", not "n/a".
Cell or_dash(Cell cell) { return cell.raw.is_null() ? shown_as(cell, "-") : cell; }

}  // namespace

Section time_shift_section(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"holds", "holds_per_path"},
                        {"hours held", "hours_held_per_path"},
                        {"saved at hold", "energy_saved_at_hold_usd_per_path"},
                        {"deadline misses", "deadline_misses_per_path"},
                        {"energy", "energy_nominal_usd"},
                        {"without shifting", "without_shifting"},
                        {"its energy", "energy_nominal_usd_without_shifting"},
                        {"NPV change", "npv_change_usd"},
                        {"its deadline misses", "deadline_misses_per_path_without_shifting"},
                        {"misses added", "deadline_misses_added_per_path"}},
                       "time_shift.csv");
  for (const Json& r : time_shift_rows(report))  // in time_shift_columns() order; the twin's columns null without one
    t.rows.push_back(
        {{text_cell(r.at(0)), count_cell(r.at(1), 1), count_cell(r.at(2)), usd_cell(r.at(3)), count_cell(r.at(4), 1),
          usd_cell(r.at(5)), text_cell(r.at(6)), or_dash(usd_cell(r.at(7))), or_dash(usd_cell(r.at(8))),
          or_dash(count_cell(r.at(9), 1)), or_dash(signed_count_cell(r.at(10)))}});
  Section s = make_section(
      "time_shift", "Time shifting",
      "deferrable jobs held for cheaper hours, docs/model.md §5.1; means per path from the replay. Saved at "
      "hold: what the holds expected to save at the site's forecast prices. Beside the same plan without "
      "shifting, on the same random numbers: the energy bill, the NPV change (negative: shifting is cheaper), "
      "the deadline misses and those shifting added",
      {t});
  s.flags = time_shift_miss_flags(report);
  return s;
}

}  // namespace tco
