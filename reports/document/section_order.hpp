// The order of a report's sections, written once (docs/architecture.md, "The report document").
// The HTML page (reports/html/html_report.cpp), the Markdown summary
// (reports/markdown/markdown_summary.cpp), the terminal and the CSV folder draw the document's
// sections in this order; `first_screen` marks those a reader sees before scrolling.
// Adding a section: its file in reports/document/sections/ and one line in section_order.cpp.
#pragma once

#include <string>
#include <vector>

#include "reports/document/report_section.hpp"

namespace tco {

struct SectionSlot {
  const char* id;
  Section (*build)(const Json& report);
  bool first_screen;
  // The workbook's sheet of the section's CSV tables (at most 31 characters, none of []:*?/\);
  // nullptr where the workbook lays the figures out its own way.
  const char* workbook_sheet;
};

const std::vector<SectionSlot>& report_section_slots();

// The sections of a report with something to show, in order; `first_screen` picks those on
// the first screen (true) or those after it (false).
std::vector<Section> report_sections(const Json& report, bool first_screen);

// The section of that id built from the report (empty when the report has nothing for it).
Section report_section(const Json& report, const std::string& id);

}  // namespace tco
