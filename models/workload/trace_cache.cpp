#include "models/workload/trace_cache.hpp"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/sha256.hpp"
#include "models/workload/trace_binary.hpp"

namespace tco {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// The table of `path` when it is a usable binary of the CSV; a note in `notes` when it exists
// but is not.
bool try_binary(const std::string& path, const std::string& csv_sha256, LoadedTrace& out) {
  OpenedTraceBinary opened = open_trace_binary(path, csv_sha256);
  if (opened.status == TraceBinaryStatus::ok) {
    out.table = std::move(opened.table);
    out.binary_path = path;
    return true;
  }
  if (opened.status != TraceBinaryStatus::missing)
    out.notes.push_back(fmt::format("{}: not used, {} ({})", path, describe(opened.status), opened.detail));
  return false;
}

}  // namespace

TraceCacheOptions trace_cache_options_from_environment() {
  TraceCacheOptions o;
  const std::string chosen = environment("TCOSIM_CACHE_DIR");
  if (chosen == "off") return o;
  if (!chosen.empty()) {
    o.cache_dir = chosen;
  } else if (const std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) {
    o.cache_dir = (std::filesystem::path(xdg) / "tcosim").string();
  } else if (const std::string home = environment("HOME"); !home.empty()) {
    o.cache_dir = (std::filesystem::path(home) / ".cache" / "tcosim").string();
  }
  return o;
}

std::string binary_trace_beside(const std::string& csv_path) { return csv_path + ".tcotrace"; }

LoadedTrace load_trace(const std::string& csv_path, const TraceCacheOptions& options) {
  LoadedTrace out;
  out.csv_sha256 = sha256_file_hex(csv_path);
  if (try_binary(binary_trace_beside(csv_path), out.csv_sha256, out)) {
    out.origin = TraceOrigin::binary_beside;
    return out;
  }
  const std::string cached =
      options.cache_dir.empty()
          ? std::string()
          : (std::filesystem::path(options.cache_dir) / "traces" / (out.csv_sha256 + ".tcotrace")).string();
  if (!cached.empty() && try_binary(cached, out.csv_sha256, out)) {
    out.origin = TraceOrigin::cache;
    return out;
  }
  out.table = read_trace_table(csv_path);
  std::error_code size_error;
  const std::uintmax_t csv_bytes = std::filesystem::file_size(csv_path, size_error);
  if (cached.empty() || size_error || csv_bytes < options.min_cache_bytes) return out;
  try {
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(cached).parent_path(), ignored);
    write_trace_binary(cached, out.table, out.csv_sha256);
    out.binary_path = cached;
  } catch (const InputError& e) {
    out.notes.push_back(fmt::format("{}: the trace cache was not written ({}); the run goes on", cached, e.message()));
  }
  return out;
}

}  // namespace tco
