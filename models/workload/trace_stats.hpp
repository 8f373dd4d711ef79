// `trace stats`: a job trace summarised as a capacity planner reads it (SPEC §3).
//   gpu_hours       = sum of gpus x duration_h
//   durations       = P50/P90/P99 (linear interpolation, SPEC §12.11), mean, max of duration_h
//   peak concurrent = max over t of the GPUs of jobs with submit_h <= t < submit_h + duration_h
//                     (unconstrained: every job starts when submitted); a job ending at t
//                     leaves before one starting at t arrives
// Example: jobs (0 h, 8 GPUs, 2 h) and (1 h, 4 GPUs, 2 h): 24 GPU-hours, peak 12 GPUs in [1, 2).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/io/json_reader.hpp"
#include "models/workload/job.hpp"
#include "models/workload/trace_start.hpp"

namespace tco {

struct TraceStats {
  long jobs = 0;
  double gpu_hours = 0.0;
  std::map<int, long> jobs_by_gpus;
  double duration_mean_h = 0.0;
  double duration_p50_h = 0.0;
  double duration_p90_h = 0.0;
  double duration_p99_h = 0.0;
  double duration_max_h = 0.0;
  double first_submit_h = 0.0;
  double last_submit_h = 0.0;
  int peak_concurrent_gpus = 0;
  double peak_at_h = 0.0;
  long preemptible_jobs = 0;
  std::optional<TraceStart> start;  // hour 0 as an absolute time (an imported own-history trace)
};

// Streams the file (durations are kept for the percentiles: 8 bytes a job).
TraceStats trace_stats(const std::string& trace_path);

Json to_json(const TraceStats& stats);
std::string stats_text(const TraceStats& stats);

}  // namespace tco
