#include "models/importers/jobs/trace_import.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "core/time/time_zone.hpp"
#include "models/importers/jobs/k8s_pods_import.hpp"
#include "models/importers/jobs/slurm_import.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

namespace {


// A comma-separated file read line by line; fields by name (from the header, or given for a
// headerless file); every error names the line and the 1-based column.
class CsvRows {
 public:
  CsvRows(const std::string& path, std::vector<std::string> expected_columns, bool has_header)
      : csv_(path, "cannot open the input file"), names_(std::move(expected_columns)) {
    index_.assign(names_.size(), -1);
    if (!has_header) {
      for (std::size_t i = 0; i < names_.size(); ++i) index_[i] = static_cast<int>(i);
      width_ = names_.size();
      return;
    }
    csv_.read_header();
    const std::vector<std::string_view>& header = csv_.fields();
    width_ = header.size();
    for (std::size_t i = 0; i < names_.size(); ++i) {
      for (std::size_t f = 0; f < header.size(); ++f)
        if (header[f] == names_[i]) index_[i] = static_cast<int>(f);
      if (index_[i] < 0)
        throw InputError(csv_.path(), "line 1",
                         fmt::format("expected a column \"{}\" in the header, found \"{}\"", names_[i], csv_.line()));
    }
  }

  bool next() {
    while (csv_.next_line()) {
      if (csv_.line().empty()) continue;
      const std::size_t found = csv_.fields().size();
      if (found < width_)
        throw InputError(csv_.path(), csv_position(csv_.line_number(), found + 1),
                         fmt::format("expected {} fields, found {} (a missing column)", width_, found));
      // One more field than the header shifts every column after it (a comma inside a value):
      // read on, the row's values would land in the wrong columns.
      if (found > width_)
        throw InputError(csv_.path(), csv_position(csv_.line_number(), width_ + 1),
                         fmt::format("expected {} fields, found {} (an extra field: a comma inside a value, or "
                                     "a shifted column)",
                                     width_, found));
      return true;
    }
    return false;
  }

  // The field of expected column i.
  std::string_view text(std::size_t i) const { return csv_.fields()[index_[i]]; }

  [[noreturn]] void fail(std::size_t i, const std::string& expected) const {
    throw InputError(csv_.path(), csv_position(csv_.line_number(), index_[i] + 1),
                     fmt::format("{}: expected {}, found \"{}\"", names_[i], expected, text(i)));
  }

  double number(std::size_t i) const {
    double x = 0.0;
    if (!parse_finite_double(text(i), x)) fail(i, "a number");
    return x;
  }
  // Empty (or "None"/"NaN" as the traces write missing values) -> nullopt.
  std::optional<double> optional_number(std::size_t i) const {
    const std::string_view t = text(i);
    if (t.empty() || t == "None" || t == "NaN" || t == "nan") return std::nullopt;
    return number(i);
  }

 private:
  CsvLineReader csv_;
  std::vector<std::string> names_;
  std::vector<int> index_;
  std::size_t width_ = 0;
};

// Seconds from 00:00 of `origin` to a strict "YYYY-MM-DD HH:MM:SS"; nullopt when malformed.
std::optional<double> clock_seconds(std::string_view text, const Date& origin) {
  std::string_view date_text;
  long seconds_of_day = 0;
  Date date;
  if (!parse_clock_of_day(text, date_text, seconds_of_day) || !parse_date(std::string(date_text), date))
    return std::nullopt;
  return days_between(origin, date) * 86400.0 + static_cast<double>(seconds_of_day);
}

// GPUs (a fraction of them rounded up) computed from `column`; at most kMaxTraceGpus.
int whole_gpus(const CsvRows& rows, std::size_t column, double gpus) {
  const double whole = std::ceil(gpus - 1e-9);
  if (!(whole <= static_cast<double>(kMaxTraceGpus)))
    rows.fail(column, fmt::format("a figure of at most {} GPUs (found {} GPUs)", kMaxTraceGpus, whole));
  return static_cast<int>(whole);
}

// A GPU count that must be written as a whole number in [0, kMaxTraceGpus].
double whole_gpu_count(const CsvRows& rows, std::size_t column) {
  const double gpus = rows.number(column);
  if (gpus < 0 || gpus != std::floor(gpus) || gpus > static_cast<double>(kMaxTraceGpus))
    rows.fail(column, fmt::format("a whole number of GPUs in [0, {}]", kMaxTraceGpus));
  return gpus;
}

// A time of a trace whose clock starts at 0 (openb, dlrm): seconds >= 0, or absent. A negative
// time would put the job before the trace's start, where a canonical trace cannot (submit_h >= 0).
std::optional<double> trace_seconds(const CsvRows& rows, std::size_t column) {
  const std::optional<double> t = rows.optional_number(column);
  if (t && *t < 0) rows.fail(column, "seconds since the trace's start (>= 0)");
  return t;
}

double required_trace_seconds(const CsvRows& rows, std::size_t column) {
  const double t = rows.number(column);
  if (t < 0) rows.fail(column, "seconds since the trace's start (>= 0)");
  return t;
}

// Adds a job that ran from start_s to end_s (seconds), submitted at submit_s, or drops it. Every
// time is within kMaxTraceHours of zero, and the run within kMaxTraceJobHours.
void keep_or_drop(ImportCollector& c, const CsvRows& rows, std::size_t end_column, double submit_s, double start_s,
                  double end_s, Job job) {
  constexpr double kMaxSeconds = kMaxTraceHours * 3600.0;
  for (double t : {submit_s, start_s, end_s})
    if (!(std::fabs(t) <= kMaxSeconds))
      rows.fail(end_column, fmt::format("times within {:.0f} s (1,000,000 hours) of zero; a time of this row is {}",
                                        kMaxSeconds, t));
  if (end_s < start_s) rows.fail(end_column, fmt::format("a time at or after the start {}", start_s));
  if (end_s - start_s > kMaxTraceJobHours * 3600.0)
    rows.fail(end_column, fmt::format("a run of at most {:.0f} hours, found {} hours", kMaxTraceJobHours,
                                      (end_s - start_s) / 3600.0));
  c.keep_run(std::move(job), submit_s, start_s, end_s);
}

// Hands every row to `row`, which keeps its job in the collector or drops it; the rows counted.
template <class Row>
ImportResult collect_rows(CsvRows& rows, bool shift_to_zero, Row row) {
  ImportCollector c;
  long n = 0;
  while (rows.next()) {
    ++n;
    row(c);
  }
  return c.finish(n, shift_to_zero);
}

ImportResult import_openb(const std::string& path) {
  enum { num_gpu, gpu_milli, gpu_spec, qos, creation_time, deletion_time, scheduled_time };
  CsvRows rows(path, {"num_gpu", "gpu_milli", "gpu_spec", "qos", "creation_time", "deletion_time", "scheduled_time"},
               true);
  return collect_rows(rows, false, [&](ImportCollector& c) {
    const double gpus = whole_gpu_count(rows, num_gpu);
    const double milli = rows.optional_number(gpu_milli).value_or(1000.0);
    const double created = required_trace_seconds(rows, creation_time);
    const auto scheduled = trace_seconds(rows, scheduled_time);
    const double deleted = required_trace_seconds(rows, deletion_time);
    if (c.drop_first({{gpus == 0, "zero_gpus"}, {!scheduled, "never_scheduled"}})) return;
    Job job;
    job.gpus = static_cast<int>(gpus);
    if (gpus == 1 && milli < 1000.0) c.fractional();
    job.gpu_type = std::string(rows.text(gpu_spec));
    job.job_class = std::string(rows.text(qos));
    job.preemptible = job.job_class == "BE";
    keep_or_drop(c, rows, deletion_time, created, *scheduled, deleted, std::move(job));
  });
}

ImportResult import_dlrm(const std::string& path) {
  enum { app_name, gpu_request, creation_time, scheduled_time, deletion_time };
  const std::vector<std::string> columns = {"app_name", "gpu_request", "creation_time", "scheduled_time",
                                            "deletion_time"};
  // First pass: the trace's end (the largest time written), which an empty deletion time means.
  double end_s = 0.0;
  {
    CsvRows rows(path, columns, true);
    while (rows.next())
      for (std::size_t i : {creation_time, scheduled_time, deletion_time})
        end_s = std::max(end_s, rows.optional_number(i).value_or(0.0));
  }
  CsvRows rows(path, columns, true);
  return collect_rows(rows, false, [&](ImportCollector& c) {
    const double gpus = rows.number(gpu_request);
    if (gpus < 0) rows.fail(gpu_request, "GPUs >= 0");
    const auto created = trace_seconds(rows, creation_time);
    const auto scheduled = trace_seconds(rows, scheduled_time);
    const double deleted = trace_seconds(rows, deletion_time).value_or(end_s);
    if (c.drop_first({{gpus == 0, "zero_gpus"}, {created && !scheduled, "never_scheduled"}})) return;
    Job job;
    job.gpus = whole_gpus(rows, gpu_request, gpus);
    if (gpus != std::floor(gpus)) c.fractional();
    job.job_class = std::string(rows.text(app_name));
    keep_or_drop(c, rows, deletion_time, created.value_or(0.0), scheduled.value_or(0.0), deleted, std::move(job));
  });
}

ImportResult import_pai(const std::string& path) {
  enum { job_name, task_name, inst_num, status, start_time, end_time, plan_cpu, plan_mem, plan_gpu, gpu_type };
  // Headerless: the fields of pai_task_table.header, in order.
  CsvRows rows(path, {"job_name", "task_name", "inst_num", "status", "start_time", "end_time", "plan_cpu",
                      "plan_mem", "plan_gpu", "gpu_type"},
               false);
  return collect_rows(rows, true, [&](ImportCollector& c) {
    const double instances = rows.number(inst_num);
    if (instances < 1) rows.fail(inst_num, "instances >= 1");
    const double percent = rows.optional_number(plan_gpu).value_or(0.0);
    if (percent < 0) rows.fail(plan_gpu, "a GPU share >= 0 (percent of one GPU)");
    const auto start = rows.optional_number(start_time);
    const auto end = rows.optional_number(end_time);
    if (c.drop_first({{percent == 0, "zero_gpus"}, {!start, "never_scheduled"}, {!end, "no_end_time"}})) return;
    const double gpus = instances * percent / 100.0;
    Job job;
    job.gpus = whole_gpus(rows, plan_gpu, gpus);
    if (std::fabs(gpus - job.gpus) > 1e-9) c.fractional();
    job.gpu_type = std::string(rows.text(gpu_type));
    job.job_class = std::string(rows.text(task_name));
    keep_or_drop(c, rows, end_time, *start, *start, *end, std::move(job));
  });
}

ImportResult import_helios(const std::string& path) {
  enum { vc, gpu_num, submit_time, start_time, end_time };
  CsvRows rows(path, {"vc", "gpu_num", "submit_time", "start_time", "end_time"}, true);
  const Date origin{2000, 1, 1};
  auto clock = [&](std::size_t i) -> std::optional<double> {
    const std::string_view t = rows.text(i);
    if (t.empty() || t == "None" || t == "NaT") return std::nullopt;
    const auto s = clock_seconds(t, origin);
    if (!s) rows.fail(i, "a time as YYYY-MM-DD HH:MM:SS");
    return s;
  };
  return collect_rows(rows, true, [&](ImportCollector& c) {
    const double gpus = whole_gpu_count(rows, gpu_num);
    const auto submit = clock(submit_time);
    if (!submit) rows.fail(submit_time, "a time as YYYY-MM-DD HH:MM:SS");
    const auto start = clock(start_time);
    const auto end = clock(end_time);
    if (c.drop_first({{gpus == 0, "zero_gpus"}, {!start, "never_scheduled"}, {!end, "no_end_time"}})) return;
    Job job;
    job.gpus = static_cast<int>(gpus);
    job.job_class = std::string(rows.text(vc));
    keep_or_drop(c, rows, end_time, *submit, *start, *end, std::move(job));
  });
}

}  // namespace

const std::vector<std::string>& trace_import_formats() {
  static const std::vector<std::string> formats = {"openb", "dlrm", "philly", "pai", "helios", "slurm", "k8s-pods"};
  return formats;
}

ImportResult import_trace(const std::string& format, const std::string& input_path) {
  if (format == "openb") return import_openb(input_path);
  if (format == "dlrm") return import_dlrm(input_path);
  if (format == "philly") return import_philly(input_path);
  if (format == "pai") return import_pai(input_path);
  if (format == "helios") return import_helios(input_path);
  if (format == "slurm") return import_slurm(input_path, SlurmImportOptions{});
  if (format == "k8s-pods") return import_k8s_pods(input_path, K8sPodsImportOptions{});
  throw InputError("", "--format",
                   fmt::format("expected one of openb, dlrm, philly, pai, helios, slurm, k8s-pods, found \"{}\"",
                               format));
}

}  // namespace tco
