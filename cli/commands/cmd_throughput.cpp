// tcosim throughput import --format inferencex|mlperf|vllm-bench FILE... -o profiles.json [--catalog DIR]
//   [--gpu-map NAME=ID]... [--drop-unknown-gpus] [--source TEXT]
//   vllm-bench: --gpu ID (--gpus-per-replica N | --prefill-gpus N --decode-gpus N) --precision P
//               [--model NAME] [--framework NAME]
//   mlperf: --sequence-lengths BENCHMARK=INPUT:OUTPUT...
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/commands/serving_commands.hpp"
#include "core/error.hpp"
#include "core/io/output_set.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/importers/serving/throughput_import.hpp"

namespace tco::cli {

struct ThroughputImportCommand {
  ThroughputImportOptions options;
  std::vector<std::string> files;
  std::vector<std::string> gpu_map;  // NAME=ID
  std::vector<std::string> sequence_lengths;  // BENCHMARK=INPUT:OUTPUT
  std::string catalog = "pricing-data";
  std::string out;
  bool quiet = false;
};

static int run_throughput_import(ThroughputImportCommand& c, CommandContext& ctx) {
  OutputSet outputs(ctx.out);
  outputs.add_file("--out", c.out, true);
  for (const auto& file : c.files) outputs.add_input("an input file", file);
  for (const std::string& entry : c.gpu_map) {
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size())
      throw InputError("", "--gpu-map", "expected NAME=ID (a source's GPU name = a catalog gpu id), found \"" + entry + "\"");
    c.options.gpu_map[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const std::string& entry : c.sequence_lengths) {
    const std::size_t eq = entry.find('='), colon = entry.find(':', eq == std::string::npos ? 0 : eq);
    double input = 0.0, output = 0.0;
    bool ok = eq != std::string::npos && eq > 0 && colon != std::string::npos;
    try {
      std::size_t used_in = 0, used_out = 0;
      if (ok) input = std::stod(entry.substr(eq + 1, colon - eq - 1), &used_in);
      if (ok) output = std::stod(entry.substr(colon + 1), &used_out);
      ok = ok && used_in == colon - eq - 1 && used_out == entry.size() - colon - 1;
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok || !(input > 0.0 && output > 0.0 && input <= 1e7 && output <= 1e7))
      throw InputError("", "--sequence-lengths",
                       "expected BENCHMARK=INPUT:OUTPUT (mean tokens per request, positive, e.g. llama2-70b=294:294), "
                       "found \"" + entry + "\"");
    c.options.sequence_lengths[entry.substr(0, eq)] = {input, output};
  }
  c.options.catalog_gpu_ids = Catalog::load(c.catalog).ids("gpu");
  for (const auto& [name, id] : c.options.gpu_map)
    if (std::find(c.options.catalog_gpu_ids.begin(), c.options.catalog_gpu_ids.end(), id) ==
        c.options.catalog_gpu_ids.end())
      throw InputError("", "--gpu-map", fmt::format("{}={}: \"{}\" is not a gpu id of {}", name, id, id, c.catalog));
  const ThroughputImport imported = import_throughput(c.files, c.options);
  if (imported.catalog.at("records").empty())
    throw InputError(c.files.size() == 1 ? c.files.front() : "", "",
                     fmt::format("no serving profile to write: all {} rows were dropped ({})", imported.rows_read,
                                 imported.dropped.total() == 0 ? "none read" : imported.dropped.summary()));
  // The file is written only once everything parsed: a bad row leaves no half file behind.
  outputs.stage(c.out, imported.catalog.dump(2) + "\n");
  outputs.commit();
  for (const Finding& note : imported.notes) ctx.err << format_finding(note) << "\n";
  if (!c.quiet && !OutputSet::is_stdout(c.out))
    ctx.out << fmt::format("wrote {} serving_profile records to {} ({} rows read: {} points, {} dropped{}{})\n",
                           imported.catalog.at("records").size(), c.out, imported.rows_read, imported.points,
                           imported.dropped.total(), imported.dropped.total() ? ": " : "",
                           imported.dropped.summary());
  return kExitOk;
}

void setup_throughput(CLI::App& app, CommandContext& ctx) {
  CLI::App* throughput = app.add_subcommand(
      "throughput", "Work with serving throughput: import published benchmarks as serving profiles.");
  throughput->require_subcommand(1);
  auto c = std::make_shared<ThroughputImportCommand>();
  CLI::App* import = throughput->add_subcommand(
      "import",
      "Turn serving benchmark results into one catalog file of serving_profile records (docs/tokens.md): one "
      "record per measured configuration (GPU, model, precision, framework, parallelism, input and output "
      "lengths), one point per concurrency with tokens/s per GPU, TTFT and TPOT (ms) and interactivity = "
      "1000 / TPOT. Rows that cannot be used are dropped and counted by reason (points + dropped = rows read). "
      "The output validates with `tcosim validate`.");
  import->add_option("--format", c->options.format,
                     "inferencex: the InferenceX API's array of benchmark rows (benchmarks.json). "
                     "mlperf: MLPerf Inference summary_results.json (Server and Interactive rows; the "
                     "concurrency an ESTIMATE; give --sequence-lengths). "
                     "vllm-bench: `vllm bench serve --save-result` files, one point each (say the GPU and its "
                     "count: the files do not)")
      ->required()
      ->check(CLI::IsMember({"inferencex", "mlperf", "vllm-bench"}));
  import->add_option("files", c->files, "The files to import (one or more; read together)")->required();
  import->add_option("--out,-o", c->out, "Write the catalog file here (JSON; \"-\": the standard output)")->required();
  import->add_option("--catalog", c->catalog,
                     "The pricing catalog whose gpu ids the GPUs are matched to (default: pricing-data)");
  import->add_option("--gpu-map", c->gpu_map,
                     "NAME=ID: the source's GPU NAME is the catalog gpu ID (repeatable); without it a name "
                     "matches the one id equal to it or starting with NAME- (h100 -> h100-sxm-80gb)");
  import->add_flag("--drop-unknown-gpus", c->options.drop_unknown_gpus,
                   "Drop (and count) rows of GPUs the catalog lacks instead of stopping at the first");
  import->add_option("--gpu", c->options.gpu, "vllm-bench: the catalog gpu id the results were measured on");
  import->add_option("--gpus-per-replica", c->options.gpus_per_replica,
                     "vllm-bench: GPUs of one serving replica (tensor x pipeline x expert parallel)")
      ->check(CLI::Range(1, 1000000));
  import->add_option("--prefill-gpus", c->options.prefill_gpus, "vllm-bench, disaggregated: prefill GPUs")
      ->check(CLI::Range(1, 1000000));
  import->add_option("--decode-gpus", c->options.decode_gpus, "vllm-bench, disaggregated: decode GPUs")
      ->check(CLI::Range(1, 1000000));
  import->add_option("--precision", c->options.precision, "vllm-bench: the weights' precision (fp8, bf16, ...)");
  import->add_option("--model", c->options.model,
                     "vllm-bench: the model's name (default: model_id, a Hugging Face cache path read as org/name)");
  import->add_option("--framework", c->options.framework, "vllm-bench: the serving framework (default: vllm)");
  import->add_option("--sequence-lengths", c->sequence_lengths,
                     "mlperf: BENCHMARK=INPUT:OUTPUT, a benchmark's mean input and output tokens per request "
                     "(repeatable; benchmark without its accuracy suffix, e.g. llama2-70b=294:294): the "
                     "summaries give output tokens/s only; rows of benchmarks without it are dropped")
      ->allow_extra_args(false);  // one value an occurrence: the files may follow it
  import->add_option("--source", c->options.source_note, "Text appended to each record's source (a URL, a commit)");
  import->add_flag("--quiet,-q", c->quiet, "Print no summary line on success (drop notes are still printed)");
  import->callback([c, &ctx] { ctx.exit_code = run_throughput_import(*c, ctx); });
}

}  // namespace tco::cli
