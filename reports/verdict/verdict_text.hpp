// The words of a report (docs/report.md, "The verdict"): the verdict sentence every format puts
// first, and the payback, IRR and interval wording the plans tables share. All read the JSON
// report, so a saved report renders the same.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// "Choose X: it saves $Y in NPV against B over 36 months (95% CI ...). Owning ... beats ...".
// Names the unserved GPU-hours of the plan, or of a cheaper plan passed over because of them.
std::string verdict_sentence(const Json& report);

// The utilization breakeven against the recommended plan's offer, as a sentence ("" without one).
std::string verdict_breakeven_sentence(const Json& report);

// A comparison's payback: "none needed (no investment)" when the plan never costs more than the
// baseline (payback month 0), "never", or "month k".
std::string payback_words(const Json& comparison);

// A comparison's IRR as "12.3%" only where its incremental flows start with an investment; "-" else.
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
