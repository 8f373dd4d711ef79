// Measured demand from a Kubernetes cluster's monitoring (docs/own-history.md), as hourly GPUs:
//   prometheus: the JSON of /api/v1/query_range (resultType "matrix"), e.g. for
//     sum(kube_pod_container_resource_requests{resource="nvidia_com_gpu"}) or
//     count(DCGM_FI_DEV_GPU_UTIL > 0). Series are summed per timestamp, the sums times `scale`
//     (0.01 turns a summed utilization percentage into GPUs) are the samples; the query's step
//     (the smallest gap between timestamps) must be at most an hour.
//   opencost: the JSON of /allocation with step=1h: "data" is one map of allocations per window;
//     a window's demand is the sum of its allocations' gpuHours / the window's hours (1); the
//     "__idle__" allocation (capacity nobody was allocated) is not demand and is left out.
// Samples go into UTC clock hours as models/importers/demand/hourly_demand.hpp says.
// Example: values [[1710039600,"2"],[1710041400,"4"]] of one series give hour 0 = 3 GPUs.
#pragma once

#include <string>

#include "models/importers/demand/hourly_demand.hpp"

namespace tco {

struct DemandImportOptions {
  GapFill fill = GapFill::error;
  double scale = 1.0;  // prometheus: GPUs per unit of the query's value
};

// Throws InputError naming the file and the JSON pointer (or line and column of bad JSON).
HourlyDemand import_prometheus(const std::string& path, const DemandImportOptions& options);
HourlyDemand import_opencost(const std::string& path, const DemandImportOptions& options);

}  // namespace tco
