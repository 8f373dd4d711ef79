#include "models/workload/trace_csv.hpp"
#include "models/input_limits.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/utf8_text.hpp"
#include "models/workload/trace_start.hpp"

namespace tco {



namespace {

constexpr std::array<std::string_view, kTraceColumnCount> kNames = {
    "submit_h", "gpus", "duration_h", "gpu_type", "preemptible", "checkpoint_h", "max_wait_h", "deadline_h",
    "deferrable", "class"};

// A finite double, optionally written with a leading '+'.
bool parse_double(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  return parse_finite_double(text, out);
}

bool parse_bool(std::string_view text, bool& out) {
  if (text == "1" || text == "true" || text == "True" || text == "TRUE") return out = true, true;
  if (text == "0" || text == "false" || text == "False" || text == "FALSE") return out = false, true;
  return false;
}

// Shortest text that reads back to the same double.
void append_number(std::string& out, double x) { fmt::format_to(std::back_inserter(out), "{}", x); }

void check_text_field(std::string_view what, const std::string& value) {
  if (value.find_first_of(",\"\r\n") != std::string::npos)
    throw std::invalid_argument(fmt::format("trace {} \"{}\" holds a comma, quote or line break", what, value));
}

}  // namespace

std::string_view trace_column_name(TraceColumn c) { return kNames[static_cast<int>(c)]; }

std::string canonical_trace_header() {
  std::string out;
  for (int c = 0; c < kTraceColumnCount; ++c) {
    if (c > 0) out += ',';
    out += kNames[c];
  }
  return out;
}

TraceReader::TraceReader(std::string path) : csv_(std::move(path), "cannot open the trace file") { read_header(); }

void TraceRowParser::fail(long line_number, std::size_t field, const std::string& expected,
                          std::string_view found) const {
  const int column = field < column_of_field_.size() ? column_of_field_[field] : -1;
  const std::string prefix = column >= 0 ? std::string(kNames[column]) + ": " : std::string();
  throw InputError(path_, csv_position(line_number, field + 1),
                   fmt::format("{}expected {}, found \"{}\"", prefix, expected, found));
}

void TraceReader::read_header() {
  csv_.read_header();
  // An imported trace's "# start:" line (models/workload/trace_start.hpp) comes before the header.
  if (csv_.line().substr(0, kTraceStartPrefix.size()) == kTraceStartPrefix) {
    require_trace_start_line(csv_.path(), csv_.line());
    if (!csv_.next_line()) throw InputError(csv_.path(), "line 2", "expected a header line after the start line");
  }
  const std::vector<std::string_view>& names = csv_.fields();
  std::array<int, kTraceColumnCount> field_of_column;
  field_of_column.fill(-1);
  std::vector<int> column_of_field;
  for (std::size_t f = 0; f < names.size(); ++f) {
    int column = -1;
    for (int c = 0; c < kTraceColumnCount; ++c)
      if (names[f] == kNames[c]) column = c;
    if (column < 0)
      throw InputError(csv_.path(), csv_position(csv_.line_number(), f + 1),
                       fmt::format("expected a column name of the canonical trace ({}), found \"{}\"",
                                   canonical_trace_header(), names[f]));
    if (field_of_column[column] >= 0)
      throw InputError(csv_.path(), csv_position(csv_.line_number(), f + 1),
                       fmt::format("expected each column once, found \"{}\" twice", names[f]));
    field_of_column[column] = static_cast<int>(f);
    column_of_field.push_back(column);
  }
  for (TraceColumn required : {TraceColumn::submit_h, TraceColumn::gpus, TraceColumn::duration_h}) {
    if (field_of_column[static_cast<int>(required)] < 0)
      throw InputError(csv_.path(), fmt::format("line {}", csv_.line_number()),
                       fmt::format("expected a \"{}\" column in the header, found \"{}\"", trace_column_name(required),
                                   csv_.line()));
  }
  rows_ = TraceRowParser(csv_.path(), std::move(column_of_field));
}

namespace {

// The fields a Job and a TraceRow share, from one to the other (strings viewed one way, copied
// into the job's buffers the other).
template <class From, class To>
void copy_job_fields(const From& from, To& to) {
  to.submit_h = from.submit_h;
  to.gpus = from.gpus;
  to.duration_h = from.duration_h;
  to.gpu_type = from.gpu_type;
  to.preemptible = from.preemptible;
  to.checkpoint_h = from.checkpoint_h;
  to.max_wait_h = from.max_wait_h;
  to.deadline_h = from.deadline_h;
  to.deferrable = from.deferrable;
  to.job_class = from.job_class;
}

}  // namespace

TraceRow trace_row(const Job& job) {
  TraceRow row;
  copy_job_fields(job, row);
  return row;
}

void TraceRowParser::parse(std::string_view line, long line_number, Job& job, double& last_submit_h) const {
  TraceRow row;
  parse(line, line_number, row, last_submit_h);
  copy_job_fields(row, job);
}

void TraceRowParser::parse(std::string_view line, long line_number, TraceRow& row, double& last_submit_h) const {
  // Split first, into views on the stack (a trace has at most kTraceColumnCount fields), so that a
  // short or long line is reported as such before any of its fields.
  std::array<std::string_view, kTraceColumnCount> field;
  const std::size_t expected = column_of_field_.size();
  std::size_t fields = 0;
  const char* at = line.data();
  const char* const end = line.data() + line.size();
  for (;;) {
    // A byte loop: fields are a few characters, shorter than a memchr call pays for (an eight-byte
    // word scan measured no faster).
    const char* stop = at;
    while (stop != end && *stop != ',') ++stop;
    if (fields < expected) field[fields] = std::string_view(at, static_cast<std::size_t>(stop - at));
    ++fields;
    if (stop == end) break;
    at = stop + 1;
  }
  if (fields != expected)
    throw InputError(path_, csv_position(line_number, std::min(fields, expected) + 1),
                     fmt::format("expected {} fields as in the header, found {}", expected, fields));
  row = TraceRow();
  for (std::size_t f = 0; f < fields; ++f) {
    const std::string_view text = field[f];
    const auto column = static_cast<TraceColumn>(column_of_field_[f]);
    double x = 0.0;
    // An hours field: a number in [0, max] (or (0, max] when zero is not allowed).
    auto hours = [&](double& into, bool zero_allowed, const char* expected) {
      if (!parse_double(text, x) || (zero_allowed ? x < 0.0 : x <= 0.0) || x > kMaxTraceJobHours)
        fail(line_number, f, expected, text);
      into = x;
    };
    // A text field is UTF-8 without control bytes, or an error at its first other byte.
    auto text_field = [&](auto& into) {
      const std::size_t bad = first_unprintable_byte(text);
      if (bad != std::string_view::npos)
        fail(line_number, f,
             fmt::format("UTF-8 text without control characters (byte {} of the field is \\x{:02X})", bad + 1,
                         static_cast<unsigned char>(text[bad])),
             escaped_text(text));
      into = text;
    };
    switch (column) {
      case TraceColumn::submit_h:
        if (!parse_double(text, x) || x < 0.0 || x > kMaxTraceHours)
          fail(line_number, f, "hours in [0, 1000000]", text);
        if (x < last_submit_h)
          fail(line_number, f,
               fmt::format("a submit_h >= the previous line's {} (the trace must be sorted by submit_h)", last_submit_h),
               text);
        row.submit_h = last_submit_h = x;
        break;
      case TraceColumn::gpus: {
        long long gpus = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), gpus);
        if (ec != std::errc() || ptr != text.data() + text.size() || gpus < 1 || gpus > kMaxTraceGpus)
          fail(line_number, f, "an integer number of GPUs, 1..1000000", text);
        row.gpus = static_cast<int>(gpus);
        break;
      }
      case TraceColumn::duration_h:
        hours(row.duration_h, false, "hours in (0, 100000]");
        break;
      case TraceColumn::gpu_type:
        text_field(row.gpu_type);
        break;
      case TraceColumn::preemptible:
        if (!text.empty() && !parse_bool(text, row.preemptible)) fail(line_number, f, "0 or 1", text);
        break;
      case TraceColumn::checkpoint_h:
        if (!text.empty()) hours(row.checkpoint_h, true, "hours in [0, 100000] (0 = no checkpoints)");
        break;
      case TraceColumn::max_wait_h:
        if (!text.empty()) hours(row.max_wait_h, true, "hours in [0, 100000] (empty = the plan's default)");
        break;
      case TraceColumn::deadline_h:
        if (!text.empty()) hours(row.deadline_h, false, "hours in (0, 100000] after submit_h (empty = none)");
        break;
      case TraceColumn::deferrable:
        if (!text.empty() && !parse_bool(text, row.deferrable)) fail(line_number, f, "0 or 1", text);
        break;
      case TraceColumn::job_class:
        text_field(row.job_class);
        break;
    }
  }
}

bool TraceReader::next(Job& job) {
  while (csv_.next_unsplit_line()) {
    if (csv_.line().empty()) continue;
    rows_.parse(csv_.line(), csv_.line_number(), job, last_submit_h_);
    return true;
  }
  if (csv_.read_failed()) throw InputError(csv_.path(), fmt::format("line {}", csv_.line_number() + 1), "read error");
  return false;
}

std::vector<Job> read_trace(const std::string& path) {
  TraceReader reader(path);
  std::vector<Job> jobs;
  Job job;
  while (reader.next(job)) jobs.push_back(std::move(job));
  return jobs;
}

std::string trace_line(const Job& job) {
  check_text_field("gpu_type", job.gpu_type);
  check_text_field("class", job.job_class);
  std::string out;
  append_number(out, job.submit_h);
  out += ',';
  out += std::to_string(job.gpus);
  out += ',';
  append_number(out, job.duration_h);
  out += ',';
  out += job.gpu_type;
  out += job.preemptible ? ",1," : ",0,";
  if (job.checkpoint_h > 0.0) append_number(out, job.checkpoint_h);
  out += ',';
  if (job.has_max_wait()) append_number(out, job.max_wait_h);
  out += ',';
  if (job.has_deadline()) append_number(out, job.deadline_h);
  out += job.deferrable ? ",1," : ",0,";
  out += job.job_class;
  return out;
}

TraceWriter::TraceWriter(std::string path)
    : path_(std::move(path)), temporary_(path_ + ".tmp"), out_(temporary_, std::ios::binary | std::ios::trunc) {
  if (!out_) throw InputError(path_, "", "cannot write the trace file");
  buffer_ = canonical_trace_header() + "\n";
}

TraceWriter::~TraceWriter() {
  if (!closed_) {
    out_.close();
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void TraceWriter::write(const Job& job) {
  if (job.submit_h < last_submit_h_)
    throw std::invalid_argument(fmt::format("trace writer: submit_h {} after {}", job.submit_h, last_submit_h_));
  last_submit_h_ = job.submit_h;
  buffer_ += trace_line(job);
  buffer_ += '\n';
  if (buffer_.size() > (1u << 20)) {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }
}

void TraceWriter::close() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  out_.close();
  if (!out_) throw InputError(path_, "", "cannot write the trace file");
  std::filesystem::rename(temporary_, path_);
  closed_ = true;
}

}  // namespace tco
