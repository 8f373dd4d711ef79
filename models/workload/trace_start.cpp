#include "models/workload/trace_start.hpp"

#include <fstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "core/time/time_zone.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

std::string trace_start_line(const TraceStart& start) {
  return std::string(kTraceStartPrefix) + start.local_time + " " + start.time_zone;
}

bool parse_trace_start_line(std::string_view line, TraceStart& out) {
  if (line.substr(0, kTraceStartPrefix.size()) != kTraceStartPrefix) return false;
  const std::string_view rest = line.substr(kTraceStartPrefix.size());
  const std::size_t space = rest.find(' ');
  if (space == std::string_view::npos || space + 1 == rest.size() ||
      rest.find(' ', space + 1) != std::string_view::npos || !parse_time_with_offset(rest.substr(0, space), out.utc_s))
    return false;
  out.local_time = std::string(rest.substr(0, space));
  out.time_zone = std::string(rest.substr(space + 1));
  return true;
}

TraceStart require_trace_start_line(const std::string& path, std::string_view line) {
  TraceStart start;
  if (!parse_trace_start_line(line, start))
    throw InputError(path, csv_position(1, 1),
                     fmt::format("expected \"# start: YYYY-MM-DDTHH:MM:SS+HH:MM ZONE\" (hour 0 as an absolute time), "
                                 "found \"{}\"",
                                 line));
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
