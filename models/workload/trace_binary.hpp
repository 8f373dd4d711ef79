// The canonical trace as a binary column file (issue 26): parsed once from its CSV, then mapped
// read-only by every run, path and thread (core/io/mapped_file.hpp), so a trace of any size
// replays without being read again or held in memory. Layout (little-endian):
//   header (256 bytes): magic "TCOTRACE", byte-order mark 0x01020304, schema version, file
//     size, rows, the offsets of the strings and of each column, the string count, and the
//     SHA-256 of the source CSV as 64 hex digits;
//   strings: the trace's "# start:" line, then the table of gpu_type and class names, each as a
//     uint32 length and its bytes;
//   columns, each 64-byte aligned: submit_h, duration_h, checkpoint_h, max_wait_h, deadline_h
//     (float64), gpus (int32), gpu_type, class (uint32 string ids), flags (uint8).
// 45 bytes a job plus padding: a 10-million-job trace (492 MB of CSV) is about 450 MB.
// A file is trusted only whole: a short file, another schema version or byte order, a source
// digest that differs from the CSV's, or any value the CSV reader would reject, and it is not
// used (trace_cache.hpp rebuilds it).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "models/workload/trace_table.hpp"

namespace tco {

inline constexpr std::uint32_t kTraceBinaryVersion = 1;

// Writes `table` to `path` through a uniquely named temporary file beside it, renamed into
// place, so a concurrent reader sees the old file or the new one, never half a file. Throws
// InputError naming the path when it cannot be written.
void write_trace_binary(const std::string& path, const TraceTable& table, const std::string& source_sha256);

enum class TraceBinaryStatus { ok, missing, truncated, other_version, other_source, corrupt };
std::string_view describe(TraceBinaryStatus status);

struct OpenedTraceBinary {
  TraceBinaryStatus status = TraceBinaryStatus::missing;
  TraceTable table;     // when ok
  std::string detail;   // why it is not ok
};

// Maps `path` and checks all of it; expected_sha256 empty accepts any source.
OpenedTraceBinary open_trace_binary(const std::string& path, const std::string& expected_sha256);

}  // namespace tco
