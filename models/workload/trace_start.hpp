// The absolute time of a trace's hour 0. An importer of a team's own history
// (docs/own-history.md) writes it before the canonical header:
//   # start: 2024-03-10T01:30:00-05:00 America/New_York
// (the wall time with its UTC offset, then the IANA zone it was read in). The trace reader
// (models/workload/trace_csv.hpp) skips a well-formed start line and rejects a malformed one;
// the replay aligns hour 0 to the scenario's calendar (models/workload/trace_clock.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/workload/job.hpp"

namespace tco {

struct TraceStart {
  std::int64_t utc_s = 0;  // seconds since 1970-01-01T00:00:00Z
  std::string local_time;  // "2024-03-10T01:30:00-05:00"
  std::string time_zone;   // "America/New_York"
};

inline constexpr std::string_view kTraceStartPrefix = "# start: ";

// "# start: 2024-03-10T01:30:00-05:00 America/New_York" (no line break).
std::string trace_start_line(const TraceStart& start);
// Parses a line that begins with kTraceStartPrefix; false when the rest is malformed.
bool parse_trace_start_line(std::string_view line, TraceStart& out);
// The same, for line 1 of `path`: InputError at line 1, column 1 when malformed.
TraceStart require_trace_start_line(const std::string& path, std::string_view line);
// The start of a trace file, when its first line is a start line (InputError when malformed).
std::optional<TraceStart> read_trace_start(const std::string& path);

// Writes the canonical trace (its start line first, when given) to `path` as it is (the caller
// stages it: core/io/output_set.hpp). Jobs must be sorted by submit_h.
void write_trace_file(const std::string& path, const std::vector<Job>& jobs, const std::optional<TraceStart>& start);

}  // namespace tco
