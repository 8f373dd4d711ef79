// A generated canonical trace for the benchmarks: `jobs` Poisson arrivals over 36 months
// (rate = jobs / 26,280 h), 1 to 8 GPUs, Exp(1 h) durations, every other job preemptible with
// a checkpoint every 0.5 h; Philox draws of seed 5, so every bench writes the same bytes.
#pragma once

#include <cstdint>
#include <string>

#include "core/random/random.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco::bench {

inline constexpr double kGeneratedTraceHorizonH = 36.0 * 730.0;

inline void write_generated_trace(const std::string& path, long jobs) {
  const double rate = static_cast<double>(jobs) / kGeneratedTraceHorizonH;
  TraceWriter writer(path);
  Job job;
  double t = 0.0;
  for (std::uint32_t k = 0; k < static_cast<std::uint32_t>(jobs); ++k) {
    const UniformPair u = uniform_pair(5, 0, RandomSource::arrival, 0, k);
    t += exponential_quantile(u.first, rate);
    if (t >= kGeneratedTraceHorizonH) t = kGeneratedTraceHorizonH - 1e-3;
    job.submit_h = t;
    job.gpus = 1 + static_cast<int>(u.second * 8.0);
    job.duration_h = exponential_quantile(uniform(5, 0, RandomSource::duration, 0, k), 1.0);
    job.preemptible = (k % 2) == 0;
    job.checkpoint_h = 0.5;
    writer.write(job);
  }
  writer.close();
}

}  // namespace tco::bench
