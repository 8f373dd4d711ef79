#include "models/importers/jobs/import_collector.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/time/seconds_per_hour.hpp"
#include "core/io/utf8_text.hpp"
#include "core/time/time_zone.hpp"

namespace tco {

namespace {

constexpr const char* kReasons[] = {"zero_gpus", "never_scheduled", "no_end_time", "zero_duration"};

}  // namespace

long ImportCounts::dropped_total() const {
  long total = 0;
  for (const auto& [reason, count] : dropped) total += count;
  return total;
}

ImportCollector::ImportCollector(std::initializer_list<const char*> extra_reasons) {
  for (const char* reason : kReasons) counts_.dropped.emplace_back(reason, 0);
  for (const char* reason : extra_reasons) counts_.dropped.emplace_back(reason, 0);
}

bool ImportCollector::drop_first(std::initializer_list<std::pair<bool, const char*>> reasons) {
  for (const auto& [applies, reason] : reasons)
    if (applies) {
      drop(reason);
      return true;
    }
  return false;
}

void ImportCollector::keep_run(Job job, double submit_s, double start_s, double end_s) {
  if (end_s == start_s) return drop("zero_duration");
  job.submit_h = std::min(submit_s, start_s) / kSecondsPerHour;
  job.duration_h = (end_s - start_s) / kSecondsPerHour;
  submit_s_.push_back(static_cast<std::int64_t>(std::min(submit_s, start_s)));
  for (std::string* text : {&job.job_class, &job.gpu_type}) {
    std::replace_if(
        text->begin(), text->end(), [](char ch) { return ch == ',' || ch == '"' || ch == '\n' || ch == '\r'; }, '|');
    // The trace reader takes UTF-8 without control bytes only: any other byte a public trace
    // holds becomes '|' too (the Slurm importer refuses them with their position first).
    for (std::size_t bad = first_unprintable_byte(*text); bad != std::string::npos; bad = first_unprintable_byte(*text))
      (*text)[bad] = '|';
  }
  jobs_.push_back(std::move(job));
}

void ImportCollector::drop(const char* reason) {
  for (auto& [name, count] : counts_.dropped)
    if (name == reason) {
      ++count;
      return;
    }
  counts_.dropped.emplace_back(reason, 1);
}

ImportResult ImportCollector::finish(long rows, bool shift_to_zero) {
  if (shift_to_zero && !jobs_.empty()) {
    double earliest = jobs_.front().submit_h;
    for (const Job& j : jobs_) earliest = std::min(earliest, j.submit_h);
    for (Job& j : jobs_) j.submit_h -= earliest;
  }
  std::stable_sort(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) { return a.submit_h < b.submit_h; });
  counts_.rows = rows;
  counts_.jobs = static_cast<long>(jobs_.size());
  return {std::move(jobs_), counts_, std::nullopt};
}

ImportResult ImportCollector::finish_absolute(long rows, const TimeZone& zone) {
  std::optional<TraceStart> start;
  if (!jobs_.empty()) {
    if (submit_s_.size() != jobs_.size()) throw std::logic_error("finish_absolute: a job kept without its seconds");
    const std::int64_t earliest_s = *std::min_element(submit_s_.begin(), submit_s_.end());
    for (std::size_t i = 0; i < jobs_.size(); ++i)
      jobs_[i].submit_h = static_cast<double>(submit_s_[i] - earliest_s) / kSecondsPerHour;
    start = TraceStart{earliest_s, format_time_with_offset(earliest_s, zone.utc_offset_s(earliest_s)), zone.name()};
  }
  ImportResult result = finish(rows, false);
  result.start = std::move(start);
  return result;
}

}  // namespace tco
