// Index shards (`tcosim run ... --shard k/N`, then `tcosim merge`; docs/cluster.md): the work
// an N-rank mpirun job splits, run as N independent processes (a Slurm array, a Kubernetes
// Indexed Job, an AWS Batch array job). While a shard runs, this one process stands in for rank
// k-1 of the job: it computes that rank's block of every split (index_block, the same rule) and
// records the bytes the rank would send in each gather, instead of sending them. `tcosim merge`
// then stands in for the root of the same job: it runs the command again, with every rank's
// block empty but its own, and each gather answers the recorded bytes of the N shards in rank
// order, so the root reduces exactly what the unsplit run reduces (the same report bytes).
// A root decision that the other ranks receive (a broadcast: --target-ci-usd's stop, a bracket
// search's next sizes, a checkpoint read) needs every shard's results first: a shard refuses it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tco {

enum class ShardRole { none, shard, merge };

ShardRole shard_role();
// The N of the job a shard or a merge stands for (1 when none).
int shard_job_count();
// The rank a shard stands for (0-based); a merge stands for the root.
int shard_job_rank();

// While one exists, this process is rank `rank` (0-based) of a `count`-rank job, and every gather
// records what it sends.
class ShardRecording {
 public:
  ShardRecording(int rank, int count);
  ~ShardRecording();
  ShardRecording(const ShardRecording&) = delete;
  ShardRecording& operator=(const ShardRecording&) = delete;
  // The bytes of each gather, in the order they were made.
  std::vector<std::string> take();
};

// While one exists, this process is the root of a job of gathers_by_shard.size() ranks, and its
// i-th gather receives each shard's i-th recorded bytes.
class ShardReplay {
 public:
  explicit ShardReplay(std::vector<std::vector<std::string>> gathers_by_shard);
  ~ShardReplay();
  ShardReplay(const ShardReplay&) = delete;
  ShardReplay& operator=(const ShardReplay&) = delete;
  // How many recorded gathers the command did not ask for (0 when the replay matched).
  std::size_t gathers_left() const;
};

// A shard: records `mine` as this gather's bytes. A merge: the next gather's bytes of every shard,
// concatenated in rank order (`sizes` each one's size). Throws std::runtime_error when the
// shards hold fewer gathers than the command asks for.
std::string shard_gather(const std::string& mine, std::vector<std::size_t>* sizes);

// Throws the InputError a shard gives when the command needs a root decision (a broadcast).
[[noreturn]] void refuse_root_decision_in_shard();

}  // namespace tco
