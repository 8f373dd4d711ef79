// tcosim merge of index shards (docs/cluster.md): checks that the files are the N shards of one
// run (the same header but k, every k once, the same version as this tcosim, none cut short), then
// runs the shards' command line again as the root of an N-rank job whose gathers answer the
// shards' bytes (core/parallel/index_shards.hpp), writing the report the unsplit command writes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cli/app.hpp"

namespace tco::cli {

// files: (path, bytes) in any order. InputError (exit 2) naming the file that does not belong.
int merge_index_shards(const std::vector<std::pair<std::string, std::string>>& files, const std::string& out,
                       bool quiet, CommandContext& ctx);

}  // namespace tco::cli
