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

#include <string>
#include <vector>

#include "models/importers/jobs/import_collector.hpp"

namespace tco {

const std::vector<std::string>& trace_import_formats();

// Throws InputError for an unknown format, a file that cannot be read or a malformed row.
ImportResult import_trace(const std::string& format, const std::string& input_path);

// Philly's JSON job log (models/importers/jobs/trace_import_philly.cpp).
ImportResult import_philly(const std::string& input_path);

}  // namespace tco
