// A serving profile (catalog kind "serving_profile", issue 46): what one replica of a model
// serves on a GPU model, measured at several client concurrencies (simultaneous requests).
//   GPUs per replica        = tensor x pipeline x expert parallelism (prefill + decode GPUs when
//                             disaggregated)
//   tokens/s per GPU        = replica tokens/s / GPUs per replica (total = input + output, except
//                             for disaggregated rows where input is per prefill GPU and output per
//                             decode GPU, as InferenceX writes them)
//   interactivity           = 1000 / TPOT ms   (tokens/s per user)
// Example: 8 H200 at concurrency 64 serving 16,000 tokens/s: 2,000 tokens/s per GPU; a median
// TPOT of 25 ms is 1000 / 25 = 40 tokens/s per user.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"
#include "models/finding.hpp"

namespace tco {

struct ServingPoint {
  double concurrency = 0.0;                  // simultaneous requests of the client
  double tokens_per_s_per_gpu = 0.0;         // input + output tokens, per GPU of the replica
  std::optional<double> input_tokens_per_s_per_gpu;
  std::optional<double> output_tokens_per_s_per_gpu;
  std::optional<double> median_ttft_ms, p90_ttft_ms, p99_ttft_ms;
  std::optional<double> median_tpot_ms, p90_tpot_ms, p99_tpot_ms;
  // 1000 / median TPOT (tokens/s per user); absent without a TPOT.
  std::optional<double> interactivity_tokens_per_s_per_user;
};

struct ServingProfile {
  std::string gpu_model;  // id of a gpu record
  std::string model;      // "DeepSeek-R1-0528"
  std::string precision;  // "fp8"
  std::string framework;  // "sglang"
  int gpus_per_replica = 1;
  std::optional<int> prefill_gpus;  // both present when disaggregated, summing to gpus_per_replica
  std::optional<int> decode_gpus;
  double input_tokens_per_request = 0.0;   // the benchmark's input sequence length
  double output_tokens_per_request = 0.0;  // and its output sequence length
  std::vector<ServingPoint> points;        // in the order written (validate checks it rises)
  Provenance provenance;
};

// 1000 / TPOT ms: the tokens a user sees per second.
inline double interactivity_of_tpot_ms(double tpot_ms) { return 1000.0 / tpot_ms; }

// The strict parser of a merged serving_profile record: every number positive and finite,
// prefill_gpus + decode_gpus = gpus_per_replica when given, at least one point, an
// interactivity given without a median TPOT refused unless it is 1000 / median TPOT (1e-6).
ServingProfile parse_serving_profile(JsonObjectReader& r, const std::string& id);

// The record object of a profile (without "id"), as the importer writes it.
Json serving_profile_json(const ServingProfile& profile);

// What `tcosim validate` finds in a parsed profile beyond its parser (codes):
//   error   duplicate-concurrency          two points at the same concurrency
//   warning interactivity-not-falling      a point's interactivity above that of a point at a
//                                          lower concurrency (names both points)
// `file` and `pointer` are the record's.
std::vector<Finding> serving_profile_findings(const ServingProfile& profile, const std::string& file,
                                              const std::string& pointer);

}  // namespace tco
