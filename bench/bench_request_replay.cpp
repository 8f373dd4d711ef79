// Speed and memory of the request-level serving replay (issue 47, docs/performance.md "Request
// replay"): one day at 1,000 requests a second (86.4 M requests) on one core, a fleet of replicas
// whose rates follow a continuous-batching curve, lognormal input and output lengths. Prints
// requests per CPU-second and the peak resident memory, after a first run of a tenth of the day
// (memory must not grow with the requests served: the two peaks are printed side by side).
//   bench_request_replay [--seconds S] [--rate R] [--replicas N]
// The same model in Python (bench/request_replay_heapq.py) is its peer; bench/request_replay_vs_python.sh
// runs both in one go.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "engine/des/serving/request_replay.hpp"
#include "process_usage.hpp"

using namespace tco::serving;

namespace {

// r(n) = 80 / (1 + n / 32) tokens/s per request (a replica's n r(n) rises to 2,560 tokens/s),
// p(n) = 0.0002 (1 + n / 64) s per input token, 64 slots.
RequestReplayConfig day_config(double seconds, double rate, int replicas) {
  RequestReplayConfig c;
  c.replicas = replicas;
  for (int n = 1; n <= 64; ++n) {
    c.rates.decode_tokens_per_s_by_active.push_back(80.0 / (1.0 + n / 32.0));
    c.rates.prefill_s_per_input_token_by_active.push_back(0.0002 * (1.0 + n / 64.0));
  }
  c.requests_per_s_by_step = {rate};
  c.step_s = seconds;
  c.input_tokens = {TokenLength::Kind::lognormal, 1500.0, 1.0, {}};
  c.output_tokens = {TokenLength::Kind::lognormal, 300.0, 0.8, {}};
  c.max_wait_s = 60.0;
  c.slo_max_ttft_s = 2.0;
  c.slo_min_tokens_per_s_per_user = 20.0;
  c.seed = 2026;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 86400.0, rate = 1000.0;
  int replicas = 400;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rate")) rate = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--replicas")) replicas = std::atoi(argv[i + 1]);
  }
  for (const double share : {0.1, 1.0}) {
    const RequestReplayConfig c = day_config(seconds * share, rate, replicas);
    const double cpu0 = tco::bench::thread_cpu_s();
    const RequestReplayStats s = replay_requests(c, 0);
    const double cpu_s = tco::bench::thread_cpu_s() - cpu0;
    fmt::print("{:>9.0f} s at {:g} requests/s on {} replicas: {} requests ({} served, {} dropped) in {:.2f} CPU-s: "
               "{:.2f} M requests per core-second; peak RSS {:.1f} MiB\n",
               seconds * share, rate, replicas, s.arrived, s.served, s.dropped, cpu_s, s.arrived / cpu_s / 1e6,
               tco::bench::peak_rss_mib());
    fmt::print("  TTFT p50 {:.3f} s, p99 {:.3f} s; TPOT p50 {:.4f} s; within the target {:.2f}%; busy replica-seconds {:.1f}% of the horizon's\n",
               s.ttft_s.percentile(0.5), s.ttft_s.percentile(0.99), s.tpot_s.percentile(0.5),
               100.0 * s.within_slo / s.served, 100.0 * s.busy_replica_s / (replicas * seconds * share));
  }
}
