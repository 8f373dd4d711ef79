// A serving scenario's requests (`workload.requests`, issue 47; docs/des.md "Requests in a
// scenario"): what each plan that serves replays request by request, read at load so that
// `validate` refuses what `run` refuses.
//   drawn  arrivals are a Poisson process whose rate in hour h is workload.tokens' requests/s(h),
//          for the first `hours` hours of the horizon; input and output tokens drawn from their
//          distributions (default: fixed at the tokens' input and output tokens per request)
//   trace  the requests of an Azure LLM trace (`demand import --format azure-llm`'s input), in
//          seconds after its first request, repeated every whole hours it spans,
//          period = (floor(last arrival / 3,600 s) + 1) x 3,600 s, the hours `demand import`
//          writes for it (so the replay tiles it as workload.tokens.series tiles its rows), until
//          `hours` hours
// Example: 0.5 requests/s for hours = 2 gives 3,600 requests on average; the conversation trace
// (its last request 3,501.9 s after the first) repeats every 3,600 s.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/serving/token_length.hpp"
#include "models/serving/trace_request.hpp"

namespace tco {

struct TokenDemand;

// Rented replicas launched while requests wait (engine/des/serving/request_replay.hpp RentedScaling).
struct RentedScalingSpec {
  int max_replicas = 1;          // launched at once, beside the held ones
  int min_replicas = 1;          // held all through by a renting plan without owned replicas
  double wait_threshold_s = 0.0;
  double startup_minutes = 0.0;  // instance start + model load; billed from the launch
  double idle_minutes = 0.0;     // removed after this long with no request
};

// A plan venue's terms in the replay (workload.requests.venues.<venue name>; engine/des/serving/
// request_replay.hpp OverflowVenue): a plan with a venue of that name sends a request still
// waiting max_wait_s on to it, its venues in the plan's order, then to the API or dropped.
struct RequestVenueSpec {
  std::string name;
  int max_replicas = 1;                   // at most; also the venue's quota in whole replicas
  std::optional<double> max_wait_s;       // its own wait bound; absent: the workload's max_wait_s
  std::optional<double> startup_minutes;  // absent: the venue's provisioning_delay_h
  double idle_minutes = 0.0;
  std::string pointer;                    // /workload/requests/venues/<name>
};

struct RequestWorkload {
  long hours = 24;                      // replayed from the horizon's start
  long paths = 1;                       // replays of the drawn arrivals (a trace replays once)
  std::optional<int> max_concurrency;   // absent: the replica's concurrency at the slo
  bool round_robin = false;             // else the least-active router
  std::optional<double> max_wait_s;     // absent: a request waits as long as it takes
  bool overflow_to_api = false;         // a request past max_wait_s goes to the API, else is dropped
  std::optional<RentedScalingSpec> rented_scaling;  // absent: renting plans hold the peak hour's replicas
  std::vector<RequestVenueSpec> venues;  // by name (sorted); a plan uses those of its own venues
  double warmup_s = 0.0;                // requests arriving before it are served, not counted
  serving::TokenLength input_tokens, output_tokens;
  std::string trace_file;               // "" when drawn
  std::vector<serving::TraceRequest> trace;
  double trace_period_s = 0.0;
};

// Reads workload.requests: {"hours": 24, "paths": 1, "max_concurrency": 64, "router":
// "least_active" | "round_robin", "max_wait_s": 60, "warmup_s": 0, "input_tokens": {"type":
// "fixed", "tokens": 2000} | {"type": "exponential", "mean": 400} | {"type": "lognormal",
// "median": 1500, "sigma": 0.8}, "output_tokens": ..., "trace": {"file": "x.csv", "format":
// "azure-llm"}, "overflow": "drop" | "api", "rented_scaling": {"max_replicas": 4, "min_replicas": 1,
// "wait_threshold_s": 2, "startup_minutes": 5, "idle_minutes": 10}, "venues": {"<plan venue>":
// {"max_replicas": 4, "max_wait_s": 300, "startup_minutes": 5, "idle_minutes": 10}}}. `tokens` gives the rate and the default lengths. InputErrors name the file and
// pointer: a max_concurrency outside the scenario's profile's measured concurrencies, hours past
// the horizon, a trace beside token lengths, no trace where the tokens come from a series, a
// trace file that is absent or malformed (its own file, line and column).
RequestWorkload parse_request_workload(JsonObjectReader& r, const TokenDemand& tokens, long horizon_hours,
                                       const std::string& scenario_dir);

// The slots of one replica for a serving demand: max_concurrency, or the concurrency at the slo.
int replay_max_concurrency(const RequestWorkload& requests, const TokenDemand& serving);

// InputError at `pointer` when a profile cannot be replayed at the replay's max_concurrency (a
// concurrency beyond its measured points, a point without a median TPOT), naming the profile.
void check_replay_rates(const RequestWorkload& requests, const TokenDemand& serving, const std::string& file,
                        const std::string& pointer);

// The scenario's one call: reads `workload`'s "requests" (when given) into spec.requests.
struct WorkloadSpec;
void read_request_workload(WorkloadSpec& spec, const Json& workload, const std::string& file, long horizon_hours,
                           const std::string& scenario_dir);

}  // namespace tco
