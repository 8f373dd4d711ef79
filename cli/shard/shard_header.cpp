#include "cli/shard/shard_header.hpp"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/sha256.hpp"
#include "core/parallel/index_shards.hpp"

namespace tco::cli {

namespace {

struct NotedShardRun {
  std::string scenario_file;
  std::string scenario_sha256;
  std::string catalog_sha256;
  std::uint64_t seed = 0;
  long paths = 0;
  std::optional<ShardHeader> expected;  // a merge's
};

NotedShardRun shard_noted;

template <class T>
T header_member(const std::string& file, const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) throw InputError(file, std::string("/header/") + key, "expected this member of a shard's header, found nothing");
  try {
    return it->get<T>();
  } catch (const Json::exception&) {
    throw InputError(file, std::string("/header/") + key, "unexpected value " + describe_json(*it));
  }
}

}  // namespace

Json ShardHeader::to_json() const {
  return {{"command", command},          {"args", args},       {"scenario", scenario},
          {"scenario_sha256", scenario_sha256}, {"catalog_sha256", catalog_sha256},
          {"seed", seed},                {"paths", paths},     {"shard_count", count},
          {"shard_index", index},        {"version", version}};
}

ShardHeader ShardHeader::from_json(const std::string& file, const Json& j) {
  if (!j.is_object()) throw InputError(file, "/header", "expected the shard's header (an object), found " + describe_json(j));
  ShardHeader h;
  h.command = header_member<std::string>(file, j, "command");
  h.args = header_member<std::vector<std::string>>(file, j, "args");
  h.scenario = header_member<std::string>(file, j, "scenario");
  h.scenario_sha256 = header_member<std::string>(file, j, "scenario_sha256");
  h.catalog_sha256 = header_member<std::string>(file, j, "catalog_sha256");
  h.seed = header_member<std::uint64_t>(file, j, "seed");
  h.paths = header_member<long>(file, j, "paths");
  h.count = header_member<int>(file, j, "shard_count");
  h.index = header_member<int>(file, j, "shard_index");
  h.version = header_member<std::string>(file, j, "version");
  if (h.count < 1 || h.index < 1 || h.index > h.count)
    throw InputError(file, "/header/shard_index",
                     fmt::format("expected 1 <= shard_index <= shard_count, found {} of {}", h.index, h.count));
  return h;
}

std::string ShardHeader::differing_member(const ShardHeader& o) const {
  const Json a = to_json(), b = o.to_json();
  for (const auto& item : a.items())
    if (item.key() != "shard_index" && item.value() != b.at(item.key())) return "/header/" + item.key();
  return {};
}

void begin_shard_run(const std::string& scenario_file) {
  shard_noted = NotedShardRun{};
  shard_noted.scenario_file = scenario_file;
}

void expect_shard_run(const ShardHeader& header) { shard_noted.expected = header; }

void note_shard_inputs(InputSnapshot snapshot) {
  // The catalog's digest hashes each file's name and bytes, in path order: the same catalog read
  // from another folder (a merge's working directory) has the same digest.
  Sha256 catalog;
  for (const auto& [path, bytes] : snapshot.files) {
    if (path == shard_noted.scenario_file) continue;
    const std::string name = std::filesystem::path(path).filename().string();
    catalog.update(fmt::format("{}\n{}\n", name, bytes.size()));
    catalog.update(bytes);
  }
  shard_noted.catalog_sha256 = catalog.hex_digest();
  const auto scenario = snapshot.files.find(shard_noted.scenario_file);
  shard_noted.scenario_sha256 =
      scenario != snapshot.files.end() ? sha256_hex(scenario->second) : sha256_file_hex(shard_noted.scenario_file);
  if (!shard_noted.expected || shard_role() != ShardRole::merge) return;
  if (shard_noted.scenario_sha256 != shard_noted.expected->scenario_sha256)
    throw InputError(shard_noted.scenario_file, "",
                     fmt::format("the scenario is not the one the shards ran (SHA-256 {}, the shards' {}): merge "
                                 "where the shards' scenario is",
                                 shard_noted.scenario_sha256, shard_noted.expected->scenario_sha256));
  if (shard_noted.catalog_sha256 != shard_noted.expected->catalog_sha256)
    throw InputError(shard_noted.scenario_file, "",
                     fmt::format("the pricing catalog is not the one the shards ran (SHA-256 {}, the shards' {})",
                                 shard_noted.catalog_sha256, shard_noted.expected->catalog_sha256));
}

void note_shard_run(std::uint64_t seed, long paths) {
  shard_noted.seed = seed;
  shard_noted.paths = paths;
  if (shard_noted.expected && shard_role() == ShardRole::merge && (seed != shard_noted.expected->seed || paths != shard_noted.expected->paths))
    throw InputError(shard_noted.scenario_file, "",
                     fmt::format("this run has seed {} and {} paths; the shards' had seed {} and {} paths", seed, paths,
                                 shard_noted.expected->seed, shard_noted.expected->paths));
}

void fill_noted_shard_run(ShardHeader& header) {
  header.scenario_sha256 = shard_noted.scenario_sha256;
  header.catalog_sha256 = shard_noted.catalog_sha256;
  header.seed = shard_noted.seed;
  header.paths = shard_noted.paths;
}

}  // namespace tco::cli
