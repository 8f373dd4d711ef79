// What a shard file of `tcosim CMD --shard k/N` says about its run (docs/cluster.md): the
// command and its command line (without --shard and --out), the SHA-256 of the scenario and of
// the catalog files the run read, the seed and paths, N and k, and tcosim's version. The shards
// of one run agree on all of it but k; tcosim merge checks that they do, and that the scenario
// and catalog it reads again still have those digests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/input_snapshot.hpp"
#include "core/io/json_reader.hpp"

namespace tco::cli {

struct ShardHeader {
  std::string command;               // "run", "optimize", "sensitivity", "calibrate"
  std::vector<std::string> args;     // the command line after the command, as the merge replays it
  std::string scenario;              // the scenario file, as the command line names it
  std::string scenario_sha256;
  std::string catalog_sha256;        // of the other files the run's checks read (the catalog's)
  std::uint64_t seed = 0;
  long paths = 0;
  int count = 1;                     // N
  int index = 1;                     // k, 1-based
  std::string version = TCO_VERSION;

  Json to_json() const;
  // Strict: InputError naming `file` and the member's pointer when one is missing or mistyped.
  static ShardHeader from_json(const std::string& file, const Json& j);
  // The first member (a JSON pointer) where two shards' runs differ, ignoring k; empty when none.
  std::string differing_member(const ShardHeader& other) const;
};

// Called by root_first (cli/root_first.hpp) with what a shard's or a merge's checks read, and by
// the commands with their run's seed and paths. A shard keeps them for its header; a merge
// compares them with the shards' header (expect_shard_run) and throws InputError when they differ.
void note_shard_inputs(InputSnapshot snapshot);
void note_shard_run(std::uint64_t seed, long paths);

// The scenario file a shard or merge reads (its digest is kept apart from the catalog's).
void begin_shard_run(const std::string& scenario_file);
// A merge: the header its replay must match.
void expect_shard_run(const ShardHeader& header);
// What the run noted, as a header's digests, seed and paths.
void fill_noted_shard_run(ShardHeader& header);

}  // namespace tco::cli
