// `tcosim trace import` and `tcosim trace stats`: job traces for the discrete-event replay
// (SPEC §3). import turns a public cluster trace into the canonical job CSV and prints what
// it dropped and why (the counts add up to the rows read); stats summarises a canonical trace.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "core/io/sha256.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/importers/jobs/k8s_pods_import.hpp"
#include "models/importers/jobs/slurm_import.hpp"
#include "models/importers/jobs/trace_import.hpp"
#include "models/workload/trace_start.hpp"
#include "models/workload/trace_binary.hpp"
#include "models/workload/trace_cache.hpp"
#include "models/workload/trace_stats.hpp"
#include "models/workload/trace_table.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

namespace {

struct TraceOptions {
  std::string format;
  std::string input_path;
  std::string output_path;
  bool binary = false;
  bool json = false;
  SlurmImportOptions slurm;
  bool slurm_option_given = false;
  K8sPodsImportOptions k8s;
  bool k8s_option_given = false;
};

// The options of one format mean nothing to the others, so they are refused there rather than
// silently ignored.
ImportResult import_with(const TraceOptions& o) {
  if (o.slurm_option_given && o.format != "slurm")
    throw CLI::ValidationError("--timezone/--class/--columns/--preemptible-qos/--preemptible-partition",
                               fmt::format("apply only to --format slurm, found --format {}", o.format));
  if (o.k8s_option_given && o.format != "k8s-pods")
    throw CLI::ValidationError("--gpu-resource/--class-label/--preemptible-priority-class",
                               fmt::format("apply only to --format k8s-pods, found --format {}", o.format));
  if (o.format == "slurm") return import_slurm(o.input_path, o.slurm);
  if (o.format == "k8s-pods") return import_k8s_pods(o.input_path, o.k8s);
  return import_trace(o.format, o.input_path);
}

int run_import(const TraceOptions& o, CommandContext& ctx) {
  OutputSet outputs(ctx.out);
  outputs.add_file("--out", o.output_path);
  outputs.add_input("the input trace", o.input_path);
  const std::string binary_path = o.binary ? binary_trace_beside(o.output_path) : std::string();
  outputs.add_file("--binary", binary_path);
  const ImportResult result = import_with(o);
  const std::string staged_csv = outputs.staging_path(o.output_path);
  write_trace_file(staged_csv, result.jobs, result.start);
  // Read back from the CSV as written, so the columns are what any reader of the CSV gets.
  if (o.binary)
    write_trace_binary(outputs.staging_path(binary_path), read_trace_table(staged_csv), sha256_file_hex(staged_csv));
  outputs.commit();
  const ImportCounts& c = result.counts;
  ctx.out << fmt::format("read {} rows from {} ({} format)\n", c.rows, o.input_path, o.format);
  ctx.out << fmt::format("wrote {} jobs to {}\n", c.jobs, o.output_path);
  if (o.binary) ctx.out << fmt::format("wrote its binary columns to {} (mapped by every run)\n", binary_path);
  ctx.out << fmt::format("dropped {}:\n", c.dropped_total());
  for (const auto& [reason, count] : c.dropped) ctx.out << fmt::format("  {:<16} {}\n", reason, count);
  if (c.unfinished_gpu_hours > 0)
    ctx.out << fmt::format("the runs dropped as no_end_time had used {:.2f} GPU-hours by the export\n",
                           c.unfinished_gpu_hours);
  if (result.start)
    ctx.out << fmt::format("hour 0 is {} ({}, the earliest kept submission; written as the trace's # start: line)\n",
                           result.start->local_time, result.start->time_zone);
  if (c.fractional_gpu_rounded_up > 0)
    ctx.out << fmt::format("kept {} jobs with a fractional GPU share, rounded up to whole GPUs\n",
                           c.fractional_gpu_rounded_up);
  return 0;
}

int run_stats(const TraceOptions& o, CommandContext& ctx) {
  const TraceStats stats = trace_stats(o.input_path);
  ctx.out << (o.json ? to_json(stats).dump(2) + "\n" : stats_text(stats));
  return 0;
}

}  // namespace

void setup_trace(CLI::App& app, CommandContext& ctx) {
  CLI::App* trace = app.add_subcommand("trace", "Job traces for the discrete-event replay: import and summarise");
  trace->require_subcommand(1);

  auto import_opts = std::make_shared<TraceOptions>();
  CLI::App* import = trace->add_subcommand(
      "import",
      "Convert a cluster's history into the canonical job CSV: your own Slurm accounting (slurm: sacct "
      "--parsable2) or Kubernetes pods (k8s-pods: kubectl get pods -o json; see docs/own-history.md) or a public trace (Alibaba openb pods, Alibaba DLRM instances, "
      "Microsoft Philly job log, Alibaba PAI task table, SenseTime Helios cluster_log; see docs/des.md); prints "
      "the rows dropped for each reason");
  import->add_option("--format", import_opts->format, "Input format")
      ->required()
      ->check(CLI::IsMember(trace_import_formats()));
  import->add_option("input", import_opts->input_path, "Input trace file")->required();
  import->add_option("-o,--out", import_opts->output_path, "Canonical trace CSV to write (atomically)")->required();
  import->add_flag("--binary", import_opts->binary,
                   "Also write the trace's binary columns beside it (OUT.tcotrace), which every run maps instead of "
                   "parsing the CSV");
  // A setter that also records that an option of that format was given.
  const auto option_of = [](auto& field, bool& given) {
    return [&field, &given](const auto& value) {
      field = value;
      given = true;
    };
  };
  const auto slurm_option = [&](auto& field) { return option_of(field, import_opts->slurm_option_given); };
  const auto k8s_option = [&](auto& field) { return option_of(field, import_opts->k8s_option_given); };
  SlurmImportOptions& slurm = import_opts->slurm;
  import->add_option_function<std::string>("--timezone", slurm_option(slurm.time_zone),
                                           "slurm: IANA time zone of Submit/Start/End (default UTC)");
  import->add_option_function<std::string>("--class", slurm_option(slurm.class_column),
                                           "slurm: the job class is the partition (default), qos or account")
      ->check(CLI::IsMember({"partition", "qos", "account"}));
  import->add_option_function<std::vector<std::string>>("--columns", slurm_option(slurm.columns),
                                                        "slurm: the fields of --noheader output, in order "
                                                        "(comma-separated, as given to sacct --format)")
      ->delimiter(',');
  import->add_option_function<std::vector<std::string>>("--preemptible-qos", slurm_option(slurm.preemptible_qos),
                                                        "slurm: QOS names whose jobs are preemptible (comma-separated)")
      ->delimiter(',');
  import->add_option_function<std::vector<std::string>>(
            "--preemptible-partition", slurm_option(slurm.preemptible_partitions),
            "slurm: partitions whose jobs are preemptible (comma-separated)")
      ->delimiter(',');
  K8sPodsImportOptions& k8s = import_opts->k8s;
  import->add_option_function<std::vector<std::string>>(
            "--gpu-resource", k8s_option(k8s.gpu_resources),
            "k8s-pods: extended resources counted as GPUs beyond nvidia.com/gpu and amd.com/gpu (comma-separated)")
      ->delimiter(',');
  import->add_option_function<std::string>("--class-label", k8s_option(k8s.class_label),
                                           "k8s-pods: the pod label whose value is the job class (default: the "
                                           "namespace)");
  import->add_option_function<std::vector<std::string>>(
            "--preemptible-priority-class", k8s_option(k8s.preemptible_priority_classes),
            "k8s-pods: priority classes whose pods are preemptible (comma-separated)")
      ->delimiter(',');
  import->callback([import_opts, &ctx] { ctx.exit_code = run_import(*import_opts, ctx); });

  auto stats_opts = std::make_shared<TraceOptions>();
  CLI::App* stats = trace->add_subcommand(
      "stats",
      "Summarise a canonical job trace: jobs, GPU-hours, GPUs-per-job histogram, duration percentiles, peak "
      "unconstrained concurrent GPUs");
  stats->add_option("trace", stats_opts->input_path, "Canonical trace CSV")->required();
  stats->add_flag("--json", stats_opts->json, "Print JSON instead of text");
  stats->callback([stats_opts, &ctx] { ctx.exit_code = run_stats(*stats_opts, ctx); });
}

}  // namespace tco::cli
