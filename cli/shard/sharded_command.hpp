// `--shard k/N|auto` and `--shard-count N` on run, optimize, sensitivity and calibrate
// (docs/cluster.md): the command runs as rank k-1 of an N-rank job (core/parallel/index_shards.hpp)
// and writes, in place of its report, the shard file (cli/shard/shard_file.hpp) that tcosim merge
// joins into the report the unsplit command writes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace tco::cli {

struct ShardOptions {
  std::string shard;    // empty: not a shard
  int shard_count = 0;  // 0: not given
};

void add_shard_options(CLI::App& cmd, ShardOptions& o);

// Runs `command` (the command's run_x) as it is without --shard. With it: as the shard, then
// writes the shard file to `out` (a file: --out is required) and, unless `quiet`, says so in one
// line; returns the command's exit code.
int run_maybe_sharded(const ShardOptions& o, const std::string& command_name, const std::string& scenario,
                      const std::string& out, bool quiet, CommandContext& ctx, const std::function<int()>& command);

// The command line after the program's name, as run_main was given it (cli/app.cpp).
void note_command_line(std::vector<std::string> args);

// The command line a merge replays: `args` without --shard, --shard-count and --out/-o.
std::vector<std::string> replayed_args(const std::vector<std::string>& args);

}  // namespace tco::cli
