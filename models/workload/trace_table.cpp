#include "models/workload/trace_table.hpp"

#include "models/workload/trace_csv.hpp"

namespace tco {

struct TraceTableBuilder::Owned {
  std::vector<double> submit_h, duration_h, checkpoint_h, max_wait_h, deadline_h;
  std::vector<std::int32_t> gpus;
  std::vector<std::uint32_t> gpu_type, job_class;
  std::vector<std::uint8_t> flags;
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

std::uint32_t TraceTableBuilder::string_id(const std::string& text, std::uint32_t& last) {
  if (last < strings_.size() && strings_[last] == text) return last;
  const auto it = ids_.find(text);
  if (it != ids_.end()) return last = it->second;
  last = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back(text);
  ids_.emplace(text, last);
  return last;
}

void TraceTableBuilder::add(const Job& job) {
  Owned& o = *owned_;
  o.submit_h.push_back(job.submit_h);
  o.duration_h.push_back(job.duration_h);
  o.checkpoint_h.push_back(job.checkpoint_h);
  o.max_wait_h.push_back(job.max_wait_h);
  o.deadline_h.push_back(job.deadline_h);
  o.gpus.push_back(job.gpus);
  o.gpu_type.push_back(string_id(job.gpu_type, last_gpu_type_));
  o.job_class.push_back(string_id(job.job_class, last_class_));
  o.flags.push_back(static_cast<std::uint8_t>((job.preemptible ? kTraceFlagPreemptible : 0) |
                                              (job.deferrable ? kTraceFlagDeferrable : 0)));
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

TraceTable read_trace_table(const std::string& csv_path) {
  std::optional<TraceStart> start = read_trace_start(csv_path);
  TraceReader reader(csv_path);
  TraceTableBuilder builder;
  Job job;
  while (reader.next(job)) builder.add(job);
  return builder.finish(std::move(start));
}

std::vector<Job> trace_table_jobs(const TraceTable& table) {
  std::vector<Job> jobs;
  jobs.reserve(table.rows());
  for (std::size_t i = 0; i < table.rows(); ++i) jobs.push_back(table.job(i));
  return jobs;
}

}  // namespace tco
