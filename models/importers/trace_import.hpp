// Importers from public cluster traces to the canonical job CSV (SPEC §3). Every input row
// becomes a job or is dropped for a counted reason, so rows = jobs + sum of drops:
//   openb  (Alibaba GPU 2023 pod list, header): submit = creation_time, run = deletion_time -
//          scheduled_time (seconds); gpus = num_gpu (a fractional gpu_milli share takes 1 GPU);
//          class = qos, preemptible = (qos == "BE"); drops: zero_gpus, never_scheduled (empty
//          scheduled_time), zero_duration
//   dlrm   (Alibaba GPU 2025 DLRM instances, header): gpus = gpu_request; an empty creation or
//          scheduled time means "before the trace start" (0), an empty deletion time "after
//          its end" (the largest time in the file); class = app_name; drops: zero_gpus,
//          never_scheduled (created in the trace but never scheduled), zero_duration
//   philly (Microsoft Philly cluster_job_log, JSON array): submit = submitted_time, run = last
//          attempt's end_time - first attempt's start_time, gpus = GPUs listed in the last
//          attempt's machines; class = vc; drops: never_scheduled (no attempt or no start),
//          no_end_time ("None"), zero_gpus, zero_duration
//   pai    (Alibaba PAI 2020 pai_task_table, headerless: job_name,task_name,inst_num,status,
//          start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type): one job per task,
//          gpus = ceil(inst_num x plan_gpu / 100), gpu_type kept, class = task_name; drops:
//          zero_gpus, never_scheduled (empty start_time), no_end_time, zero_duration
//   helios (SenseTime Helios cluster_log.csv, header job_id,user,vc,gpu_num,cpu_num,node_num,
//          state,submit_time,start_time,end_time,duration,queue; clock times): run = end_time
//          - start_time, class = vc; drops: zero_gpus, never_scheduled, no_end_time, zero_duration
// Times are shifted so that the earliest submission is hour 0 (openb and dlrm already count
// seconds from the trace start and are not shifted); jobs come out sorted by submit_h.
// A malformed row (a non-numeric field, end before start, a missing column) is an InputError
// naming the line and column (JSON: the pointer).
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

const std::vector<std::string>& trace_import_formats();

// Throws InputError for an unknown format, a file that cannot be read or a malformed row.
ImportResult import_trace(const std::string& format, const std::string& input_path);

// Philly's JSON job log (models/importers/trace_import_philly.cpp).
ImportResult import_philly(const std::string& input_path);

// Shared by the importers: a job built from seconds, or the reason it is dropped.
class ImportCollector {
 public:
  // Drop reasons beyond the four shared ones, listed (with zero counts) in this order after them.
  explicit ImportCollector(std::initializer_list<const char*> extra_reasons = {});
  void drop(const char* reason);
  // Drops the row for the first reason whose condition holds, in the order given; true when it did.
  bool drop_first(std::initializer_list<std::pair<bool, const char*>> reasons);
  void keep(Job job) { jobs_.push_back(std::move(job)); }
  // Keeps a job that ran from start_s to end_s (seconds; end_s >= start_s, checked by the
  // caller), submitted at submit_s: submit_h = min(submit_s, start_s) / 3600, duration_h =
  // (end_s - start_s) / 3600. A run of zero seconds is dropped as zero_duration.
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
