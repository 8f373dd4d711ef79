// The Excel workbook of a report (docs/report.md, "The workbook"): rendered from the report
// JSON like the HTML and Markdown, so `tcosim report` can rebuild it from a saved report, plus
// the per-path NPVs that only `run` holds in memory. Every figure a reviewer would challenge
// is a formula over the cells it comes from, with tcosim's value cached in it:
//   Inputs   every resolved input, unit, source, as_of; the named cell DiscountRate
//   <plan>   monthly flows, live where reports/workbook/live_plan.hpp can write them as formulas over
//            the Inputs cells and the Hours sheet's demand (the run's values otherwise); discount
//            factors (1+DiscountRate)^(-m/12) at the start of month m,
//            ^(-(m+1)/12) at its end (SPEC §6); NPV = SUMPRODUCT(start, df_start) +
//            SUMPRODUCT(end, df_end); totals = SUM
//   Summary  the plans table and the verdict, NPV and savings referring to the plan sheets
//   Hours    (from `run` of a scenario without jobs) the hourly demand D(h), an input
//   Paths    (Monte Carlo, from `run` only) NPV per path and plan, statistics as formulas
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

// What only `run` holds in memory. The per-path NPVs of a Monte Carlo run, [plan][path], plans
// in the report's order (empty: no Paths sheet); the hourly demand of the hourly model (empty: no
// Hours sheet, and the plan sheets' cloud and energy columns keep the run's values).
struct WorkbookPaths {
  std::vector<std::vector<double>> npv_usd_by_path;
  std::vector<double> demand_gpus_by_hour;
};

// Sheet names for the plans: characters Excel forbids ([]:*?/\) replaced by '_', at most 31
// characters, unique without regard to case and distinct from Inputs, Summary and Paths.
std::vector<std::string> workbook_plan_sheet_names(const std::vector<std::string>& plan_names);

// Throws InputError naming `option` when `path` is a folder or its folder does not exist, so a
// command can refuse it before running anything.
void check_workbook_target(const std::string& path, const std::string& option);

// Builds the workbook in a temporary file beside `path` and renames it over `path` when it is
// complete (the one place that writes it). InputError when the report lacks a field the
// workbook needs (e.g. a report from before the start_of_month_usd column) or on a write error.
void write_workbook_atomically(const Json& report, const WorkbookPaths& paths, const std::string& path);

}  // namespace tco
