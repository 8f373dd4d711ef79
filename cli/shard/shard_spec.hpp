// Which shard a process is (`--shard k/N`, or `--shard auto` from the scheduler's environment;
// docs/cluster.md). k is 1-based, as in `tcosim sweep --shard`; the schedulers' indices are
// 0-based (k = index + 1).
//   Slurm array:          SLURM_ARRAY_TASK_ID, with SLURM_ARRAY_TASK_COUNT or _MIN/_MAX
//                         (index = ID - MIN; --array=0-3 gives k = 1..4 of N = 4)
//   Kubernetes Indexed Job: JOB_COMPLETION_INDEX, N from --shard-count or TCO_SHARD_COUNT
//   AWS Batch array job:  AWS_BATCH_JOB_ARRAY_INDEX, N from AWS_BATCH_JOB_ARRAY_SIZE or --shard-count
#pragma once

#include <functional>
#include <string>

namespace tco::cli {

struct ShardIndex {
  int index = 1;  // k, 1-based
  int count = 1;  // N
  std::string source;  // where they came from, for messages ("--shard 2/4", "Slurm: SLURM_ARRAY_TASK_ID=1 ...")
};

// The value of an environment variable, or null (std::getenv; tests inject their own).
using Environment = std::function<const char*(const char*)>;
Environment process_environment();

// InputError ("--shard") naming the variables looked for when `auto` finds none, or finds values
// that disagree; shard_count 0: no --shard-count given.
ShardIndex resolve_shard(const std::string& text, int shard_count, const Environment& env);

}  // namespace tco::cli
