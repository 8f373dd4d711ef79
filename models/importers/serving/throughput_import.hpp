// `tcosim throughput import`: published serving benchmarks into serving_profile catalog records
// (models/serving/serving_profile.hpp), one record per measured configuration, one point per
// concurrency.
//   inferencex  the InferenceX API's row array (../shared/data/inference/inferencex/benchmarks.json):
//               one profile per (hardware, model, framework, precision, speculative method,
//               parallelism, isl, osl); GPUs per replica = decode_tp (aggregated) or
//               num_prefill_gpu + num_decode_gpu (disaggregated); latencies in s x 1000 = ms
//   vllm-bench  `vllm bench serve --save-result` files, one point each (the file does not say
//               the GPU: --gpu and --gpus-per-replica, or --prefill-gpus and --decode-gpus);
//               tokens/s per GPU = total_token_throughput / GPUs; *_ms fields as they are, and
//               the same names without _ms in seconds (InferenceX's long-context files)
//   mlperf      MLPerf Inference summary_results.json (../shared/data/inference/mlperf/): one
//               profile per system x benchmark, its Server and Interactive rows the points. The
//               rows give only the system's output tokens/s: per GPU = / accelerators; a replica =
//               one node (a# GPUs); input tokens/s = output x input / output length of
//               --sequence-lengths; TTFT and TPOT = the p99 limits the scenario met; concurrency an
//               ESTIMATE = replica output tokens/s / (1000 / TPOT limit). Dropped, counted: units
//               other than Tokens/s, Offline (and other) scenarios, CPU-only and heterogeneous
//               systems, benchmarks without known limits or --sequence-lengths.
// A row that cannot be used is dropped with a counted reason (no throughput, an impossible GPU
// count, a GPU not in the catalog with --drop-unknown-gpus, a concurrency already
// measured); points + dropped = rows read. A row of the wrong shape (not an object, a field of
// the wrong type) is an InputError naming the file and the JSON pointer.
// Example (mlperf): an 8-GPU H200 node's llama2-70b Server row of 32,000 tokens/s, lengths
// 294:294: 4,000 output + 4,000 input = 8,000 tokens/s per GPU; TPOT limit 200 ms = 5 tokens/s per
// user; concurrency 4,000 x 8 / 5 = 6,400 (ESTIMATE).
// Example: an H200 row of tput_per_gpu 1,234.5 at conc 64 with median_tpot 0.025 s becomes the
// point {concurrency 64, tokens_per_s_per_gpu 1234.5, median_tpot_ms 25,
// interactivity_tokens_per_s_per_user 40}.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/finding.hpp"
#include "models/importers/prices/import_drops.hpp"

namespace tco {

struct ThroughputImportOptions {
  std::string format;                         // "inferencex", "mlperf", "vllm-bench"
  std::vector<std::string> catalog_gpu_ids;   // the catalog's gpu ids, to match names against
  std::map<std::string, std::string> gpu_map; // a source's GPU name -> catalog gpu id (--gpu-map)
  bool drop_unknown_gpus = false;             // else an unknown GPU is an InputError
  // vllm-bench: what the result files do not say.
  std::string gpu;                            // a catalog gpu id
  int gpus_per_replica = 0;                   // or prefill + decode
  int prefill_gpus = 0;
  int decode_gpus = 0;
  std::string model;                          // default: model_id (a Hugging Face cache path made "org/name")
  std::string precision;
  std::string framework = "vllm";
  std::string source_note;                    // appended to every record's source
  // mlperf: a benchmark's mean input and output tokens per request (the summaries do not say),
  // by benchmark without its accuracy suffix ("llama2-70b" -> {294, 294}).
  std::map<std::string, std::pair<double, double>> sequence_lengths;
};

struct ThroughputImport {
  Json catalog;                // {"kind": "serving_profile", "records": [...]}, in id order
  std::vector<Finding> notes;  // one warning per drop reason
  long rows_read = 0;          // rows (inferencex, mlperf) or files (vllm-bench)
  long points = 0;             // points written, over all records
  ImportDrops dropped;
};

ThroughputImport import_throughput(const std::vector<std::string>& paths, const ThroughputImportOptions& options);

// The catalog gpu id a source's GPU name stands for: the --gpu-map entry, else the one id equal to
// the lower-cased name or starting with it and a '-' ("h100" -> "h100-sxm-80gb"); "" when none or
// several match.
std::string match_gpu_id(const std::string& name, const ThroughputImportOptions& options);

}  // namespace tco
