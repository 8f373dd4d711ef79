// Where a run finds the columns of a canonical CSV trace (issue 26; docs/workload.md, "Big
// traces"). The CSV's SHA-256 is computed on every load; a binary trace file
// (models/workload/trace_binary.hpp) is used only when it was written from those very bytes:
//   1. beside the CSV, CSV + ".tcotrace" (what `tcosim trace import` writes);
//   2. in the cache folder, FOLDER/traces/SHA256.tcotrace;
//   3. else the CSV is parsed, and when it is at least min_cache_bytes long its columns are written
//      to the cache folder for the next run. A cache that cannot be written (a read-only home, a
//      full disk) is skipped with a note: it never fails the run.
// A binary file that is truncated, of another schema version, written from other bytes or
// corrupt is never used; the cache's is rewritten, the one beside the CSV is left as it is.
// The cache folder: $TCOSIM_CACHE_DIR, else $XDG_CACHE_HOME/tcosim, else $HOME/.cache/tcosim;
// TCOSIM_CACHE_DIR=off turns the cache off.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/workload/trace_table.hpp"

namespace tco {

struct TraceCacheOptions {
  std::string cache_dir;                   // "" = no cache folder
  std::uintmax_t min_cache_bytes = 1u << 20;  // smaller CSVs are parsed every time (milliseconds)
};

// From the environment, as described above.
TraceCacheOptions trace_cache_options_from_environment();

// The binary file `tcosim trace import` writes beside a CSV.
std::string binary_trace_beside(const std::string& csv_path);

enum class TraceOrigin { csv, binary_beside, cache };

struct LoadedTrace {
  TraceTable table;
  std::string csv_sha256;
  TraceOrigin origin = TraceOrigin::csv;
  std::string binary_path;         // the file mapped, or the cache file written; "" when none
  std::vector<std::string> notes;  // binary files not used and why, a cache not written
};

// InputError from the CSV reader when the CSV is parsed and malformed.
LoadedTrace load_trace(const std::string& csv_path, const TraceCacheOptions& options);

}  // namespace tco
