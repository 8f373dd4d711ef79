// Kubernetes pods (docs/own-history.md): the JSON of `kubectl get pods --all-namespaces -o json`,
// a List of Pods. A pod is a job:
//   gpus       = max(sum over containers, largest init container) of the GPU resources
//                (nvidia.com/gpu, amd.com/gpu and any `gpu_resources`), each container's limit,
//                or its request when it has no limit: what the scheduler reserved
//   submit     = metadata.creationTimestamp (UTC); hour 0 = the earliest kept creation
//   run        = the earliest startedAt of any container (init containers included, and the
//                lastState of restarted ones) to the latest finishedAt
//   gpu_type   = spec.nodeSelector["nvidia.com/gpu.product"] when present
//   class      = metadata.namespace, or the label `class_label` ("" when the pod has none)
//   preemptible = spec.priorityClassName is one of `preemptible_priority_classes`
// Dropped, in this order: never_scheduled (phase Pending, or no container ever started),
// zero_gpus, no_end_time (phase Running, or no container finished), zero_duration.
// Example: a Succeeded pod created 03:00Z whose one container (limit nvidia.com/gpu: 4) ran
// 03:05Z-05:05Z is 4 GPUs x 2 h, submitted at 03:00Z.
#pragma once

#include <string>
#include <vector>

#include "models/importers/jobs/import_collector.hpp"

namespace tco {

struct K8sPodsImportOptions {
  std::vector<std::string> gpu_resources;                 // beyond nvidia.com/gpu and amd.com/gpu
  std::string class_label;                                // "" = the namespace
  std::vector<std::string> preemptible_priority_classes;  // spec.priorityClassName values
};

// Throws InputError naming the file and the JSON pointer (or line and column of bad JSON).
ImportResult import_k8s_pods(const std::string& path, const K8sPodsImportOptions& options);

}  // namespace tco
