#include "reports/markdown/time_shift_markdown.hpp"

#include <fmt/format.h>

#include "reports/json/time_shift_json.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/markdown/table_rows.hpp"

namespace tco {

std::vector<std::string> time_shift_cells(const Json& r) {
  auto count = [&r](int c) { return r.at(c).is_null() ? std::string("-") : fmt::format("{:.1f}", r.at(c).get<double>()); };
  auto usd = [&r](int c) { return r.at(c).is_null() ? std::string("-") : format_usd(r.at(c)); };
  return {r.at(0).get<std::string>(),
          count(1),
          fmt::format("{:.0f}", r.at(2).get<double>()),
          usd(3),
          count(4),
          usd(5),
          r.at(6).is_null() ? std::string("-") : r.at(6).get<std::string>(),
          usd(7),
          usd(8),
          count(9),
          r.at(10).is_null() ? std::string("-") : fmt::format("{:+.2f}", r.at(10).get<double>())};
}

std::vector<std::string> time_shift_miss_flags(const Json& report) {
  std::vector<std::string> flags;
  for (const Json& r : time_shift_rows(report))
    if (r.at(10).is_number() && r.at(10).get<double>() > 0.0)
      flags.push_back(fmt::format("time shifting adds {:.2f} deadline misses per path on {} ({:.2f} against {:.2f} on "
                                  "{} without shifting), beside an NPV change of {}",
                                  r.at(10).get<double>(), r.at(0).get<std::string>(), r.at(4).get<double>(),
                                  r.at(9).get<double>(), r.at(6).get<std::string>(), format_usd(r.at(8))));
  return flags;
}

std::string time_shift_markdown(const Json& report) {
  const std::string md = markdown_table_rows(time_shift_rows(report), time_shift_cells);
  if (md.empty()) return md;
  std::string flags;
  for (const std::string& f : time_shift_miss_flags(report)) flags += "\n**Flag:** " + f + ".\n";
  return "\n**Time shifting** (deferrable jobs held for cheaper hours, docs/model.md §5.1; means per path from "
         "the replay. Saved at hold: what the holds expected to save at the site's forecast prices. Beside the same "
         "plan without shifting, on the same random numbers: the energy bill, the NPV change (negative: shifting "
         "is cheaper), the deadline misses and those shifting added):\n\n"
         "| plan | holds | hours held | saved at hold | deadline misses | energy | without shifting | its energy | "
         "NPV change | its deadline misses | misses added |\n|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n" +
         md + flags;
}

}  // namespace tco
