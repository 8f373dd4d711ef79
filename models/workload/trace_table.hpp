// A canonical job trace (models/workload/trace_csv.hpp) held as columns: one array per field,
// and gpu_type and class as ids into a string table whose id 0 is "". The columns live in the
// mapped binary trace file (models/workload/trace_binary.hpp) or in vectors the table owns (a
// trace read from its CSV, or imported in memory); copies share them, and any number of threads
// read them. Flags: bit 0 preemptible, bit 1 deferrable.
// Example: the CSV rows "0,8,2,,1,,,,0,a" and "1,1,1,,0,,,,0,b" give submit_h {0, 1}, gpus {8, 1},
// job_class {1, 2} with strings {"", "a", "b"}, flags {1, 0}.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/workload/job.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/workload/trace_start.hpp"

namespace tco {

inline constexpr std::uint8_t kTraceFlagPreemptible = 1;
inline constexpr std::uint8_t kTraceFlagDeferrable = 2;

// Pointers to the columns of `rows` jobs.
struct TraceColumns {
  std::size_t rows = 0;
  const double* submit_h = nullptr;
  const double* duration_h = nullptr;
  const double* checkpoint_h = nullptr;
  const double* max_wait_h = nullptr;  // < 0: the plan's default
  const double* deadline_h = nullptr;  // infinity: none
  const std::int32_t* gpus = nullptr;
  const std::uint32_t* gpu_type = nullptr;   // string ids
  const std::uint32_t* job_class = nullptr;  // string ids
  const std::uint8_t* flags = nullptr;
};

class TraceTable {
 public:
  TraceTable() = default;
  // `owner` keeps the memory of `columns` alive.
  TraceTable(std::shared_ptr<const void> owner, const TraceColumns& columns, std::vector<std::string> strings,
             std::optional<TraceStart> start);

  std::size_t rows() const { return columns_.rows; }
  const TraceColumns& columns() const { return columns_; }
  const std::vector<std::string>& strings() const { return strings_; }
  const std::optional<TraceStart>& start() const { return start_; }
  Job job(std::size_t i) const;

 private:
  std::shared_ptr<const void> owner_;
  TraceColumns columns_;
  std::vector<std::string> strings_;
  std::optional<TraceStart> start_;
};

// Builds a table in memory, one job at a time.
class TraceTableBuilder {
 public:
  TraceTableBuilder();
  void add(const TraceRow& row);
  void add(const Job& job) { add(trace_row(job)); }
  void reserve(std::size_t rows);
  // Adds every row of `part` after this builder's, its strings mapped onto this builder's ids.
  void append(const TraceTableBuilder& part);
  std::size_t rows() const;
  TraceTable finish(std::optional<TraceStart> start);

 private:
  // The id of `text`; `last` is the id this column had on the previous job (most jobs repeat it).
  std::uint32_t string_id(std::string_view text, std::uint32_t& last);

  struct Owned;
  std::shared_ptr<Owned> owned_;
  std::vector<std::string> strings_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::uint32_t last_gpu_type_ = 0, last_class_ = 0;
};

// Every job of a canonical CSV (InputError as read_trace: the same message for the same first bad
// line). The file is mapped and cut at line breaks into one part per thread (`threads` 0: every
// core; a file under 4 MiB is one part); the parts are parsed at once and joined in order, so the
// table and any error do not depend on the thread count.
TraceTable read_trace_table(const std::string& csv_path, int threads = 0);

// Every job of the table, in order (as read_trace gives them from the CSV).
std::vector<Job> trace_table_jobs(const TraceTable& table);

}  // namespace tco
