// Microsoft Philly's cluster_job_log (msr-fiddle/philly-traces): a JSON array of jobs,
//   {"status": "Pass", "vc": "ee9e8c", "jobid": "application_...", "user": "...",
//    "submitted_time": "2017-10-03 02:55:40",
//    "attempts": [{"start_time": "...", "end_time": "..." | "None",
//                  "detail": [{"ip": "m1", "gpus": ["gpu0", "gpu1"]}, ...]}, ...]}
// A job runs from its first attempt's start to its last attempt's end, on the GPUs its
// last attempt lists (the scheduler may retry a job; the time between attempts counts, as
// in the Philly analyses that compute run time this way).
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "models/importers/jobs/trace_import.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

namespace {

std::optional<double> philly_seconds(const Json& value, const std::string& file, const std::string& pointer) {
  if (value.is_null() || (value.is_string() && value.get<std::string>() == "None")) return std::nullopt;
  if (!value.is_string()) throw InputError(file, pointer, "expected a time as \"YYYY-MM-DD HH:MM:SS\" or \"None\", found " + describe_json(value));
  const std::string text = value.get<std::string>();
  Date date;
  int h = 0, m = 0, s = 0;
  char tail = 0;
  if (text.size() != 19 || !parse_date(text.substr(0, 10), date) ||
      std::sscanf(text.c_str() + 10, " %2d:%2d:%2d%c", &h, &m, &s, &tail) != 3 || h > 23 || m > 59 || s > 59)
    throw InputError(file, pointer, "expected a time as \"YYYY-MM-DD HH:MM:SS\" or \"None\", found " + describe_json(value));
  return days_between(Date{2000, 1, 1}, date) * 86400.0 + h * 3600.0 + m * 60.0 + s;
}

const Json& philly_member(const Json& object, const char* key, const std::string& file, const std::string& pointer) {
  if (!object.is_object() || !object.contains(key))
    throw InputError(file, pointer, fmt::format("expected an object with \"{}\", found {}", key, describe_json(object)));
  return object.at(key);
}

}  // namespace

ImportResult import_philly(const std::string& path) {
  const Json doc = read_json_file(path);
  if (!doc.is_array()) throw InputError(path, "", "expected a JSON array of jobs, found " + describe_json(doc));
  ImportCollector c;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const std::string pointer = "/" + std::to_string(i);
    const Json& job_json = doc[i];
    const auto submit = philly_seconds(philly_member(job_json, "submitted_time", path, pointer), path, pointer + "/submitted_time");
    if (!submit) throw InputError(path, pointer + "/submitted_time", "expected a submission time, found \"None\"");
    const Json& attempts = philly_member(job_json, "attempts", path, pointer);
    if (!attempts.is_array()) throw InputError(path, pointer + "/attempts", "expected an array, found " + describe_json(attempts));
    if (attempts.empty()) {
      c.drop("never_scheduled");
      continue;
    }
    const std::string first = pointer + "/attempts/0";
    const std::string last = pointer + "/attempts/" + std::to_string(attempts.size() - 1);
    const auto start = philly_seconds(philly_member(attempts.front(), "start_time", path, first), path, first + "/start_time");
    const auto end = philly_seconds(philly_member(attempts.back(), "end_time", path, last), path, last + "/end_time");
    long gpus = 0;
    const Json& detail = philly_member(attempts.back(), "detail", path, last);
    if (!detail.is_array()) throw InputError(path, last + "/detail", "expected an array, found " + describe_json(detail));
    for (std::size_t k = 0; k < detail.size(); ++k) {
      const std::string at = last + "/detail/" + std::to_string(k);
      const Json& list = philly_member(detail[k], "gpus", path, at);
      if (!list.is_array()) throw InputError(path, at + "/gpus", "expected an array of GPU names, found " + describe_json(list));
      gpus += static_cast<long>(list.size());
    }
    if (c.drop_first({{!start, "never_scheduled"}, {!end, "no_end_time"}, {gpus == 0, "zero_gpus"}})) continue;
    if (*end < *start)
      throw InputError(path, last + "/end_time",
                       fmt::format("expected an end at or after the first attempt's start, found {} s before it",
                                   *start - *end));
    if (gpus > kMaxTraceGpus)
      throw InputError(path, last + "/detail", fmt::format("expected at most {} GPUs, found {}", kMaxTraceGpus, gpus));
    if (*end - *start > kMaxTraceJobHours * 3600.0)
      throw InputError(path, last + "/end_time",
                       fmt::format("expected a run of at most {:.0f} hours, found {:.0f} hours", kMaxTraceJobHours,
                                   (*end - *start) / 3600.0));
    Job job;
    job.gpus = static_cast<int>(gpus);
    if (job_json.contains("vc") && job_json.at("vc").is_string()) job.job_class = job_json.at("vc").get<std::string>();
    c.keep_run(std::move(job), *submit, *start, *end);
  }
  return c.finish(static_cast<long>(doc.size()), true);
}

}  // namespace tco
