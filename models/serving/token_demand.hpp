// Token demand in a scenario's workload (issue 46 item 2): a request rate, tokens per request and
// a latency target, served with a serving profile, reduced to the hourly GPU series the engine
// already runs on (docs/tokens.md §5):
//   tokens(h)   = requests/s(h) x 3,600 x (input + output tokens per request)
//   GPUs(h)     = ceil(tokens(h) / (3,600 x replica tokens/s at the slo)) x GPUs per replica
//                 (replica tokens/s x throughput_factor, default 1)
//                 (models/serving/replica_capacity.hpp), in reference-GPU units: x the profile
//                 GPU's perf_relative (1 for H100 and H200), so that a plan on that GPU gets the
//                 replica GPUs back
//   requests/s(h) = the profiles' shapes (steady, campaigns) with their growth, as the workload's
//                 GPU profiles (models/workload/workload.hpp)
// Example: 100 requests/s of 2,000 + 400 tokens = 864M tokens an hour; a replica of 8 GPUs at
// 1,466.7 tokens/s serves 5.28M an hour: ceil(163.6) = 164 replicas = 1,312 GPUs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"
#include "models/serving/replica_capacity.hpp"
#include "models/workload/workload.hpp"

namespace tco {

class Catalog;

// An hourly token demand read from a file (`tcosim demand import --format azure-llm` writes it:
// time_h,requests,input_tokens,output_tokens), tiled over the horizon when it is shorter
// (`repeat`, default true), scaled and grown:
//   tokens(h) = (input(r) + output(r)) x scale x (1 + growth)^(h / 8760),   r = h mod rows
struct TokenSeries {
  SeriesProfile input;   // the file's input_tokens column (format "token_input")
  SeriesProfile output;  // its output_tokens column (format "token_output")
  double growth_per_year = 0.0;
};

struct TokenDemand {
  WorkloadSpec requests_per_second;  // its profiles' "gpus" hold requests a second
  std::optional<TokenSeries> series; // instead of requests_per_second and tokens per request
  double input_tokens_per_request = 0.0;
  double output_tokens_per_request = 0.0;
  ServingSlo slo;
  // The cost an output token carries against an input one in the per-token figures
  // (models/serving/token_figures.hpp): 1, by count, unless the scenario says otherwise.
  double output_token_cost_weight = 1.0;
  // A multiplier on the profile's measured tokens/s per GPU at the slo (`throughput_factor`,
  // default 1): how far the benchmark's throughput is expected to carry over (an engine upgrade, a
  // request mix unlike the benchmark's), so that sensitivity and uncertain can move it.
  double throughput_factor = 1.0;
  std::string serving_profile_id;    // "" for an inline profile
  ServingProfile profile;
  double gpu_perf_relative = 1.0;    // of the profile's gpu record
  ReplicaCapacity capacity;          // one replica at the slo
};

// Reads workload.tokens: {"requests_per_second": {"profiles": [{"type": "steady",
// "requests_per_second": 1200, ...}], "growth_per_year": 0.2}, "input_tokens_per_request": 2000,
// "output_tokens_per_request": 400 (or "series": {"file": "tokens.csv", "repeat": true, "scale": 1,
// "growth_per_year": 0.2} in their place), "slo": {"min_interactivity_tokens_per_s_per_user": 50,
// "max_p90_ttft_ms": 2000}, "serving_profile": ID or a record}. The capacity is read here: a
// target the profile cannot meet is an InputError at /slo naming the profile and its range.
TokenDemand parse_token_demand(JsonObjectReader& r, const Catalog& catalog, const std::string& scenario_dir);

// Resolves a serving_profile reference (at `profile_pointer`) into d's profile, its id, its GPU's
// perf_relative and the replica at d.slo; a target the profile cannot meet is an InputError at
// `slo_pointer` naming the profile and its range.
void resolve_serving_profile(TokenDemand& d, const Json& ref, const Catalog& catalog, const std::string& file,
                             const std::string& profile_pointer, const std::string& slo_pointer);

// Tokens and GPUs (reference units) for each of `hours` hours.
struct TokenHours {
  std::vector<double> tokens;        // input + output
  std::vector<double> input_tokens;
  std::vector<double> gpus;
};
TokenHours token_hours(const TokenDemand& demand, long hours, const Calendar& calendar);

// token_hours(...).gpus: what the workload adds to its GPU demand.
std::vector<double> token_demand_gpus_by_hour(const TokenDemand& demand, long hours, const Calendar& calendar);

// The scenario's one call: reads `workload`'s "tokens" (when given) into spec.tokens.
void read_token_demand(WorkloadSpec& spec, const Json& workload, const std::string& file, const Catalog& catalog,
                       const std::string& scenario_dir);

Json to_json(const TokenDemand& demand);

}  // namespace tco
