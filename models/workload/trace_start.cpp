#include "models/workload/trace_start.hpp"

#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "core/time/time_zone.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

std::string trace_start_line(const TraceStart& start) {
  return std::string(kTraceStartPrefix) + start.local_time + " " + start.time_zone;
}

namespace {

// What is wrong with a start line, or "" when it is well formed: the wall time as
// YYYY-MM-DDTHH:MM:SS+HH:MM (or ...Z for +00:00) between 2000 and 2099, one space, a zone
// TimeZone::load knows, and the offset that zone had at that time.
std::string trace_start_problem(std::string_view line, TraceStart& out) {
  if (line.substr(0, kTraceStartPrefix.size()) != kTraceStartPrefix)
    return fmt::format("expected the line to begin with \"{}\"", kTraceStartPrefix);
  const std::string_view rest = line.substr(kTraceStartPrefix.size());
  const std::size_t space = rest.find(' ');
  if (space == std::string_view::npos || space + 1 == rest.size() || rest.find(' ', space + 1) != std::string_view::npos)
    return "expected a time and a zone separated by one space";
  const std::string_view time = rest.substr(0, space);
  const bool utc_z = time.size() == 20 && time.back() == 'Z';
  if ((time.size() != 25 && !utc_z) || time[10] != 'T' || !parse_time_with_offset(time, out.utc_s))
    return fmt::format("expected the time as YYYY-MM-DDTHH:MM:SS+HH:MM (or Z for +00:00), found \"{}\"", time);
  if (out.utc_s < civil_seconds(2000, 1, 1, 0) || out.utc_s >= civil_seconds(2100, 1, 1, 0))
    return fmt::format("expected a time between 2000 and 2099, found \"{}\"", time);
  out.local_time = std::string(time);
  out.time_zone = std::string(rest.substr(space + 1));
  std::optional<TimeZone> zone;
  try {
    zone = TimeZone::load(out.time_zone, "# start:");
  } catch (const InputError&) {
    return fmt::format("expected an IANA time zone (such as America/New_York or UTC), found \"{}\"", out.time_zone);
  }
  const std::int64_t offset_s = zone->utc_offset_s(out.utc_s);
  const bool agrees = utc_z ? offset_s == 0 : format_time_with_offset(out.utc_s, offset_s) == out.local_time;
  if (!agrees)
    return fmt::format("the time {} is not a wall time of {} (there it is {})", out.local_time, out.time_zone,
                       format_time_with_offset(out.utc_s, offset_s));
  return "";
}

}  // namespace

bool parse_trace_start_line(std::string_view line, TraceStart& out) { return trace_start_problem(line, out).empty(); }

TraceStart require_trace_start_line(const std::string& path, std::string_view line) {
  TraceStart start;
  const std::string problem = trace_start_problem(line, start);
  if (!problem.empty())
    throw InputError(path, csv_position(1, 1),
                     fmt::format("{} (the start line is \"# start: YYYY-MM-DDTHH:MM:SS+HH:MM ZONE\", hour 0 as an "
                                 "absolute time), in \"{}\"",
                                 problem, line));
  return start;
}

std::optional<TraceStart> read_trace_start(const std::string& path) {
  CsvLineReader csv(path, "cannot open the trace file");
  if (!csv.next_line() || csv.line().substr(0, kTraceStartPrefix.size()) != kTraceStartPrefix) return std::nullopt;
  return require_trace_start_line(path, csv.line());
}

void write_trace_file(const std::string& path, const std::vector<Job>& jobs, const std::optional<TraceStart>& start) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(path, "", "cannot write the trace file");
  std::string buffer = start ? trace_start_line(*start) + "\n" : std::string();
  buffer += canonical_trace_header() + "\n";
  for (const Job& job : jobs) {
    buffer += trace_line(job);
    buffer += '\n';
    if (buffer.size() > (1u << 20)) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  out.close();
  if (!out) throw InputError(path, "", "cannot write the trace file");
}

}  // namespace tco
