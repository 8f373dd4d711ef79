#include "cli/shard/shard_merge.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "cli/shard/shard_file.hpp"
#include "cli/shard/shard_header.hpp"
#include "core/error.hpp"
#include "core/parallel/index_shards.hpp"

namespace tco::cli {

namespace {

// The shards by k (1..N), each named by its file; InputError naming the file that breaks the set.
std::map<int, std::pair<std::string, ShardFile>> checked_shard_set(const std::vector<std::pair<std::string, std::string>>& files) {
  std::map<int, std::pair<std::string, ShardFile>> by_index;
  const ShardFile* first = nullptr;
  std::string first_file;
  for (const auto& [file, bytes] : files) {
    ShardFile shard = parse_shard_file(file, bytes);
    if (shard.header.version != TCO_VERSION)
      throw InputError(file, "/header/version",
                       fmt::format("written by tcosim {}; this is tcosim {}: merge with the version that wrote the "
                                   "shards (the gathered bytes are that version's)",
                                   shard.header.version, TCO_VERSION));
    if (first) {
      const std::string differs = first->header.differing_member(shard.header);
      if (!differs.empty())
        throw InputError(file, differs,
                         fmt::format("this shard is of another run than {}: {} differs ({} vs {})", first_file, differs,
                                     shard.header.to_json().at(differs.substr(8)).dump(),
                                     first->header.to_json().at(differs.substr(8)).dump()));
      if (shard.gathers.size() != first->gathers.size())
        throw InputError(file, "", fmt::format("this shard holds {} gathers, {} holds {}: not one run's shards",
                                               shard.gathers.size(), first_file, first->gathers.size()));
    }
    const int k = shard.header.index;
    if (const auto it = by_index.find(k); it != by_index.end())
      throw InputError(file, "/header/shard_index",
                       fmt::format("shard {} of {} is given twice: here and in {}", k, shard.header.count, it->second.first));
    auto& entry = by_index[k] = {file, std::move(shard)};
    if (!first) {
      first = &entry.second;
      first_file = file;
    }
  }
  const int count = first->header.count;
  for (int k = 1; k <= count; ++k)
    if (!by_index.count(k))
      throw InputError(first_file, "/header/shard_count",
                       fmt::format("shard {} of {} is missing (given: {} file(s)): merge needs every shard of the run",
                                   k, count, files.size()));
  return by_index;
}

}  // namespace

int merge_index_shards(const std::vector<std::pair<std::string, std::string>>& files, const std::string& out, bool quiet,
                       CommandContext& ctx) {
  const auto shards = checked_shard_set(files);
  const ShardHeader& header = shards.begin()->second.second.header;
  std::vector<std::vector<std::string>> gathers;
  for (const auto& entry : shards) gathers.push_back(entry.second.second.gathers);
  std::vector<std::string> args = {header.command};
  args.insert(args.end(), header.args.begin(), header.args.end());
  args.insert(args.end(), {"--out", out});
  if (quiet && std::find(args.begin(), args.end(), "--quiet") == args.end()) args.push_back("--quiet");
  begin_shard_run(header.scenario);
  expect_shard_run(header);
  ShardReplay replay(std::move(gathers));
  int code = 0;
  try {
    code = run_main_throwing(args, ctx.out, ctx.err);
  } catch (...) {
    begin_shard_run("");  // forget the expected header: a later command of this process is no merge
    throw;
  }
  begin_shard_run("");
  if (code == 0 && replay.gathers_left() > 0) {
    std::error_code ec;
    if (out != "-") std::filesystem::remove(out, ec);
    throw InputError(shards.begin()->second.first, "",
                     fmt::format("the shards hold {} gather(s) more than the command made: written by another version "
                                 "or command line",
                                 replay.gathers_left()));
  }
  return code;
}

}  // namespace tco::cli
