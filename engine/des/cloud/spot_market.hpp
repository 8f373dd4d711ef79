// Spot capacity as a job sees it (SPEC §4, §12.12). Two models:
//   Poisson: a request finds capacity with probability `availability` (draw `try` of source
//            spot_availability for the job); a job on k instances is preempted after
//            Exp(k x preemptions_per_instance_hour) hours of running (draw `attempt` of
//            source preemption): the provisioning delay is not preemptible
//   trace:   a Can't Be Late availability/preemption trace (counts n_i of instances up at
//            tick i, every gap_seconds); each path starts at a random offset in it (source
//            trace_offset) and wraps around. A request succeeds when n >= min(k, max n); each
//            drop n -> n' preempts a job on k instances with probability 1 - (n'/n)^k
// Example: rate 0.05 per instance-hour, 2 instances: mean time to preemption 10 h.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/scenario.hpp"

namespace tco::des {

struct SpotTrace {
  std::string path;
  double gap_h = 0.0;
  std::vector<int> counts;
  std::vector<std::uint32_t> drops;  // ticks i with counts[i] < counts[i - 1] (i = 0 compares with the last)
  int max_count = 0;
  double span_h = 0.0;
  double preemptions_per_instance_hour = 0.0;  // instance drops per instance-hour up
  double availability = 0.0;                   // fraction of ticks with capacity
};

// Reads {"metadata": {"gap_seconds": G}, "data": [n0, n1, ...]}; InputError when malformed.
SpotTrace load_spot_trace(const std::string& path);

class SpotMarket {
 public:
  SpotMarket(const SpotSpec& spec, const SpotTrace* trace, std::uint64_t seed, std::uint32_t path);

  bool available(double t_h, int instances, std::uint32_t entity, std::uint32_t try_index) const;
  // When a run on `instances` instances, preemptible from t_from_h, is preempted; infinity
  // when it is not before t_until_h.
  double preemption_time(double t_from_h, double t_until_h, int instances, std::uint32_t entity,
                         std::uint32_t attempt) const;
  // The preemption rate per instance-hour (the trace's measured one in trace mode).
  double rate_per_instance_hour() const;

 private:
  long tick_at(double t_h) const;
  const SpotSpec& spec_;
  const SpotTrace* trace_;
  std::uint64_t seed_;
  std::uint32_t path_;
  double offset_h_ = 0.0;
};

}  // namespace tco::des
