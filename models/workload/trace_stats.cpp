#include "models/workload/trace_stats.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/stats/statistics.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

TraceStats trace_stats(const std::string& path) {
  TraceStats s;
  s.start = read_trace_start(path);
  TraceReader reader(path);
  std::vector<double> durations;
  // Running jobs by end time; jobs arrive in submit order, so the sweep is one pass.
  using End = std::pair<double, int>;
  std::priority_queue<End, std::vector<End>, std::greater<>> running;
  long concurrent = 0;
  Job job;
  while (reader.next(job)) {
    if (s.jobs == 0) s.first_submit_h = job.submit_h;
    s.last_submit_h = job.submit_h;
    ++s.jobs;
    s.gpu_hours += job.gpu_hours();
    ++s.jobs_by_gpus[job.gpus];
    if (job.preemptible) ++s.preemptible_jobs;
    durations.push_back(job.duration_h);
    while (!running.empty() && running.top().first <= job.submit_h) {
      concurrent -= running.top().second;
      running.pop();
    }
    running.emplace(job.submit_h + job.duration_h, job.gpus);
    concurrent += job.gpus;
    if (concurrent > s.peak_concurrent_gpus) {
      s.peak_concurrent_gpus = static_cast<int>(concurrent);
      s.peak_at_h = job.submit_h;
    }
  }
  if (!durations.empty()) {
    double sum = 0.0;
    for (double d : durations) sum += d;
    s.duration_mean_h = sum / static_cast<double>(durations.size());
    std::sort(durations.begin(), durations.end());
    s.duration_p50_h = sorted_quantile(durations, 0.50);
    s.duration_p90_h = sorted_quantile(durations, 0.90);
    s.duration_p99_h = sorted_quantile(durations, 0.99);
    s.duration_max_h = durations.back();
  }
  return s;
}

Json to_json(const TraceStats& s) {
  Json histogram = Json::array();
  for (const auto& [gpus, count] : s.jobs_by_gpus) histogram.push_back({{"gpus", gpus}, {"jobs", count}});
  Json j = {{"jobs", s.jobs},
          {"gpu_hours", s.gpu_hours},
          {"preemptible_jobs", s.preemptible_jobs},
          {"first_submit_h", s.first_submit_h},
          {"last_submit_h", s.last_submit_h},
          {"jobs_by_gpus", histogram},
          {"duration_h",
           {{"mean", s.duration_mean_h},
            {"p50", s.duration_p50_h},
            {"p90", s.duration_p90_h},
            {"p99", s.duration_p99_h},
            {"max", s.duration_max_h}}},
          {"peak_concurrent_gpus", s.peak_concurrent_gpus},
          {"peak_at_h", s.peak_at_h}};
  if (s.start) j["start"] = {{"local_time", s.start->local_time}, {"time_zone", s.start->time_zone}, {"utc_s", s.start->utc_s}};
  return j;
}

std::string stats_text(const TraceStats& s) {
  std::string out;
  if (s.start) out += fmt::format("hour 0               {} ({})\n", s.start->local_time, s.start->time_zone);
  out += fmt::format("jobs                 {}\n", s.jobs);
  out += fmt::format("GPU-hours            {:.1f}\n", s.gpu_hours);
  out += fmt::format("preemptible jobs     {}\n", s.preemptible_jobs);
  out += fmt::format("submitted            {:.2f} h .. {:.2f} h\n", s.first_submit_h, s.last_submit_h);
  out += fmt::format("duration (h)         mean {:.3f}  P50 {:.3f}  P90 {:.3f}  P99 {:.3f}  max {:.3f}\n",
                     s.duration_mean_h, s.duration_p50_h, s.duration_p90_h, s.duration_p99_h, s.duration_max_h);
  out += fmt::format("peak concurrent GPUs {} (unconstrained, at {:.2f} h)\n", s.peak_concurrent_gpus, s.peak_at_h);
  out += "GPUs per job         jobs\n";
  for (const auto& [gpus, count] : s.jobs_by_gpus) out += fmt::format("{:>12}         {}\n", gpus, count);
  return out;
}

}  // namespace tco
