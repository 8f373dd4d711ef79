#include "models/importers/jobs/k8s_pods_import.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "core/time/time_zone.hpp"
#include "models/importers/import_time.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

namespace {

class PodReader {
 public:
  PodReader(const std::string& file, const K8sPodsImportOptions& o) : file_(file), o_(o) {
    resources_ = {"nvidia.com/gpu", "amd.com/gpu"};
    resources_.insert(resources_.end(), o.gpu_resources.begin(), o.gpu_resources.end());
  }

  // The value at `key` of an object, or nullptr when the key is absent (or the value null).
  const Json* find(const Json& object, const char* key, const std::string& pointer) const {
    if (!object.is_object())
      throw InputError(file_, pointer_join(pointer, key),
                       fmt::format("expected a member of an object, found {} in place of the object",
                                   describe_json(object)));
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }
  const Json& at(const Json& object, const char* key, const std::string& pointer) const {
    const Json* value = find(object, key, pointer);
    if (!value) throw InputError(file_, pointer_join(pointer, key), "expected a value here, found none");
    return *value;
  }
  const Json* array_or_null(const Json& object, const char* key, const std::string& pointer) const {
    const Json* value = find(object, key, pointer);
    if (value && !value->is_array())
      throw InputError(file_, pointer_join(pointer, key), "expected an array, found " + describe_json(*value));
    return value;
  }

  std::int64_t time(const Json& value, const std::string& pointer) const {
    return json_utc_seconds(value, file_, pointer);
  }

  // A container's GPUs: per resource, its limit, or its request when it has no limit.
  long container_gpus(const Json& container, const std::string& pointer) const {
    const Json* resources = find(container, "resources", pointer);
    if (!resources) return 0;
    const std::string at_resources = pointer + "/resources";
    const Json* limits = find(*resources, "limits", at_resources);
    const Json* requests = find(*resources, "requests", at_resources);
    long gpus = 0;
    for (const std::string& name : resources_) {
      const char* section = "limits";
      const Json* quantity = limits ? find(*limits, name.c_str(), at_resources + "/limits") : nullptr;
      if (!quantity && requests) section = "requests", quantity = find(*requests, name.c_str(), at_resources + "/requests");
      if (quantity) gpus += whole_quantity(*quantity, pointer_join(at_resources + "/" + section, name));
    }
    return gpus;
  }

  long whole_quantity(const Json& q, const std::string& pointer) const {
    long count = -1;
    if (q.is_number_unsigned()) {
      count = q.get<long>();
    } else if (q.is_string()) {
      const std::string text = q.get<std::string>();
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
      if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) count = -1;
    }
    if (count < 0 || count > kMaxTraceGpus)
      throw InputError(file_, pointer,
                       fmt::format("expected a whole GPU count in [0, {}], found {}", kMaxTraceGpus, describe_json(q)));
    return count;
  }

  // Earliest startedAt and latest finishedAt over a status list's state and lastState.
  void run_times(const Json& pod_status, const char* list, const std::string& pointer,
                 std::optional<std::int64_t>& start_s, std::optional<std::int64_t>& end_s) const {
    const Json* statuses = array_or_null(pod_status, list, pointer);
    if (!statuses) return;
    for (std::size_t i = 0; i < statuses->size(); ++i) {
      const std::string at_status = fmt::format("{}/{}/{}", pointer, list, i);
      for (const char* which : {"state", "lastState"}) {
        const Json* state = find((*statuses)[i], which, at_status);
        if (!state) continue;
        const std::string at_state = at_status + "/" + which;
        for (const char* phase : {"running", "terminated"}) {
          const Json* s = find(*state, phase, at_state);
          if (!s) continue;
          const std::string at_phase = at_state + "/" + phase;
          if (const Json* started = find(*s, "startedAt", at_phase)) {
            const std::int64_t t = time(*started, at_phase + "/startedAt");
            start_s = std::min(start_s.value_or(t), t);
          }
          if (const Json* finished = find(*s, "finishedAt", at_phase)) {
            const std::int64_t t = time(*finished, at_phase + "/finishedAt");
            end_s = std::max(end_s.value_or(t), t);
          }
        }
      }
    }
  }

  void pod(const Json& p, const std::string& pointer, ImportCollector& c) const {
    const Json& metadata = at(p, "metadata", pointer);
    const Json& spec = at(p, "spec", pointer);
    const Json* status = find(p, "status", pointer);
    const std::int64_t submit_s = time(at(metadata, "creationTimestamp", pointer + "/metadata"),
                                       pointer + "/metadata/creationTimestamp");
    long sum = 0, largest_init = 0;
    if (const Json* containers = array_or_null(spec, "containers", pointer + "/spec"))
      for (std::size_t i = 0; i < containers->size(); ++i)
        sum += container_gpus((*containers)[i], fmt::format("{}/spec/containers/{}", pointer, i));
    if (const Json* inits = array_or_null(spec, "initContainers", pointer + "/spec"))
      for (std::size_t i = 0; i < inits->size(); ++i)
        largest_init = std::max(largest_init, container_gpus((*inits)[i], fmt::format("{}/spec/initContainers/{}", pointer, i)));
    const long gpus = std::max(sum, largest_init);
    if (gpus > kMaxTraceGpus)
      throw InputError(file_, pointer + "/spec", fmt::format("expected at most {} GPUs, found {}", kMaxTraceGpus, gpus));
    std::string phase;
    std::optional<std::int64_t> start_s, end_s;
    if (status) {
      if (const Json* value = find(*status, "phase", pointer + "/status"); value && value->is_string())
        phase = value->get<std::string>();
      run_times(*status, "initContainerStatuses", pointer + "/status", start_s, end_s);
      run_times(*status, "containerStatuses", pointer + "/status", start_s, end_s);
    }
    if (c.drop_first({{phase == "Pending" || !start_s, "never_scheduled"},
                      {gpus == 0, "zero_gpus"},
                      {phase == "Running" || !end_s, "no_end_time"}}))
      return;
    if (*end_s < *start_s)
      throw InputError(file_, pointer + "/status", "expected the latest finishedAt at or after the earliest startedAt");
    if (static_cast<double>(*end_s - *start_s) > kMaxTraceJobHours * 3600.0)
      throw InputError(file_, pointer + "/status",
                       fmt::format("expected a run of at most {:.0f} hours, found {:.0f} hours", kMaxTraceJobHours,
                                   static_cast<double>(*end_s - *start_s) / 3600.0));
    Job job;
    job.gpus = static_cast<int>(gpus);
    job.job_class = class_of(metadata, pointer + "/metadata");
    if (const Json* selector = find(spec, "nodeSelector", pointer + "/spec"))
      if (const Json* product = find(*selector, "nvidia.com/gpu.product", pointer + "/spec/nodeSelector");
          product && product->is_string())
        job.gpu_type = product->get<std::string>();
    if (const Json* priority = find(spec, "priorityClassName", pointer + "/spec"); priority && priority->is_string())
      job.preemptible = std::find(o_.preemptible_priority_classes.begin(), o_.preemptible_priority_classes.end(),
                                  priority->get<std::string>()) != o_.preemptible_priority_classes.end();
    c.keep_run(std::move(job), static_cast<double>(submit_s), static_cast<double>(*start_s),
               static_cast<double>(*end_s));
  }

  std::string class_of(const Json& metadata, const std::string& pointer) const {
    const Json* value = nullptr;
    if (o_.class_label.empty()) {
      value = find(metadata, "namespace", pointer);
    } else if (const Json* labels = find(metadata, "labels", pointer)) {
      value = find(*labels, o_.class_label.c_str(), pointer + "/labels");
    }
    return value && value->is_string() ? value->get<std::string>() : std::string();
  }

 private:
  std::string file_;
  const K8sPodsImportOptions& o_;
  std::vector<std::string> resources_;
};

}  // namespace

ImportResult import_k8s_pods(const std::string& path, const K8sPodsImportOptions& options) {
  const Json doc = read_json_file(path);
  PodReader reader(path, options);
  const Json& items = reader.at(doc, "items", "");
  if (!items.is_array()) throw InputError(path, "/items", "expected an array of pods, found " + describe_json(items));
  ImportCollector c;
  for (std::size_t i = 0; i < items.size(); ++i) reader.pod(items[i], fmt::format("/items/{}", i), c);
  return c.finish_absolute(static_cast<long>(items.size()), TimeZone::load("UTC", ""));
}

}  // namespace tco
