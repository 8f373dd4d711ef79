#include "cli/shard/shard_file.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco::cli {

namespace {

constexpr const char* kShardFileMagic = "tcosim-shard 1\n";

// Reads one line (without its '\n') at `at`; InputError when the file ends first.
std::string shard_line_at(const std::string& file, const std::string& bytes, std::size_t& at, const char* what) {
  const std::size_t end = bytes.find('\n', at);
  if (end == std::string::npos)
    throw InputError(file, "", fmt::format("the shard file ends early (truncated?): expected {}", what));
  std::string line = bytes.substr(at, end - at);
  at = end + 1;
  return line;
}

long long shard_number_after(const std::string& file, const std::string& line, const std::string& prefix) {
  if (line.rfind(prefix, 0) != 0 || line.size() == prefix.size())
    throw InputError(file, "", fmt::format("expected a line \"{}N\" in the shard file, found \"{}\"", prefix, line.substr(0, 60)));
  char* end = nullptr;
  const long long n = std::strtoll(line.c_str() + prefix.size(), &end, 10);
  if (*end != '\0' || n < 0)
    throw InputError(file, "", fmt::format("expected a line \"{}N\" in the shard file, found \"{}\"", prefix, line.substr(0, 60)));
  return n;
}

}  // namespace

std::string shard_file_bytes(const ShardFile& shard) {
  std::string out = kShardFileMagic;
  out += shard.header.to_json().dump() + "\n";
  out += fmt::format("gathers {}\n", shard.gathers.size());
  for (const std::string& g : shard.gathers) {
    out += fmt::format("{}\n", g.size());
    out += g;
  }
  out += fmt::format("end {}\n", out.size());
  return out;
}

bool looks_like_shard_file(const std::string& bytes) { return bytes.rfind(kShardFileMagic, 0) == 0; }

ShardFile parse_shard_file(const std::string& file, const std::string& bytes) {
  if (!looks_like_shard_file(bytes))
    throw InputError(file, "", "expected a shard file written by tcosim run/optimize/sensitivity/calibrate --shard");
  std::size_t at = std::string(kShardFileMagic).size();
  ShardFile shard;
  const std::string head = shard_line_at(file, bytes, at, "the header");
  Json header;
  try {
    header = Json::parse(head);
  } catch (const Json::exception& e) {
    throw InputError(file, "/header", fmt::format("the shard's header is not JSON: {}", e.what()));
  }
  shard.header = ShardHeader::from_json(file, header);
  const long long count = shard_number_after(file, shard_line_at(file, bytes, at, "the gather count"), "gathers ");
  for (long long i = 0; i < count; ++i) {
    const auto size = static_cast<std::size_t>(shard_number_after(file, shard_line_at(file, bytes, at, "a gather's size"), ""));
    if (bytes.size() - at < size)
      throw InputError(file, "", fmt::format("the shard file ends early (truncated?): gather {} of {} needs {} bytes, {} are left",
                                             i + 1, count, size, bytes.size() - at));
    shard.gathers.push_back(bytes.substr(at, size));
    at += size;
  }
  const std::size_t before_end = at;
  const long long total = shard_number_after(file, shard_line_at(file, bytes, at, "the end line"), "end ");
  if (static_cast<std::size_t>(total) != before_end || at != bytes.size())
    throw InputError(file, "", fmt::format("the shard file is damaged: its end line says {} bytes, {} came before it and "
                                           "{} after",
                                           total, before_end, bytes.size() - at));
  return shard;
}

}  // namespace tco::cli
