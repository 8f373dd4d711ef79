// The words of a report (docs/report.md, "The verdict"): the verdict sentence every format puts
// first, and the payback, IRR and interval wording the plans tables share. All read the JSON
// report, so a saved report renders the same.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

// "Choose X: it saves $Y in NPV against B over 36 months (95% CI ...). Owning ... beats ...".
// Names the unserved GPU-hours of the plan, or of a cheaper plan passed over because of them.
std::string verdict_sentence(const Json& report);

// The utilization breakeven against the recommended plan's offer, as a sentence ("" without one).
std::string verdict_breakeven_sentence(const Json& report);

// The sentences the first screen of every format puts under the verdict: why the plan with the
// lowest nominal total is not the one recommended (when it is not, and no other sentence says
// why), and whether the figures are before or after tax. Each is one sentence; none for an older
// report without the fields.
std::vector<std::string> verdict_notes(const Json& report);

// The recommended plan's name when the report compares every other plan with it (it is not the
// baseline); "" otherwise.
std::string recommended_reference(const Json& report);
// A plan's payback against the recommended plan: "(recommended)" for the plan itself, else as
// payback_words; "-" when the report has no such comparison.
std::string payback_vs_recommended_words(const Json& report, const std::string& plan);

// Rows of a breakeven list: the ones that decide first, then how many more the full list holds.
// Utilization rows carry `decides` (a report without it: all decide); a price breakeven decides
// when a multiple was found.
bool utilization_row_decides(const Json& row);
bool price_row_decides(const Json& row);
// A utilization row's cells: the price path ("$2.990/GPU-h, -10%/yr"; "$8.700/GPU-h, schedule"), the breakeven over
// the horizon ("98.1%", "never", or "n/a" in a report without it) and over the life ("97.4% (60 months)").
std::string price_path_cell(const Json& row);
std::string horizon_breakeven_cell(const Json& row);
std::string life_breakeven_cell(const Json& row);
// "over the 36-month horizon": the horizon the rows' second figure prices (the scenario's).
std::string horizon_header(const Json& report);

// "8 more rows (other offers and price bases) ..." for the Markdown and the terminal; "" when none.
std::string hidden_utilization_rows_line(const Json& report);
std::string hidden_price_rows_line(const Json& report);

// A comparison's payback: "none needed (no investment)" when the plan never costs more than the
// baseline (payback month 0), "never", or "month k".
std::string payback_words(const Json& comparison);

// A comparison's IRR as "12.3%" only where its incremental flows start with an investment; "-" else;
// beyond +/-1,000% with " (outside a meaningful range)" (reports/document/number_words.hpp).
std::string irr_words(const Json& comparison);

// One price breakeven of breakevens.cloud_price_multiplier as a sentence, naming what it is against.
std::string price_breakeven_sentence(const Json& breakeven);

// The uncertainty analysis of an uncertain scenario in one sentence (the plan it analyses, the 95%
// interval of its saving, the probability of a saving); "" when the report has none.
std::string uncertainty_sentence(const Json& report);

// Which optional sections a report can show, and the line that lists what the others would take.
struct SectionPresence {
  bool distribution = false;  // Monte Carlo statistics that vary
  bool sizing = false;        // tcosim optimize's curve
  bool tornado = false;       // tcosim sensitivity, or an uncertain scenario
};
SectionPresence sections_present(const Json& report);
// "Not in this report: ..." naming the command or option that adds each missing section; "" if none.
std::string missing_sections_line(const SectionPresence& present);

// True when a statistics object (mean, ci95_low, ci95_high, ...) has an interval wider than
// rounding (a billionth of the figure): its inputs were drawn in this run.
bool interval_varies(const Json& statistics);

// The NPV-difference statistics of the plan against the baseline that this run drew: the
// uncertainty analysis's when the scenario is uncertain, else the Monte Carlo's; null when neither
// varies.
const Json* drawn_difference(const Json& report, const std::string& plan);

}  // namespace tco
