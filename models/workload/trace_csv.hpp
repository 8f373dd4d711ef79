// The canonical job-trace CSV (SPEC §3): one header line naming the columns, then one job
// per line, sorted by submit_h. Columns (any order; the first three are required):
//   submit_h,gpus,duration_h,gpu_type,preemptible,checkpoint_h,max_wait_h,deadline_h,deferrable,class
// An empty field takes the default of models/workload/job.hpp; booleans are 0/1 (or true/false);
// fields are never quoted, so gpu_type and class may not hold commas or quotes.
// Reading streams (one line in memory at a time); a malformed line is an InputError
// "FILE: line N, column C: expected ..., found ...", C the 1-based field number.
// Example:
//   submit_h,gpus,duration_h,preemptible,checkpoint_h,class
//   0,8,12.5,1,1,train
//   0.25,1,0.5,0,,notebook
#pragma once

#include <array>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/csv_lines.hpp"
#include "models/input_limits.hpp"
#include "models/workload/job.hpp"

namespace tco {

// Bounds on a trace, shared by the reader and the importers (an importer never writes a trace its
// reader rejects): beyond them a figure is a unit slip, and GPU-hours would overflow. Only the
// clock (submit_h) may run to kMaxTraceHours (about 114 years): public traces count from an epoch.
// A job's own hours (duration, checkpoint, wait, deadline) are held to the scenario's table, as a
// "poisson" or "steady" job's are; 50 jobs of 10^6 GPUs for 10^6 hours once ran to an NPV of
// 1.35e14 (issue 43).
inline constexpr double kMaxTraceHours = 1e6;
inline constexpr double kMaxTraceJobHours = limits::kHours.max;
inline constexpr long kMaxTraceGpus = 1'000'000;
static_assert(kMaxTraceGpus == limits::kMaxGpusPerJob);

enum class TraceColumn { submit_h, gpus, duration_h, gpu_type, preemptible, checkpoint_h, max_wait_h, deadline_h,
                         deferrable, job_class };
inline constexpr int kTraceColumnCount = 10;
std::string_view trace_column_name(TraceColumn c);
// The header the writer puts out: every column, in the order above.
std::string canonical_trace_header();

// One data line's job, its strings as views into the line (valid while the line is); the other
// fields as in Job, with its defaults.
struct TraceRow {
  double submit_h = 0.0;
  int gpus = 1;
  double duration_h = 0.0;
  std::string_view gpu_type;
  bool preemptible = false;
  double checkpoint_h = 0.0;
  double max_wait_h = -1.0;
  double deadline_h = std::numeric_limits<double>::infinity();
  bool deferrable = false;
  std::string_view job_class;
};
TraceRow trace_row(const Job& job);  // views into `job`'s strings

// One data line of a trace whose header gave `column_of_field` (a TraceColumn per field): the
// fields are scanned in place, no field list is built. Errors are TraceReader's, at `line_number`.
// Jobs must come in submit_h order: `last_submit_h` is the previous line's (0 before the first).
class TraceRowParser {
 public:
  TraceRowParser() = default;
  TraceRowParser(std::string path, std::vector<int> column_of_field)
      : path_(std::move(path)), column_of_field_(std::move(column_of_field)) {}

  // `line` without its '\n' and '\r', not blank.
  void parse(std::string_view line, long line_number, TraceRow& row, double& last_submit_h) const;
  void parse(std::string_view line, long line_number, Job& job, double& last_submit_h) const;
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(long line_number, std::size_t field, const std::string& expected, std::string_view found) const;

  std::string path_;
  std::vector<int> column_of_field_;
};

class TraceReader {
 public:
  explicit TraceReader(std::string path);
  // The next job; false at the end of the file. Throws InputError on a malformed line.
  bool next(Job& job);
  const std::string& path() const { return csv_.path(); }
  long line_number() const { return csv_.line_number(); }
  // The header's layout (after construction: the lines read so far are the header's).
  const TraceRowParser& row_parser() const { return rows_; }

 private:
  void read_header();

  CsvLineReader csv_;
  TraceRowParser rows_;
  double last_submit_h_ = 0.0;
};

// Every job of a trace file, in order.
std::vector<Job> read_trace(const std::string& path);

class TraceWriter {
 public:
  // Writes to `path` + ".tmp" and renames it into place at close(), so a reader never sees
  // half a file.
  explicit TraceWriter(std::string path);
  ~TraceWriter();
  // Throws std::invalid_argument when a string field holds a comma, quote or line break, or
  // jobs come out of submit_h order.
  void write(const Job& job);
  void close();

 private:
  std::string path_;
  std::string temporary_;
  std::ofstream out_;
  std::string buffer_;
  double last_submit_h_ = 0.0;
  bool closed_ = false;
};

// One job as a canonical CSV line (no line break).
std::string trace_line(const Job& job);

}  // namespace tco
