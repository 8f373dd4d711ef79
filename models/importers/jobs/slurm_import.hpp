// Slurm accounting (docs/own-history.md): the output of
//   sacct --allusers --duplicates --parsable2 --starttime S --endtime E
//         --format=JobID,JobIDRaw,State,Submit,Start,End,Elapsed,NNodes,AllocTRES,ReqTRES,Partition,QOS,Account
// '|'-separated, columns found by the header's names (any order, extra ones ignored) or named
// by `columns` for --noheader output. One row is one run:
//   gpus       = gres/gpu=N of AllocTRES, else the sum of its typed gres/gpu:TYPE=N (never both);
//                gpu_type = the TYPEs, '|'-joined ("gres/gpu:h100=4" gives "h100")
//   duration_h = Elapsed ([D-]HH:MM:SS) / 3600: "1-02:00:00" is 26 h, right across DST changes
//   submit     = Submit, a wall time in `time_zone`; hour 0 = the earliest kept submission
//   class      = Partition, QOS or Account; preemptible when the QOS or the partition is listed
// Rows dropped, by reason, in this order: step (123.batch, 123.0), never_scheduled (Start
// Unknown/None, or a pending array row 123_[8-10%2]), zero_gpus, no_end_time (End Unknown:
// still running; its GPU-hours so far are counted), zero_duration (Elapsed 0). An array task
// 123_7 is a job; each REQUEUED attempt is its own run. The components of a heterogeneous job
// (123+0, 123+1) are one gang: the sum of their GPUs, the earliest Submit and Start, the longest
// Elapsed; its rows after the first are dropped as het_component.
// Example: "7|RUNNING|..." is no_end_time; "8|COMPLETED|2024-03-10T01:30:00|...|02:00:00|
// ...|gres/gpu=4|gpu" is 4 GPUs x 2 h of class "gpu".
#pragma once

#include <string>
#include <vector>

#include "models/importers/jobs/import_collector.hpp"

namespace tco {

struct SlurmImportOptions {
  std::string time_zone = "UTC";                     // IANA name of the cluster's wall clock
  std::string class_column = "partition";            // partition | qos | account
  std::vector<std::string> preemptible_qos;          // QOS names whose jobs are preemptible
  std::vector<std::string> preemptible_partitions;   // partitions whose jobs are preemptible
  std::vector<std::string> columns;                  // the fields of headerless output, in order
};

// Throws InputError naming the file, line and column of a malformed row.
ImportResult import_slurm(const std::string& path, const SlurmImportOptions& options);

}  // namespace tco
