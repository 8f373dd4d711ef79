// The file a shard writes (`tcosim CMD --shard k/N --out SHARD`) and tcosim merge reads: a text
// head, then the bytes of each gather the rank would have sent, then an end line that says how
// many bytes came before it, so that a file cut short is refused rather than merged.
//   tcosim-shard 1
//   {"command":"run",...}            the header (cli/shard/shard_header.hpp), one line
//   gathers G
//   SIZE\n BYTES                     G times
//   end TOTAL                        the bytes from the first line to here
#pragma once

#include <string>
#include <vector>

#include "cli/shard/shard_header.hpp"

namespace tco::cli {

struct ShardFile {
  ShardHeader header;
  std::vector<std::string> gathers;
};

std::string shard_file_bytes(const ShardFile& shard);
// True when `bytes` begins as a shard file does (and not as a sweep shard's JSON).
bool looks_like_shard_file(const std::string& bytes);
// InputError naming `file` when the bytes are not a whole shard file (truncated, edited).
ShardFile parse_shard_file(const std::string& file, const std::string& bytes);

}  // namespace tco::cli
