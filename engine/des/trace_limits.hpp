// A job trace held to the scenario's table of limits (issue 43), as the scenario's own job
// sources are: a trace that parses can still be impossible for the scenario it runs in.
//   - a job longer than the whole horizon: exit 2 (a unit slip, seconds or minutes read as
//     hours, far more often than a real job; a service that runs all along is a "steady" source);
//   - a job of more GPUs than any plan can ever hold (no plan rents, and it exceeds the largest
//     plan's onprem_nodes x GPUs per node): exit 2 (it could never start);
//   - GPUs in use on average over the trace's span above the hourly model's ceiling
//     (kMaxDemandGpus, 10 million: "no fleet"): exit 2. The average, sum(gpus x duration_h) /
//     (last end - first submit), is a lower bound of the peak.
// Each error names the trace file and the job's line (canonical CSV) or its place in the trace.
// Example: 50 jobs of 1,000,000 GPUs for 10,000 h submitted in hours 0..49 average 5e11 GPU-hours
// / 10,049 h = 4.98e7 GPUs, over 1e7.
#pragma once

#include "engine/des/job_stream.hpp"
#include "models/scenario.hpp"

namespace tco::des {

void check_trace_limits(const Scenario& s, const JobCatalog& catalog);

// A scenario file as `validate` checks it, so that it accepts exactly what `run` accepts: loaded
// as `run` loads it (models/scenario.hpp validate_scenario_file), then its job trace read and held
// to the limits above, as `run` does before its first path. The scenario's warnings, or its one
// error (the trace's file and line for a bad trace).
std::vector<Finding> validate_scenario_and_trace(const std::string& path, const std::string& catalog_dir_override);

}  // namespace tco::des
