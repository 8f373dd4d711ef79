#include "reports/document/section_order.hpp"

#include <stdexcept>

namespace tco {

// One builder per concept, each in reports/document/sections/<id>_section.cpp (the features) or
// reports/document/answer/<id>_section.cpp (what every report has).
Section carbon_section(const Json& report);
Section procurement_section(const Json& report);
Section venues_section(const Json& report);
Section commitments_section(const Json& report);
Section next_generation_section(const Json& report);
Section refresh_section(const Json& report);
Section implied_forwards_section(const Json& report);
Section depreciation_section(const Json& report);
Section goodput_section(const Json& report);
Section time_shift_section(const Json& report);
Section hourly_time_shift_section(const Json& report);
Section tokens_section(const Json& report);
Section latency_section(const Json& report);
Section api_breakeven_section(const Json& report);
Section plans_section(const Json& report);
Section breakevens_section(const Json& report);
Section categories_section(const Json& report);
Section assumptions_section(const Json& report);
Section warnings_section(const Json& report);
Section verdict_section(const Json& report);
Section sensitivity_section(const Json& report);
Section monte_carlo_section(const Json& report);
Section monthly_section(const Json& report);

const std::vector<SectionSlot>& report_section_slots() {
  // The verdict and its notes open every format, then an uncertain scenario's analysis with its
  // tornado, the plans and the breakevens: the first screen. After it the Monte Carlo
  // distribution (the pages draw the cumulative cost and the sizing curve before it, and the
  // HTML its charts beside the tables), the feature sections in this order, then what every
  // report closes with: its costs by category, its sources, its warnings, and the monthly cash
  // flows (folded). The terminal answer prints the verdict's sentences unindented.
  // Depreciation's sheet is written with the tax columns' own layout (reports/workbook/workbook.cpp);
  // the monthly flows are the plan sheets' rows, as formulas.
  static const std::vector<SectionSlot> slots = {
      {"verdict", verdict_section, true, nullptr},  // the workbook's Summary sheet says it too
      {"sensitivity", sensitivity_section, true, "Sensitivity"},
      {"plans", plans_section, true, nullptr},  // the workbook's Summary sheet, with its formulas
      {"breakevens", breakevens_section, true, "Breakevens"},
      {"monte_carlo", monte_carlo_section, false, "Monte Carlo"},
      {"tokens", tokens_section, false, nullptr},  // a serving workload's answer; its sheet: reports/workbook/tokens_sheet.cpp
      {"latency", latency_section, false, "Latency"},  // its requests' replay (workload.requests)
      {"carbon", carbon_section, false, "CO2"},
      {"procurement", procurement_section, false, "Procurement"},
      {"venues", venues_section, false, "Venues"},
      {"commitments", commitments_section, false, "Commitments"},
      {"next_generation", next_generation_section, false, "Next generation"},
      {"refresh", refresh_section, false, "Refresh"},
      {"implied_forwards", implied_forwards_section, false, "Implied forwards"},
      {"depreciation", depreciation_section, false, nullptr},
      {"goodput", goodput_section, false, "Goodput"},
      {"time_shift", time_shift_section, false, "Time shifting"},
      {"hourly_time_shift", hourly_time_shift_section, false, "Hourly time shift"},
      {"self_host_vs_api", api_breakeven_section, false, "Self-host vs API"},
      {"categories", categories_section, false, "Categories"},
      {"assumptions", assumptions_section, false, "Sources"},
      {"warnings", warnings_section, false, "Warnings"},
      {"monthly", monthly_section, false, nullptr},
  };
  return slots;
}

std::vector<Section> report_sections(const Json& report, bool first_screen) {
  std::vector<Section> sections;
  for (const SectionSlot& slot : report_section_slots()) {
    if (slot.first_screen != first_screen) continue;
    Section s = slot.build(report);
    if (!s.empty()) sections.push_back(std::move(s));
  }
  return sections;
}

Section report_section(const Json& report, const std::string& id) {
  for (const SectionSlot& slot : report_section_slots())
    if (id == slot.id) return slot.build(report);
  throw std::logic_error("no report section \"" + id + "\"");
}

}  // namespace tco
