// tcosim.run's core: one scenario (a file, or a document given as a dict) through the report
// pipeline `tcosim run` uses (cli/report_pipeline.hpp), with the GIL released while it computes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "core/io/json_reader.hpp"
#include "core/progress/progress_counter.hpp"
#include "models/scenario.hpp"

namespace tco::python {

// What a caller keeps of a run: the report, and the NPV of every path in one buffer that
// Report.npv_by_path views in place (plan-major: plan p's paths are contiguous).
struct RunResult {
  Json report;
  std::vector<double> npv_usd_by_plan_path;  // plans x paths
  long paths = 0;
  long plans = 0;
  std::vector<double> demand_gpus_by_hour;  // the workbook's Hours sheet (hourly model only)
};

// Counts the paths as the CLI's progress bar does, and lets the caller cancel the run.
struct RunControl {
  ProgressCounter counter;
};

struct RunRequest {
  std::optional<std::string> path;  // a scenario file, or
  Json document;                    // the scenario itself (when no path)
  std::string file_label = "<dict>";
  std::string base_dir = ".";       // where a document's relative paths resolve
  std::string catalog;
  std::optional<long> paths;
  std::optional<std::uint64_t> seed;
  int threads = 0;
  std::string today;
  int max_age_days = 365;
  bool keep_npv_by_path = true;
};

// Runs the request; throws what the CLI's run would report (InputError, ModelError, Cancelled).
std::shared_ptr<RunResult> run_scenario(const RunRequest& request, RunControl* control);

void bind_run(pybind11::module_& m);

}  // namespace tco::python
