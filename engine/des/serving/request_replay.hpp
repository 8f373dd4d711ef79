// A request-level replay of LLM serving (issue 47, docs/des.md "Requests"): requests arrive, wait
// FIFO for a slot on the replica the router chose, prefill their input tokens, then decode their
// output tokens by continuous batching, every active request of a replica decoding at the rate
// its serving profile measured at that many active requests.
//   a replica holds at most max_concurrency active requests (prefilling or decoding);
//   with n active, each decoding request gains r(n) tokens a second, so the replica's output rate
//     is (decoding requests) x r(n), n x r(n) when all decode, as the benchmark measured;
//   prefill takes input tokens x p(n) seconds, n the active count once it is admitted;
//   a request still waiting max_wait_s after it arrived leaves the queue: to the first venue of
//     `venues` (rented replicas of their own, launched on demand, a wait bound of their own), then
//     the next, then the API when overflow_to_api, else it is dropped;
//   a scaled rented replica that becomes ready, or frees a slot with an empty queue of its own,
//     takes the oldest requests waiting at any replica (FIFO by arrival: a heap of queue heads);
//   the least-active router sends a request to the replica with the fewest active + waiting
//   requests (among equals, the one that has had that count longest: engine/des/serving/least_loaded.hpp).
// Each event is O(log n): a replica keeps its attained service A(t) = integral of r(n(s)) ds (the
// tokens any request decoding throughout would have decoded), a decode finishing when A reaches
// the A at its start plus its output tokens, so a rate change touches no active request.
// Arrivals are a Poisson process whose rate is constant within each step of the profile (exact:
// unit exponentials on the integrated rate), or the requests of a trace.
// A served request's load is its arrival step's requests/s: the profile's, or for a trace the
// trace's requests in that step_s window (of its period when it repeats) / step_s.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/des/serving/latency_histogram.hpp"
#include "models/serving/profile_rates.hpp"
#include "models/serving/token_length.hpp"
#include "models/serving/trace_request.hpp"

namespace tco::serving {

enum class Router { least_active, round_robin };

// Rented scaling (docs/des.md "Rented scaling"): up to max_replicas rented replicas beside the
// held ones. One is launched at an arrival that finds the oldest request waiting at its replica
// for more than wait_threshold_s, while fewer are starting than ceil(waiting requests / slots);
// it joins the router startup_s after its launch and is billed from the launch until it is
// removed, idle_s after it last had no active or waiting request.
struct RentedScaling {
  int max_replicas = 0;  // 0: none
  double wait_threshold_s = 0.0;
  double startup_s = 0.0;
  double idle_s = 0.0;
};

// A rented venue of the plan's venue list (docs/des.md "Overflow to venues"): a request enters it
// once it has waited max_wait_s at the fleet (or its bound at the venue before). It starts at once
// on the venue's least active running replica with a free slot; else it waits in the venue's FIFO
// queue, and a replica is launched when fewer are starting than ceil(waiting / slots) and one
// launched now is ready within the bound (startup_s < max_wait_s); a request still waiting
// max_wait_s after it entered goes on to the next venue. A replica is billed from its launch until
// idle_s after it last had no request.
struct OverflowVenue {
  int max_replicas = 1;
  double max_wait_s = 0.0;  // the venue's own wait bound, from the request's entry
  double startup_s = 0.0;
  double idle_s = 0.0;
};

struct RequestReplayConfig {
  int replicas = 1;        // held all through the replay (at least 1)
  int owned_replicas = -1; // of those, the first ones are owned, the rest rented (-1: all owned)
  RentedScaling scaling;
  // A request still waiting max_wait_s after it arrived goes through `venues` in order, then to the
  // API when overflow_to_api, else is dropped.
  std::vector<OverflowVenue> venues;
  bool overflow_to_api = false;
  ReplicaRates rates;
  Router router = Router::least_active;
  // Drawn arrivals: requests a second in each step of step_s seconds, from time 0.
  std::vector<double> requests_per_s_by_step;
  double step_s = 3600.0;
  TokenLength input_tokens, output_tokens;
  // Or a trace (arrival times ascending); when given, the rates and lengths above are not drawn.
  // With trace_period_s > 0 it repeats every trace_period_s seconds (request k of repeat m
  // arrives at m x period + its time) until trace_until_s; without, it is replayed once.
  std::vector<TraceRequest> trace;
  double trace_period_s = 0.0;
  double trace_until_s = std::numeric_limits<double>::infinity();
  double max_wait_s = std::numeric_limits<double>::infinity();
  // The latency target: a request is within it when its TTFT is at most max_ttft_s and its
  // decode ran at least min_tokens_per_s_per_user (output tokens / decode time).
  double slo_max_ttft_s = std::numeric_limits<double>::infinity();
  double slo_min_tokens_per_s_per_user = 0.0;
  // Requests arriving before this time are served but not counted (the empty start's transient).
  double warmup_s = 0.0;
  std::uint64_t seed = 0;
};

// One request as it went, for tests and traces (kept only when asked for).
struct RequestRecord {
  double arrival_s = 0.0, admitted_s = 0.0, first_token_s = 0.0, finished_s = 0.0;
  double input_tokens = 0.0, output_tokens = 0.0;
  int replica = -1;
  int venue = -1;       // the venue whose replica served it (-1: the fleet)
  bool dropped = false;
  bool to_api = false;  // overflowed to the API at finished_s (dropped: left the last bound then)
};

// The served requests whose arrival fell in a step of about the same load (requests/s): for the
// chart of latency against load. Bin b of kLoadBins holds the steps whose rate is in
// (b, b + 1] x the busiest step's rate / kLoadBins (the first from 0).
struct LoadBin {
  std::uint64_t served = 0;
  double requests_per_s_sum = 0.0;  // over the served requests, each its step's rate
  LatencyHistogram ttft_s;
};
inline constexpr int kLoadBins = 10;

// One overflow venue's counted requests: those that entered it, those its replicas served (their
// tokens), and its replicas launched and billed (launch to removal).
struct VenueStats {
  std::uint64_t entered = 0, served = 0, launched = 0;
  double tokens_served = 0.0, billed_replica_s = 0.0;
};

struct RequestReplayStats {
  std::uint64_t arrived = 0, served = 0, dropped = 0, waited = 0, within_slo = 0;
  double wait_s_sum = 0.0, ttft_s_sum = 0.0, e2e_s_sum = 0.0;
  double input_tokens_served = 0.0, output_tokens_served = 0.0;
  double busy_replica_s = 0.0;  // replica-seconds with at least one active request
  std::uint64_t max_queue = 0;  // the most requests waiting at one replica, seen at an arrival
  // Where the counted requests' tokens went: rented replicas (held or scaled; the rest of the
  // served tokens are the owned replicas'; venues' included) and the API (overflow).
  std::uint64_t to_api = 0;
  double rented_tokens_served = 0.0, api_input_tokens = 0.0, api_output_tokens = 0.0;
  // Scaled rented replicas: launched, replica-seconds billed (launch to removal), most running at once.
  std::uint64_t rented_launched = 0;
  double rented_billed_replica_s = 0.0;
  int max_rented_running = 0;
  std::vector<VenueStats> venues;  // one per config venue
  LatencyHistogram wait_s, ttft_s, tpot_s, e2e_s;
  std::vector<LoadBin> by_load;  // kLoadBins bins once a request is served
  void merge(const RequestReplayStats& other);
};

// Replays path `path` of the configuration until every request has finished or been dropped.
// `records`, when given, receives every request (counted or not) in arrival order.
RequestReplayStats replay_requests(const RequestReplayConfig& config, std::uint32_t path,
                                   std::vector<RequestRecord>* records = nullptr);

}  // namespace tco::serving
