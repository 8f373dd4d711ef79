#include "cli/shard/sharded_command.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/shard/shard_file.hpp"
#include "cli/shard/shard_spec.hpp"
#include "core/error.hpp"
#include "core/io/atomic_file.hpp"
#include "core/parallel/index_shards.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"

namespace tco::cli {

namespace {

std::vector<std::string> noted_command_line;

}  // namespace

void note_command_line(std::vector<std::string> args) { noted_command_line = std::move(args); }

void add_shard_options(CLI::App& cmd, ShardOptions& o) {
  cmd.add_option("--shard", o.shard,
                 "Compute only shard k of N (k/N, 1-based: the paths rank k-1 of an N-rank mpirun job computes), or "
                 "auto (the index of a Slurm array, Kubernetes Indexed Job or AWS Batch array job), and write the "
                 "shard file to --out; join the shards with tcosim merge (docs/cluster.md)");
  cmd.add_option("--shard-count", o.shard_count,
                 "N for --shard auto where the scheduler sets no count (Kubernetes; else TCO_SHARD_COUNT)")
      ->check(CLI::Range(1, 1000000));
}

std::vector<std::string> replayed_args(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool dropped = false;
    for (const char* name : {"--shard", "--shard-count", "--out", "-o"}) {
      const std::string n = name;
      if (a == n) {
        ++i;  // and its value
        dropped = true;
      } else if (a.rfind(n + "=", 0) == 0 || (n == "-o" && a.size() > 2 && a.rfind("-o", 0) == 0)) {
        dropped = true;
      }
      if (dropped) break;
    }
    if (!dropped) out.push_back(a);
  }
  return out;
}

int run_maybe_sharded(const ShardOptions& o, const std::string& command_name, const std::string& scenario,
                      const std::string& out, bool quiet, CommandContext& ctx, const std::function<int()>& command) {
  if (o.shard.empty()) {
    if (o.shard_count > 0) throw InputError("--shard-count", "", "expected with --shard auto, found it alone");
    return command();
  }
  if (process_count() > 1) {
    mark_error_known_to_every_rank();  // every rank parses the same command line
    throw InputError("--shard", "",
                     "expected one process: under mpirun or srun -n K the ranks already split the work; give --shard "
                     "to the tasks of a job array instead (docs/cluster.md)");
  }
  const ShardIndex shard = resolve_shard(o.shard, o.shard_count, process_environment());
  if (out.empty() || out == "-")
    throw InputError("--out", "", "expected a file for the shard (--shard writes its part there for tcosim merge)");
  ShardFile file;
  file.header.command = command_name;
  // The command line without the program's and the command's names.
  const std::vector<std::string>& line = noted_command_line;
  const std::vector<std::string> args(line.begin() + std::min<std::size_t>(1, line.size()), line.end());
  file.header.args = replayed_args(args);
  file.header.scenario = scenario;
  file.header.count = shard.count;
  file.header.index = shard.index;
  begin_shard_run(scenario);
  int code = 0;
  {
    ShardRecording recording(shard.index - 1, shard.count);
    code = command();
    file.gathers = recording.take();
  }
  if (code != 0) return code;
  fill_noted_shard_run(file.header);
  const std::string bytes = shard_file_bytes(file);
  write_file_atomically(out, bytes);
  if (!quiet)
    ctx.out << fmt::format("{}: shard {} of {} ({}): {} bytes -> {}\n", command_name, shard.index, shard.count,
                           shard.source, bytes.size(), out);
  return 0;
}

}  // namespace tco::cli
