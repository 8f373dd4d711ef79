#include "models/workload/trace_table.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/io/mapped_file.hpp"
#include "core/memory/huge_page_allocator.hpp"
#include "core/parallel_for_index.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

template <class T>
using Column = std::vector<T, HugePageAllocator<T>>;

struct TraceTableBuilder::Owned {
  Column<double> submit_h, duration_h, checkpoint_h, max_wait_h, deadline_h;
  Column<std::int32_t> gpus;
  Column<std::uint32_t> gpu_type, job_class;
  Column<std::uint8_t> flags;
};

TraceTable::TraceTable(std::shared_ptr<const void> owner, const TraceColumns& columns,
                       std::vector<std::string> strings, std::optional<TraceStart> start)
    : owner_(std::move(owner)), columns_(columns), strings_(std::move(strings)), start_(std::move(start)) {}

Job TraceTable::job(std::size_t i) const {
  const TraceColumns& c = columns_;
  Job job;
  job.submit_h = c.submit_h[i];
  job.gpus = c.gpus[i];
  job.duration_h = c.duration_h[i];
  job.gpu_type = strings_[c.gpu_type[i]];
  job.preemptible = (c.flags[i] & kTraceFlagPreemptible) != 0;
  job.checkpoint_h = c.checkpoint_h[i];
  job.max_wait_h = c.max_wait_h[i];
  job.deadline_h = c.deadline_h[i];
  job.deferrable = (c.flags[i] & kTraceFlagDeferrable) != 0;
  job.job_class = strings_[c.job_class[i]];
  return job;
}

TraceTableBuilder::TraceTableBuilder() : owned_(std::make_shared<Owned>()) { string_id("", last_class_); }

std::uint32_t TraceTableBuilder::string_id(std::string_view text, std::uint32_t& last) {
  if (last < strings_.size() && strings_[last] == text) return last;
  std::string key(text);
  const auto it = ids_.find(key);
  if (it != ids_.end()) return last = it->second;
  last = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back(key);
  ids_.emplace(std::move(key), last);
  return last;
}

void TraceTableBuilder::add(const TraceRow& row) {
  Owned& o = *owned_;
  o.submit_h.push_back(row.submit_h);
  o.duration_h.push_back(row.duration_h);
  o.checkpoint_h.push_back(row.checkpoint_h);
  o.max_wait_h.push_back(row.max_wait_h);
  o.deadline_h.push_back(row.deadline_h);
  o.gpus.push_back(row.gpus);
  o.gpu_type.push_back(string_id(row.gpu_type, last_gpu_type_));
  o.job_class.push_back(string_id(row.job_class, last_class_));
  o.flags.push_back(static_cast<std::uint8_t>((row.preemptible ? kTraceFlagPreemptible : 0) |
                                              (row.deferrable ? kTraceFlagDeferrable : 0)));
}

std::size_t TraceTableBuilder::rows() const { return owned_->submit_h.size(); }

void TraceTableBuilder::reserve(std::size_t rows) {
  Owned& o = *owned_;
  for (auto* column : {&o.submit_h, &o.duration_h, &o.checkpoint_h, &o.max_wait_h, &o.deadline_h})
    column->reserve(rows);
  o.gpus.reserve(rows);
  o.gpu_type.reserve(rows);
  o.job_class.reserve(rows);
  o.flags.reserve(rows);
}

void TraceTableBuilder::append(const TraceTableBuilder& part) {
  Owned& o = *owned_;
  const Owned& p = *part.owned_;
  std::vector<std::uint32_t> id_of(part.strings_.size());
  std::uint32_t unused = 0;
  for (std::size_t i = 0; i < id_of.size(); ++i) id_of[i] = string_id(part.strings_[i], unused);
  const auto join = [](auto& into, const auto& from) { into.insert(into.end(), from.begin(), from.end()); };
  join(o.submit_h, p.submit_h);
  join(o.duration_h, p.duration_h);
  join(o.checkpoint_h, p.checkpoint_h);
  join(o.max_wait_h, p.max_wait_h);
  join(o.deadline_h, p.deadline_h);
  join(o.gpus, p.gpus);
  join(o.flags, p.flags);
  for (std::uint32_t id : p.gpu_type) o.gpu_type.push_back(id_of[id]);
  for (std::uint32_t id : p.job_class) o.job_class.push_back(id_of[id]);
}

TraceTable TraceTableBuilder::finish(std::optional<TraceStart> start) {
  const Owned& o = *owned_;
  TraceColumns c;
  c.rows = o.submit_h.size();
  c.submit_h = o.submit_h.data();
  c.duration_h = o.duration_h.data();
  c.checkpoint_h = o.checkpoint_h.data();
  c.max_wait_h = o.max_wait_h.data();
  c.deadline_h = o.deadline_h.data();
  c.gpus = o.gpus.data();
  c.gpu_type = o.gpu_type.data();
  c.job_class = o.job_class.data();
  c.flags = o.flags.data();
  TraceTable table(std::move(owned_), c, std::move(strings_), std::move(start));
  owned_ = std::make_shared<Owned>();
  strings_.clear();
  ids_.clear();
  last_gpu_type_ = last_class_ = 0;
  string_id("", last_class_);
  return table;
}

namespace {

constexpr std::size_t kMinBytesPerPart = 4u << 20;
constexpr std::size_t kSampleBytes = 64u << 10;

// One part of the file's body: whole lines from `begin` to `end`. Parsed with its lines numbered
// from 1 and the submit order checked inside the part only; the numbers become the file's, and
// the order across parts is checked, when the parts are joined (so no pass counts the lines first).
struct TracePart {
  const char* begin = nullptr;
  const char* end = nullptr;
  long lines = 0;  // line breaks in the part, counted while parsing
  TraceTableBuilder rows;
  std::string_view first_row;  // its first non-blank line, and that line's number in the part
  long first_row_line = 0;
  double last_submit_h = 0.0;
  // The first bad line, with the submit time before it, to be parsed again under its number in
  // the file; `error` is what parsing it threw.
  std::exception_ptr error;
  std::string_view error_row;
  long error_row_line = 0;
  double submit_h_before_error = 0.0;

  // Hands each non-blank line (without '\n' and one '\r') and its number in the part to `row`.
  template <class Row>
  void for_each_line(Row row) {
    for (const char* at = begin; at < end;) {
      const char* stop = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
      if (stop == nullptr) stop = end;
      std::string_view text(at, static_cast<std::size_t>(stop - at));
      if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
      at = stop == end ? end : stop + 1;
      ++lines;
      if (!text.empty()) row(text, lines);
    }
  }

  void parse(const TraceRowParser& parser) {
    TraceRow row;
    for_each_line([&](std::string_view text, long line) {
      if (first_row.data() == nullptr) {
        first_row = text;
        first_row_line = line;
      }
      const double before = last_submit_h;
      try {
        parser.parse(text, line, row, last_submit_h);
      } catch (...) {
        error = std::current_exception();
        error_row = text;
        error_row_line = line;
        submit_h_before_error = before;
        end = text.data();  // stops the walk: nothing after the first bad line counts
        return;
      }
      rows.add(row);
    });
  }
};

// The byte after the next line break at or after `at` (or `end`).
const char* after_line_break(const char* at, const char* end) {
  const void* stop = std::memchr(at, '\n', static_cast<std::size_t>(end - at));
  return stop == nullptr ? end : static_cast<const char*>(stop) + 1;
}

// Rows to reserve for `bytes` of body whose first `sample` bytes hold `sample_lines` lines: the
// sample's mean line length, plus 5%, and never more than a row per 16 bytes (a sample of blank
// lines must not reserve tens of bytes of columns per byte of file). Too few only costs the
// columns one copy as they grow.
std::size_t estimated_rows(std::size_t bytes, std::size_t sample, long sample_lines) {
  constexpr std::size_t kFewestBytesPerReservedRow = 16;
  if (sample == 0) return 0;
  const double bytes_per_line = static_cast<double>(sample) / static_cast<double>(std::max(1L, sample_lines));
  const auto estimate = static_cast<std::size_t>(static_cast<double>(bytes) / bytes_per_line * 1.05);
  return std::min(estimate, bytes / kFewestBytesPerReservedRow) + 16;
}

}  // namespace

TraceTable read_trace_table(const std::string& csv_path, int threads) {
  std::optional<TraceStart> start = read_trace_start(csv_path);
  const TraceReader header(csv_path);  // the header's errors come first
  const TraceRowParser& parser = header.row_parser();
  const long header_lines = header.line_number();
  const MappedFile file(csv_path);
  if (!file.is_open()) throw InputError(csv_path, "", "cannot open the trace file");
  const char* const data = reinterpret_cast<const char*>(file.data());
  const char* const end = data + file.size();
  const char* body = data;
  for (long i = 0; i < header_lines; ++i) body = after_line_break(body, end);

  const auto bytes = static_cast<std::size_t>(end - body);
  const long parts = std::max(1L, std::min<long>(resolved_thread_count(threads),
                                                 static_cast<long>(bytes / kMinBytesPerPart)));
  std::vector<TracePart> part(static_cast<std::size_t>(parts));
  const char* cut = body;
  for (long k = 0; k < parts; ++k) {
    part[k].begin = cut;
    cut = k + 1 == parts ? end : after_line_break(body + bytes * static_cast<std::size_t>(k + 1) / parts, end);
    part[k].end = std::max(cut, part[k].begin);
  }
  // The first part is reserved for the whole table: the join moves it in and appends the others
  // after it, so its rows are never copied.
  const std::size_t sample = std::min(bytes, kSampleBytes);
  const long sample_lines = static_cast<long>(std::count(body, body + sample, '\n'));
  parallel_for_index(parts, threads, [&](long k) {
    const auto part_bytes = static_cast<std::size_t>(part[k].end - part[k].begin);
    part[k].rows.reserve(estimated_rows(k == 0 ? bytes : part_bytes, sample, sample_lines));
    part[k].parse(parser);
  });

  // Joined in order, the first bad line first: a part's first row is checked against the rows
  // before it exactly as the streaming reader would (the order across the cut, or its own error),
  // and a part's bad line is parsed again under its number in the file.
  TraceTableBuilder table;
  double last_submit_h = 0.0;
  bool any_row = false;
  long lines_before = header_lines;
  for (TracePart& p : part) {
    TraceRow row;
    if (p.first_row.data() != nullptr && any_row) {
      double previous = last_submit_h;
      parser.parse(p.first_row, lines_before + p.first_row_line, row, previous);
    }
    if (p.error) {
      double previous = p.submit_h_before_error;
      parser.parse(p.error_row, lines_before + p.error_row_line, row, previous);
      std::rethrow_exception(p.error);  // not an error of the line's text (out of memory)
    }
    lines_before += p.lines;
    if (p.rows.rows() == 0) continue;
    if (any_row) {
      table.append(p.rows);
    } else {
      table = std::move(p.rows);  // its string ids are the table's: both start from "" alone
    }
    last_submit_h = p.last_submit_h;
    any_row = true;
  }
  return table.finish(std::move(start));
}

std::vector<Job> trace_table_jobs(const TraceTable& table) {
  std::vector<Job> jobs;
  jobs.reserve(table.rows());
  for (std::size_t i = 0; i < table.rows(); ++i) jobs.push_back(table.job(i));
  return jobs;
}

}  // namespace tco
