// What every trace importer returns, and the collector that builds it: every input row becomes
// a kept job or a counted drop, so rows = jobs + the sum of the drops.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/workload/job.hpp"
#include "models/workload/trace_start.hpp"

namespace tco {

class TimeZone;

struct ImportCounts {
  long rows = 0;  // input rows (jobs, pods, tasks, instances)
  long jobs = 0;  // written
  // (reason, count) in a fixed order: zero_gpus, never_scheduled, no_end_time, zero_duration
  std::vector<std::pair<std::string, long>> dropped;
  long fractional_gpu_rounded_up = 0;  // kept, with their GPU share rounded up to whole GPUs
  double unfinished_gpu_hours = 0.0;   // GPU-hours so far of the runs dropped as no_end_time (when known)
  long dropped_total() const;
};

struct ImportResult {
  std::vector<Job> jobs;  // sorted by submit_h
  ImportCounts counts;
  std::optional<TraceStart> start;  // hour 0 as an absolute time (the own-history importers)
};

// Shared by the importers: a job built from seconds, or the reason it is dropped.
class ImportCollector {
 public:
  // Drop reasons beyond the four shared ones, listed (with zero counts) in this order after them.
  explicit ImportCollector(std::initializer_list<const char*> extra_reasons = {});
  void drop(const char* reason);
  // Drops the row for the first reason whose condition holds, in the order given; true when it did.
  bool drop_first(std::initializer_list<std::pair<bool, const char*>> reasons);
  // Keeps a job that ran from start_s to end_s (seconds; end_s >= start_s, checked by the
  // caller), submitted at submit_s: submit_h = min(submit_s, start_s) / 3600, duration_h =
  // (end_s - start_s) / 3600. A run of zero seconds is dropped as zero_duration. A comma, quote
  // or line break in the job's class or GPU type (which the canonical CSV cannot hold: it does
  // not quote) becomes '|', as in the openb trace's "V100M16,V100M32" -> "V100M16|V100M32".
  void keep_run(Job job, double submit_s, double start_s, double end_s);
  void fractional() { ++counts_.fractional_gpu_rounded_up; }
  void unfinished_gpu_hours(double gpu_hours) { counts_.unfinished_gpu_hours += gpu_hours; }
  // Shifts the earliest submit to 0 (when asked), sorts stably by submit_h, fills counts.
  ImportResult finish(long rows, bool shift_to_zero);
  // For runs kept with keep_run in whole seconds since 1970 UTC: hour 0 is the earliest kept
  // submission, every submit_h is (submit_s - earliest_s) / 3600 (exact seconds, then one
  // division), and the result's start is that second, written in `zone`.
  ImportResult finish_absolute(long rows, const TimeZone& zone);

 private:
  std::vector<Job> jobs_;
  std::vector<std::int64_t> submit_s_;  // of each job kept with keep_run
  ImportCounts counts_;
};

}  // namespace tco
