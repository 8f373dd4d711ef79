#include "core/parallel/index_shards.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace {

struct IndexShardState {
  ShardRole role = ShardRole::none;
  int rank = 0;
  int count = 1;
  std::vector<std::string> recorded;                      // a shard's gathers
  std::vector<std::vector<std::string>> replayed;         // a merge's: [shard][gather]
  std::size_t next_gather = 0;
};

IndexShardState shard_state;

}  // namespace

ShardRole shard_role() { return shard_state.role; }
int shard_job_count() { return shard_state.count; }
int shard_job_rank() { return shard_state.rank; }

ShardRecording::ShardRecording(int rank, int count) {
  shard_state = IndexShardState{};
  shard_state.role = ShardRole::shard;
  shard_state.rank = rank;
  shard_state.count = count;
}

ShardRecording::~ShardRecording() { shard_state = IndexShardState{}; }

std::vector<std::string> ShardRecording::take() { return std::move(shard_state.recorded); }

ShardReplay::ShardReplay(std::vector<std::vector<std::string>> gathers_by_shard) {
  shard_state = IndexShardState{};
  shard_state.role = ShardRole::merge;
  shard_state.count = static_cast<int>(gathers_by_shard.size());
  shard_state.replayed = std::move(gathers_by_shard);
}

ShardReplay::~ShardReplay() { shard_state = IndexShardState{}; }

std::size_t ShardReplay::gathers_left() const {
  const std::size_t recorded = shard_state.replayed.empty() ? 0 : shard_state.replayed.front().size();
  return recorded > shard_state.next_gather ? recorded - shard_state.next_gather : 0;
}

std::string shard_gather(const std::string& mine, std::vector<std::size_t>* sizes) {
  if (shard_state.role == ShardRole::shard) {
    shard_state.recorded.push_back(mine);
    if (sizes) sizes->clear();
    return std::string();
  }
  std::string all;
  if (sizes) sizes->clear();
  for (const auto& gathers : shard_state.replayed) {
    if (shard_state.next_gather >= gathers.size())
      throw std::runtime_error(fmt::format(
          "the shards hold {} gather(s), and the command asks for more: they were written by another command line "
          "or version",
          gathers.size()));
    all += gathers[shard_state.next_gather];
    if (sizes) sizes->push_back(gathers[shard_state.next_gather].size());
  }
  ++shard_state.next_gather;
  return all;
}

void refuse_root_decision_in_shard() {
  throw InputError("--shard", "",
                   "this command's next step depends on what every shard computed (--target-ci-usd, --checkpoint-dir "
                   "or a bracket search decide from all the paths), so it cannot run as index shards: give a fixed "
                   "--paths without --checkpoint-dir, use --search all, or run it under mpirun (docs/cluster.md)");
}

}  // namespace tco
