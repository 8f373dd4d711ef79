// tcosim merge SHARD... --out OUT [--csv SWEEP.csv]
// Combines the shards of a sweep (tcosim sweep --shard k/N) into the sweep document, or the
// shards of run, optimize, sensitivity or calibrate (--shard k/N|auto; cli/shard/shard_merge.hpp)
// into the command's report: the same bytes as the unsplit run; refuses shards of different runs,
// overlaps and gaps (exit 2, naming the file).
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "cli/options.hpp"
#include "cli/shard/shard_file.hpp"
#include "cli/shard/shard_merge.hpp"
#include "core/error.hpp"
#include "core/io/input_snapshot.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

namespace {

struct MergeOptions {
  std::vector<std::string> shards;
  std::string out;
  std::string csv;
  bool quiet = false;
};

int run_merge(const MergeOptions& o, CommandContext& ctx) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& file : o.shards) {
    std::optional<std::string> bytes = read_input_file(file);
    if (!bytes) throw InputError(file, "", "cannot read this shard file");
    files.emplace_back(file, std::move(*bytes));
  }
  if (looks_like_shard_file(files.front().second)) {
    if (!o.csv.empty())
      throw InputError("--csv", "", "expected only with a sweep's shards; give run's --csv with the shards' command");
    return merge_index_shards(files, o.out, o.quiet, ctx);
  }
  OutputSet outputs(ctx.out);
  outputs.add_file("--out", o.out, true);
  outputs.add_file("--csv", o.csv);
  for (const auto& file : o.shards) outputs.add_input("a shard", file);
  std::vector<std::pair<std::string, Json>> docs;
  for (const auto& file : o.shards) docs.emplace_back(file, read_json_file(file));
  const Json sweep = merge_sweep_shards(docs);
  outputs.stage(o.out, sweep_text(sweep));
  if (!o.csv.empty()) outputs.stage(o.csv, sweep_csv(sweep));
  outputs.commit();
  if (!o.quiet && !OutputSet::is_stdout(o.out))
    ctx.out << "merge: " << docs.size() << " shard(s), " << sweep.at("points").size() << " points -> " << o.out
            << (o.csv.empty() ? "" : ", " + o.csv) << "\n";
  return 0;
}

}  // namespace

void setup_merge(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<MergeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Merge the shards of a sweep (tcosim sweep --shard k/N), or of run, optimize, sensitivity or calibrate "
      "(--shard k/N or auto), in any order, into the sweep or report the unsplit command writes (docs/cluster.md).");
  cmd->add_option("shards", opts->shards, "Shard files written by a command's --shard")->required();
  cmd->add_option("--out,-o", opts->out, "Write the merged sweep or report here (\"-\": the standard output)")->required();
  cmd->add_option("--csv", opts->csv, "Also write one CSV row per point and plan here");
  add_quiet_flag(*cmd, opts->quiet);
  cmd->callback([opts, &ctx] { ctx.exit_code = run_merge(*opts, ctx); });
}

}  // namespace tco::cli
