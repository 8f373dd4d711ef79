// Comparing two JSON reports of the same scenario (SPEC §10): `tcosim diff` and `tcosim regress`.
//
// Figures compared, each matched by name (plan, comparison, server and price basis):
//   decisions   the cheapest plan (lowest NPV, the Monte Carlo mean when present), the best
//               N of the sizing section per risk measure, a payback month appearing or
//               disappearing
//   headline    each plan's NPV (Monte Carlo: mean, and P50, P90, P95 when the report has
//               them), NPV saving vs the baseline (Monte Carlo: the mean of the paired difference),
//               payback month, utilization breakevens, cloud price breakevens
//   breakdown   each plan's breakdown_npv_usd by category (shown, never failing)
// A number moved when it moved by more than BOTH tolerances:
//   |new - base| > relative x |base|   and   |new - base| > absolute_usd (USD figures only)
// A Monte Carlo figure with standard errors s_base, s_new is noise unless also
//   |new - base| > k x f x sqrt(s_base^2 + s_new^2)     (k = 3)
// with f = 1 for a mean and, for a quantile q, the normal-theory ratio of the quantile's
// standard error to the mean's, sqrt(q (1 - q)) / phi(z_q): 1.2533 for P50, 1.7094 for P90,
// 2.1132 for P95.
// Example: NPV $280,320 -> $283,123 (+1.0%) with 0.5% and $1,000: limit max($1,402, $1,000)
// = $1,402 < $2,803, beyond tolerance. With s = $1,000 in both reports: 3 x 1,414 = $4,243
// > $2,803, noise.
// A report of another schema_version or scenario name is an InputError (exit 2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

struct DiffTolerance {
  double relative = 0.005;        // of |base|
  double absolute_usd = 1000.0;   // USD figures only
  double noise_stderrs = 3.0;     // k: combined standard errors that count as noise
};

// "0.5%" -> 0.005, "0.005" -> 0.005. Throws InputError naming `option` when the text is not a
// number, or not in [0, 1).
double parse_relative_tolerance(const std::string& text, const std::string& option = "--tolerance");

enum class FigureUnit { usd, month, fraction, multiplier, nodes, plan };

enum class Verdict {
  decision_changed,  // the cheapest plan, a best N, or a payback month appearing/disappearing
  beyond_tolerance,  // a headline figure moved more than both tolerances (and the noise): fails
  breakdown_moved,   // a breakdown figure moved more than both tolerances: shown, not failing
  within_tolerance,
  noise,             // moved more than the tolerances, but within k combined standard errors
};

const char* verdict_text(Verdict verdict);

struct FigureChange {
  std::string figure;  // "buy-2: NPV", "cheapest plan"
  FigureUnit unit = FigureUnit::usd;
  Json base;           // a number, a plan name, or null ("never", "none", or absent)
  Json next;
  std::optional<double> base_stderr;  // the figure's own standard error (already scaled by f)
  std::optional<double> next_stderr;
  Verdict verdict = Verdict::within_tolerance;
  std::string note;    // "plan added", "tie within 3 standard errors", ...
};

struct ReportDiff {
  std::string scenario;
  int figures_compared = 0;
  std::vector<std::string> notes;     // context: tool version, catalog or scenario digest changed
  std::vector<FigureChange> changes;  // every figure that differs: decisions, headline, breakdown

  bool no_change() const { return changes.empty(); }
  // A decision changed or a headline figure moved beyond tolerance (exit 1).
  bool fails() const;
  int count(Verdict verdict) const;
};

// Throws InputError (naming base_file or next_file) when either is not a tcosim report, or
// when their schema versions or scenario names differ.
ReportDiff diff_reports(const Json& base, const Json& next, const DiffTolerance& tolerance,
                        const std::string& base_file = "BASE", const std::string& next_file = "NEW");

// Renderings. Text and Markdown start with the changed decisions (bold in Markdown), then a
// table of what moved, then a one-line summary; "no change" when nothing differs.
std::string diff_text(const ReportDiff& diff, const DiffTolerance& tolerance);
std::string diff_markdown(const ReportDiff& diff, const DiffTolerance& tolerance);
Json diff_json(const ReportDiff& diff, const DiffTolerance& tolerance);

// The pieces of the Markdown table, for `tcosim regress` to put many scenarios in one table:
// | scenario | figure | base | new | change | verdict |
std::string diff_table_header(bool with_scenario_column);
std::string diff_table_rows(const ReportDiff& diff, const std::string& scenario_cell);
// A row with only a scenario and a verdict (e.g. "no change", "skipped: ...").
std::string diff_table_note_row(const std::string& scenario_cell, const std::string& verdict);
std::string describe_tolerance(const DiffTolerance& tolerance);

// "$1,234" / "month 14" / "52.5%" / "x1.713" / "3 nodes" / a plan name; "never"/"none" for null.
std::string format_figure(const Json& value, FigureUnit unit);

}  // namespace tco
