// The verdict (docs/report.md, "The verdict"): the sentence every format opens with, then the
// prices' age and the history months beside it, then its notes (why the cheapest plan in nominal
// terms is not the one recommended; before or after tax). One sentence each, in this order: the
// HTML page and the Markdown draw the section, the terminal answer prints its sentences unindented.
#include "reports/document/report_section.hpp"
#include "reports/verdict/prices_as_of.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

Section verdict_section(const Json& report) {
  Section s = make_section("verdict", "Verdict", "");
  s.opening = {verdict_sentence(report)};
  if (const std::string dates = dates_sentence(report); !dates.empty()) s.opening.push_back(dates);
  for (const std::string& note : verdict_notes(report)) s.opening.push_back(note);
  return s;
}

}  // namespace tco
