// The CUDA backend of the sweep (engine/sweep/sweep_backend.hpp): launches only. One thread per
// (point, path) runs sweep_plan_path (engine/sweep/sweep_kernel.hpp) for each plan that is not a
// repeat of an earlier plan of the launch (SweepChunk::same_as, copied by a second kernel, as
// the CPU backend copies them), hours in the loop, reading the point's shared series (demand,
// site hours, price factors) from device
// memory: consecutive threads are consecutive paths of one point, so a warp's loads of a series
// are one broadcast. Then one block per point reduces the per-path NPVs and savings to means and
// standard errors (two passes, a fixed tree: the same bits on every run). Quantiles are taken
// on the host from the per-path values copied back. Points are launched in sub-chunks that fit
// in device memory (results and failure scratch), so any grid streams through.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/parallel/local_rank.hpp"
#include "engine/sweep/sweep_backend.hpp"

namespace tco {

namespace {

constexpr int kPathThreads = 128;
constexpr int kReduceThreads = 256;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw ModelError(std::string("CUDA sweep backend: ") + what + ": " + cudaGetErrorString(status));
}

// Device memory freed on scope exit.
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count_ > 0) check(cudaMalloc(&ptr_, count_ * sizeof(T)), "cudaMalloc");
  }
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return ptr_; }
  void upload(const T* host, std::size_t count) {
    if (count > 0) check(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  void download(T* host, std::size_t count, std::size_t from = 0) const {
    if (count > 0) check(cudaMemcpy(host, ptr_ + from, count * sizeof(T), cudaMemcpyDeviceToHost), "download");
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// The plan of this launch whose result plan j repeats (SweepChunk::same_as): the first of its
// chain of twins that the launch evaluates; -1 when j is evaluated itself (no twin, or its twin
// is in an earlier launch).
__device__ int evaluated_twin(const int* same_as, int plan, int launch_first_plan) {
  int twin = same_as[plan];
  if (twin < launch_first_plan) return -1;
  while (same_as[twin] >= launch_first_plan) twin = same_as[twin];
  return twin;
}

// Results of point p start at (first_plan(p) - first_plan(p0)) x paths within a sub-chunk.
// MinBlocks: resident blocks of kPathThreads per SM the compiler must allow (it caps the
// registers per thread): the kernel is latency-bound, and at the 148 registers it takes
// unbounded only 12 warps per SM fit (docs/performance.md, "CUDA backend").
template <int MinBlocks>
__global__ void __launch_bounds__(kPathThreads, MinBlocks)
    sweep_paths_kernel(const SweepPointHeader* points, long point_count, const SweepPlanParams* plans,
                                   const int* same_as, int launch_first_plan, const double* data, long paths,
                                   long first_slot, double* npv, double* total, double* tokens, double* scratch,
                                   int scratch_per_path, int* status) {
  const long item = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (item >= point_count * paths) return;
  const long point = item / paths;
  const long path = item % paths;
  const SweepPointHeader& pt = points[point];
  double* own_scratch = scratch + item * static_cast<long>(scratch_per_path);
  const long slot = static_cast<long>(pt.first_plan) * paths - first_slot + path * pt.plan_count;
  for (int i = 0; i < pt.plan_count; ++i) {
    if (evaluated_twin(same_as, pt.first_plan + i, launch_first_plan) >= 0) continue;  // copied afterwards
    const SweepPathResult r =
        sweep_plan_path(pt, plans[pt.first_plan + i], data, static_cast<std::uint32_t>(path), own_scratch);
    if (r.status != kSweepOk) atomicExch(status, r.status);
    npv[slot + i] = r.npv_usd;
    total[slot + i] = r.total_usd;
    if (tokens != nullptr) tokens[slot + i] = r.tokens_served;
  }
}

// Plan j's result on a path is at slot_base[j] + path x slot_stride[j] - first_slot.
__global__ void sweep_twins_kernel(const SweepPointHeader* points, long point_count, const int* same_as,
                                   int launch_first_plan, const long* slot_base, const int* slot_stride, long paths,
                                   long first_slot, double* npv, double* total, double* tokens) {
  const long item = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (item >= point_count * paths) return;
  const SweepPointHeader& pt = points[item / paths];
  const long path = item % paths;
  for (int j = pt.first_plan; j < pt.first_plan + pt.plan_count; ++j) {
    const int twin = evaluated_twin(same_as, j, launch_first_plan);
    if (twin < 0) continue;
    const long to = slot_base[j] + path * slot_stride[j] - first_slot;
    const long from = slot_base[twin] + path * slot_stride[twin] - first_slot;
    npv[to] = npv[from];
    total[to] = total[from];
    if (tokens != nullptr) tokens[to] = tokens[from];
  }
}

// The path kernel with the occupancy TCO_CUDA_MIN_BLOCKS asks for (1, 4, 6 or 8 blocks per SM;
// a tuning knob for measurements). Every variant runs the same code: the same bits. 6 blocks
// (80 registers, about 0.6 KB of spills to L1, 24 warps per SM) was the fastest on an H200:
// 2.26e10 path-hours/s with every random input on against 1.89e10 for 1 block (148 registers,
// 12 warps), 9.25e10 against 6.65e10 with them off (docs/performance.md, "CUDA backend").
constexpr int kDefaultMinBlocks = 6;

int path_kernel_min_blocks() {
  const char* text = std::getenv("TCO_CUDA_MIN_BLOCKS");
  const int asked = text ? std::atoi(text) : kDefaultMinBlocks;
  return asked == 1 || asked == 4 || asked == 8 ? asked : 6;
}

template <typename... Args>
void launch_paths_kernel(unsigned blocks, Args... args) {
  switch (path_kernel_min_blocks()) {
    case 1: sweep_paths_kernel<1><<<blocks, kPathThreads>>>(args...); break;
    case 4: sweep_paths_kernel<4><<<blocks, kPathThreads>>>(args...); break;
    case 8: sweep_paths_kernel<8><<<blocks, kPathThreads>>>(args...); break;
    default: sweep_paths_kernel<6><<<blocks, kPathThreads>>>(args...); break;
  }
}

__device__ double block_sum(double value, double* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  const double sum = shared[0];
  __syncthreads();
  return sum;
}

// Mean and standard error over the paths k of x_k = NPV(k, plan), or with `saving` of
// x_k = NPV(k, baseline) - NPV(k, plan); two passes (the mean, then the squared deviations). A
// constant x is its own mean with a standard error of exactly 0, as on the host
// (core/stats/statistics.hpp): the block counts the paths that differ from x_0.
__device__ void moments(const double* npv, long paths, int plan_count, int plan, int baseline, bool saving,
                        double* shared, double& mean, double& stderr_) {
  const double x0 = saving ? npv[baseline] - npv[plan] : npv[plan];
  double local = 0.0;
  double differing = 0.0;
  for (long k = threadIdx.x; k < paths; k += blockDim.x) {
    const double x = saving ? npv[k * plan_count + baseline] - npv[k * plan_count + plan] : npv[k * plan_count + plan];
    local += x;
    differing += x != x0 ? 1.0 : 0.0;
  }
  mean = block_sum(local, shared) / static_cast<double>(paths);
  if (block_sum(differing, shared) == 0.0) {
    mean = x0;
    stderr_ = 0.0;
    return;
  }
  local = 0.0;
  for (long k = threadIdx.x; k < paths; k += blockDim.x) {
    const double x = saving ? npv[k * plan_count + baseline] - npv[k * plan_count + plan] : npv[k * plan_count + plan];
    local += (x - mean) * (x - mean);
  }
  const double squares = block_sum(local, shared);
  stderr_ = paths > 1 ? std::sqrt(squares / static_cast<double>(paths - 1)) / std::sqrt(static_cast<double>(paths)) : 0.0;
}

__global__ void sweep_moments_kernel(const SweepPointHeader* points, long paths, long first_slot, const double* npv,
                                     int first_plan, double* out) {
  __shared__ double shared[kReduceThreads];
  const SweepPointHeader& pt = points[blockIdx.x];
  const double* values = npv + static_cast<long>(pt.first_plan) * paths - first_slot;
  for (int i = 0; i < pt.plan_count; ++i) {
    double mean = 0.0;
    double se = 0.0;
    double* o = out + static_cast<long>(pt.first_plan - first_plan + i) * 4;
    moments(values, paths, pt.plan_count, i, pt.baseline, false, shared, mean, se);
    if (threadIdx.x == 0) {
      o[0] = mean;
      o[1] = se;
    }
    moments(values, paths, pt.plan_count, i, pt.baseline, true, shared, mean, se);
    if (threadIdx.x == 0) {
      o[2] = mean;
      o[3] = se;
    }
  }
}

}  // namespace

bool sweep_cuda_built() { return true; }

int sweep_cuda_devices(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why) *why = std::string("no CUDA device is visible (") + cudaGetErrorString(status) + ")";
    return 0;
  }
  if (count == 0 && why) *why = "no CUDA device is visible";
  return count;
}

SweepPathValues run_sweep_cuda(const SweepChunk& chunk, long paths, SweepDeviceMoments* moments_out,
                               ProgressCounter* progress) {
  std::string why;
  const int devices = sweep_cuda_devices(&why);
  if (devices == 0) throw ModelError("--backend cuda: " + why);
  // Under mpirun, each rank of a node takes its own GPU (core/parallel/local_rank.hpp).
  const int device = device_for_local_rank(launcher_local_rank(), devices);
  if (const cudaError_t set = cudaSetDevice(device); set != cudaSuccess)
    throw ModelError("--backend cuda: cannot use device " + std::to_string(device) + ": " + cudaGetErrorString(set));
  SweepPathValues out;
  out.paths = paths;
  const std::size_t plan_slots = chunk.plans.size();
  out.npv_usd.assign(plan_slots * static_cast<std::size_t>(paths), 0.0);
  out.total_usd.assign(plan_slots * static_cast<std::size_t>(paths), 0.0);
  if (chunk.has_tokens) out.tokens_served.assign(plan_slots * static_cast<std::size_t>(paths), 0.0);
  if (moments_out) {
    moments_out->npv_mean_usd.assign(plan_slots, 0.0);
    moments_out->npv_stderr_usd.assign(plan_slots, 0.0);
    moments_out->saving_mean_usd.assign(plan_slots, 0.0);
    moments_out->saving_stderr_usd.assign(plan_slots, 0.0);
  }
  const long points = static_cast<long>(chunk.points.size());
  if (points == 0 || paths == 0) return out;

  DeviceArray<SweepPointHeader> d_points(chunk.points.size());
  d_points.upload(chunk.points.data(), chunk.points.size());
  DeviceArray<SweepPlanParams> d_plans(chunk.plans.size());
  d_plans.upload(chunk.plans.data(), chunk.plans.size());
  DeviceArray<double> d_data(chunk.data.size());
  d_data.upload(chunk.data.data(), chunk.data.size());
  // Plans alike at several points run once per path; their twins' results are copied.
  DeviceArray<int> d_same_as(chunk.same_as.size());
  d_same_as.upload(chunk.same_as.data(), chunk.same_as.size());
  std::vector<long> slot_base(chunk.plans.size());
  std::vector<int> slot_stride(chunk.plans.size());
  for (const SweepPointHeader& pt : chunk.points) {
    for (int i = 0; i < pt.plan_count; ++i) {
      slot_base[pt.first_plan + i] = static_cast<long>(pt.first_plan) * paths + i;
      slot_stride[pt.first_plan + i] = pt.plan_count;
    }
  }
  DeviceArray<long> d_slot_base(slot_base.size());
  d_slot_base.upload(slot_base.data(), slot_base.size());
  DeviceArray<int> d_slot_stride(slot_stride.size());
  d_slot_stride.upload(slot_stride.data(), slot_stride.size());
  DeviceArray<int> d_status(1);
  const int ok = kSweepOk;
  d_status.upload(&ok, 1);

  // Points per launch: what the free memory holds of results (2 per plan and path, 3 with tokens
  // served) and failure scratch (per path), with half the free memory left alone.
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  std::size_t max_plans = 1;
  for (const auto& pt : chunk.points) max_plans = std::max<std::size_t>(max_plans, pt.plan_count);
  const std::size_t bytes_per_point =
      static_cast<std::size_t>(paths) *
      ((chunk.has_tokens ? 3 : 2) * max_plans + static_cast<std::size_t>(chunk.max_failure_scratch)) * sizeof(double);
  const long per_launch = std::max<long>(1, std::min<long>(points, static_cast<long>(free_bytes / 2 / bytes_per_point)));
  const std::size_t slots_cap = static_cast<std::size_t>(per_launch) * max_plans * static_cast<std::size_t>(paths);
  DeviceArray<double> d_npv(slots_cap);
  DeviceArray<double> d_total(slots_cap);
  DeviceArray<double> d_tokens(chunk.has_tokens ? slots_cap : 0);  // null without a token workload
  DeviceArray<double> d_scratch(std::max<std::size_t>(
      1, static_cast<std::size_t>(per_launch) * static_cast<std::size_t>(paths) *
             static_cast<std::size_t>(chunk.max_failure_scratch)));
  DeviceArray<double> d_moments(static_cast<std::size_t>(per_launch) * max_plans * 4);
  std::vector<double> moments_host;

  for (long p0 = 0; p0 < points; p0 += per_launch) {
    const long count = std::min(per_launch, points - p0);
    const SweepPointHeader& first = chunk.points[p0];
    const SweepPointHeader& last = chunk.points[p0 + count - 1];
    const int first_plan = first.first_plan;
    const int plan_end = last.first_plan + last.plan_count;
    const long first_slot = static_cast<long>(first_plan) * paths;
    const std::size_t slots = static_cast<std::size_t>(plan_end - first_plan) * static_cast<std::size_t>(paths);
    const long items = count * paths;
    const long blocks = (items + kPathThreads - 1) / kPathThreads;
    launch_paths_kernel(static_cast<unsigned>(blocks), d_points.get() + p0, count, d_plans.get(), d_same_as.get(),
                        first_plan, d_data.get(), paths, first_slot, d_npv.get(), d_total.get(), d_tokens.get(),
                        d_scratch.get(), chunk.max_failure_scratch, d_status.get());
    check(cudaGetLastError(), "launching the path kernel");
    sweep_twins_kernel<<<static_cast<unsigned>(blocks), kPathThreads>>>(
        d_points.get() + p0, count, d_same_as.get(), first_plan, d_slot_base.get(), d_slot_stride.get(), paths,
        first_slot, d_npv.get(), d_total.get(), d_tokens.get());
    check(cudaGetLastError(), "launching the twins kernel");
    sweep_moments_kernel<<<static_cast<unsigned>(count), kReduceThreads>>>(d_points.get() + p0, paths, first_slot,
                                                                         d_npv.get(), first_plan, d_moments.get());
    check(cudaGetLastError(), "launching the reduction kernel");
    check(cudaDeviceSynchronize(), "running the sweep kernels");
    int status = kSweepOk;
    d_status.download(&status, 1);
    if (status == kSweepFailureOverflow)
      throw ModelError("a path drew more node failures than the sweep made room for (internal limit)");
    d_npv.download(out.npv_usd.data() + first_slot, slots);
    d_total.download(out.total_usd.data() + first_slot, slots);
    if (chunk.has_tokens) d_tokens.download(out.tokens_served.data() + first_slot, slots);
    if (moments_out) {
      const std::size_t plans_here = static_cast<std::size_t>(plan_end - first_plan);
      moments_host.resize(plans_here * 4);
      d_moments.download(moments_host.data(), moments_host.size());
      for (std::size_t i = 0; i < plans_here; ++i) {
        moments_out->npv_mean_usd[first_plan + i] = moments_host[i * 4 + 0];
        moments_out->npv_stderr_usd[first_plan + i] = moments_host[i * 4 + 1];
        moments_out->saving_mean_usd[first_plan + i] = moments_host[i * 4 + 2];
        moments_out->saving_stderr_usd[first_plan + i] = moments_host[i * 4 + 3];
      }
    }
    progress_add(progress, static_cast<std::int64_t>(count) * paths);
  }
  return out;
}

}  // namespace tco
