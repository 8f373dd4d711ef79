// `tcosim demand import` and `tcosim demand stats`: measured GPU demand series (SPEC §3, §9).
// import turns a per-minute series (Helios VC sequence, Philly node sequence) or a cluster's own
// monitoring (Prometheus query_range, OpenCost allocations; docs/own-history.md) into the
// canonical hourly CSV `time_h,gpus` that a scenario's series profile reads with format "csv"
// (also a FOCUS billing export's GPU rows: models/importers/demand/focus_demand_import.hpp);
// stats summarises any series as the fluid model will see it (hourly values).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "core/time/time_zone.hpp"
#include "models/catalog/catalog.hpp"
#include "models/importers/demand/demand_json_import.hpp"
#include "models/importers/demand/focus_demand_import.hpp"
#include "models/importers/serving/azure_llm_trace.hpp"
#include "models/workload/workload.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

namespace {

constexpr double kDefaultGpusPerNode = 8.0;

struct DemandOptions {
  std::string format;
  std::string input_path;
  std::string output_path;
  double gpus_per_node = kDefaultGpusPerNode;
  bool gpus_per_node_given = false;
  std::string fill = "error";
  bool fill_given = false;
  double scale = 1.0;
  bool scale_given = false;
  std::vector<std::string> gpus_per_instance;  // focus: TYPE=N
  std::string catalog;                         // focus: instance types' GPUs from its cloud offers
  std::string billing_account;                 // focus: only this BillingAccountId's rows
};

bool is_monitoring_format(const std::string& format) { return format == "prometheus" || format == "opencost"; }

// A series description for read_hourly_series; `--gpus-per-node` means something only for
// node counts, so it is refused elsewhere rather than silently ignored.
SeriesProfile series_of(const DemandOptions& o) {
  if (o.gpus_per_node_given && o.format != "philly_nodes")
    throw CLI::ValidationError(
        "--gpus-per-node", fmt::format("applies only to --format philly_nodes, found --format {}", o.format));
  SeriesProfile s;
  s.file = o.input_path;
  s.format = o.format;
  s.gpus_per_node = o.gpus_per_node;
  if (s.format == "csv") s.start = read_trace_start(s.file);
  return s;
}

// Data rows in a series file: non-blank lines after the header (the reader has already
// rejected anything malformed, so this only counts).
long count_data_rows(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  long rows = -1;  // the header
  while (std::getline(in, line))
    if (!line.empty() && line != "\r") ++rows;
  return std::max(rows, 0L);
}

// numpy's default quantile: linear interpolation between order statistics (SPEC §12.11).
double quantile_linear(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// The canonical hourly CSV, after its "# start:" line when hour 0's absolute time is known. "{}"
// is the shortest representation that reads back to the same double.
std::string hourly_csv(const std::vector<double>& gpus_by_hour, const std::optional<TraceStart>& start) {
  std::string text = start ? trace_start_line(*start) + "\n" : std::string();
  text += "time_h,gpus\n";
  for (std::size_t h = 0; h < gpus_by_hour.size(); ++h) text += fmt::format("{},{}\n", h, gpus_by_hour[h]);
  return text;
}

// prometheus / opencost: samples in UTC clock hours; hour 0 is printed, gaps filled only on request.
int run_monitoring_import(const DemandOptions& options, CommandContext& ctx) {
  if (options.scale_given && options.format != "prometheus")
    throw CLI::ValidationError("--scale", fmt::format("applies only to --format prometheus, found --format {}",
                                                      options.format));
  OutputSet outputs(ctx.out);
  outputs.add_file("--output", options.output_path);
  outputs.add_input("the input series", options.input_path);
  DemandImportOptions o;
  o.fill = parse_gap_fill(options.fill, "--fill");
  o.scale = options.scale;
  const HourlyDemand demand = options.format == "prometheus" ? import_prometheus(options.input_path, o)
                                                             : import_opencost(options.input_path, o);
  const TraceStart start{demand.start_utc_s, format_time_with_offset(demand.start_utc_s, 0), "UTC"};
  outputs.stage(options.output_path, hourly_csv(demand.gpus_by_hour, start));
  outputs.commit();
  const std::vector<double>& hours = demand.gpus_by_hour;
  fmt::print(ctx.out, "read {} samples from {} (format {})\n", demand.samples, options.input_path, options.format);
  fmt::print(ctx.out, "wrote {} hours to {}\n", hours.size(), options.output_path);
  if (demand.filled_hours > 0)
    fmt::print(ctx.out, "filled {} hours without a sample (--fill {})\n", demand.filled_hours, options.fill);
  fmt::print(ctx.out, "hour 0 is {} (UTC; written as the series' # start: line)\n", start.local_time);
  fmt::print(ctx.out, "mean {:.3f} GPUs, peak hour {:.3f} GPUs\n", mean_of(hours),
             *std::max_element(hours.begin(), hours.end()));
  return kExitOk;
}

// azure-llm: a request trace into the hourly token demand of a serving workload (docs/tokens.md).
int run_azure_llm_import(const DemandOptions& options, CommandContext& ctx) {
  if (options.gpus_per_node_given || options.fill_given || options.scale_given)
    throw CLI::ValidationError("--gpus-per-node/--fill/--scale", "do not apply to --format azure-llm");
  OutputSet outputs(ctx.out);
  outputs.add_file("--out", options.output_path);
  outputs.add_input("the input trace", options.input_path);
  const HourlyTokens tokens = import_azure_llm_trace(options.input_path);
  outputs.stage(options.output_path, hourly_tokens_csv(tokens));
  outputs.commit();
  const double requests = std::accumulate(tokens.requests.begin(), tokens.requests.end(), 0.0);
  fmt::print(ctx.out, "read {} requests from {} (format azure-llm), the first at {}\n", tokens.rows,
             options.input_path, tokens.first_time);
  fmt::print(ctx.out, "wrote {} hours to {} (the last covers {:.0f} s of the trace)\n", tokens.requests.size(),
             options.output_path, tokens.last_hour_s);
  fmt::print(ctx.out, "mean {:.1f} input and {:.1f} output tokens per request\n",
             std::accumulate(tokens.input_tokens.begin(), tokens.input_tokens.end(), 0.0) / requests,
             std::accumulate(tokens.output_tokens.begin(), tokens.output_tokens.end(), 0.0) / requests);
  return kExitOk;
}

// focus: the instance types' GPUs, the catalog's cloud offers first, then --gpus-per-instance.
FocusDemandOptions focus_options(const DemandOptions& o) {
  FocusDemandOptions out;
  out.billing_account = o.billing_account;
  const Catalog catalog = o.catalog.empty() ? Catalog{} : Catalog::load(o.catalog);
  for (const CatalogRecord& r : catalog.records())
      if (r.kind == "cloud_offer" && r.fields.contains("instance_type") && r.fields.contains("gpus_per_instance"))
        out.gpus_per_instance[r.fields.at("instance_type").get<std::string>()] =
            r.fields.at("gpus_per_instance").get<double>();
  for (const std::string& pair : o.gpus_per_instance) {
    const std::size_t eq = pair.find('=');
    double gpus = 0.0;
    if (eq == 0 || eq == std::string::npos || !parse_finite_double(std::string_view(pair).substr(eq + 1), gpus) ||
        gpus <= 0.0)
      throw CLI::ValidationError("--gpus-per-instance", "expected TYPE=GPUS with GPUS > 0, found \"" + pair + "\"");
    out.gpus_per_instance[pair.substr(0, eq)] = gpus;
  }
  return out;
}

// focus: a FOCUS billing export's GPU rows.
int run_focus_import(const DemandOptions& options, CommandContext& ctx) {
  if (options.gpus_per_node_given || options.fill_given || options.scale_given)
    throw CLI::ValidationError("--gpus-per-node/--fill/--scale", "do not apply to --format focus");
  OutputSet outputs(ctx.out);
  outputs.add_file("--out", options.output_path);
  outputs.add_input("the FOCUS export", options.input_path);
  const FocusDemand demand = import_focus_demand(options.input_path, focus_options(options));
  const TraceStart start{demand.start_utc_s, format_time_with_offset(demand.start_utc_s, 0), "UTC"};
  outputs.stage(options.output_path, hourly_csv(demand.gpus_by_hour, start));
  outputs.commit();
  const std::vector<double>& hours = demand.gpus_by_hour;
  fmt::print(ctx.out, "read {} rows from {} (format focus), {} of them GPU rows\n", demand.rows, options.input_path,
             demand.gpu_rows);
  fmt::print(ctx.out, "wrote {} hours to {}\n", hours.size(), options.output_path);
  fmt::print(ctx.out, "hour 0 is {} (UTC; written as the series' # start: line)\n", start.local_time);
  fmt::print(ctx.out, "{:.3f} GPU-hours, mean {:.3f} GPUs, peak hour {:.3f} GPUs\n", demand.gpu_hours,
             mean_of(hours), *std::max_element(hours.begin(), hours.end()));
  return kExitOk;
}

int run_demand_import(const DemandOptions& options, CommandContext& ctx) {
  if (options.format != "focus" &&
      (!options.gpus_per_instance.empty() || !options.catalog.empty() || !options.billing_account.empty()))
    throw CLI::ValidationError("--gpus-per-instance/--catalog/--billing-account",
                               fmt::format("apply only to --format focus, found --format {}", options.format));
  if (options.format == "focus") return run_focus_import(options, ctx);
  if (options.format == "azure-llm") return run_azure_llm_import(options, ctx);
  if (is_monitoring_format(options.format)) {
    if (options.gpus_per_node_given)
      throw CLI::ValidationError("--gpus-per-node", "applies only to --format philly_nodes");
    return run_monitoring_import(options, ctx);
  }
  if (options.fill_given || options.scale_given)
    throw CLI::ValidationError("--fill/--scale", fmt::format("apply only to --format prometheus or opencost, found "
                                                             "--format {}",
                                                             options.format));
  OutputSet outputs(ctx.out);
  outputs.add_file("--out", options.output_path);
  outputs.add_input("the input series", options.input_path);
  const SeriesProfile series = series_of(options);
  const std::vector<double> gpus_by_hour = read_hourly_series(series);
  outputs.stage(options.output_path, hourly_csv(gpus_by_hour, series.start));
  outputs.commit();
  const double peak = *std::max_element(gpus_by_hour.begin(), gpus_by_hour.end());
  fmt::print(ctx.out, "read {} rows from {} (format {})\n", count_data_rows(options.input_path) - (series.start ? 1 : 0),
             options.input_path, options.format);
  fmt::print(ctx.out, "wrote {} hours to {}\n", gpus_by_hour.size(), options.output_path);
  fmt::print(ctx.out, "mean {:.3f} GPUs, peak hour {:.3f} GPUs\n", mean_of(gpus_by_hour), peak);
  return kExitOk;
}

int run_demand_stats(const DemandOptions& options, CommandContext& ctx) {
  const SeriesProfile series = series_of(options);
  const std::vector<double> gpus_by_hour = read_hourly_series(series);
  std::vector<double> sorted = gpus_by_hour;
  std::sort(sorted.begin(), sorted.end());
  const double gpu_hours = std::accumulate(gpus_by_hour.begin(), gpus_by_hour.end(), 0.0);
  fmt::print(ctx.out, "series     {} (format {})\n", options.input_path, options.format);
  fmt::print(ctx.out, "hours      {}\n", gpus_by_hour.size());
  if (series.start)
    fmt::print(ctx.out, "start      {} {}\n", series.start->local_time, series.start->time_zone);
  fmt::print(ctx.out, "mean_gpus  {:.3f}\n", mean_of(gpus_by_hour));
  fmt::print(ctx.out, "p50_gpus   {:.3f}\n", quantile_linear(sorted, 0.50));
  fmt::print(ctx.out, "p95_gpus   {:.3f}\n", quantile_linear(sorted, 0.95));
  fmt::print(ctx.out, "peak_gpus  {:.3f}\n", sorted.back());
  fmt::print(ctx.out, "gpu_hours  {:.3f}\n", gpu_hours);
  return kExitOk;
}

void add_gpus_per_node_option(CLI::App& command, DemandOptions& options) {
  command
      .add_option_function<double>(
          "--gpus-per-node",
          [&options](double value) {
            options.gpus_per_node = value;
            options.gpus_per_node_given = true;
          },
          fmt::format("GPUs per node for --format philly_nodes (demand = active nodes x this; "
                      "default {})",
                      kDefaultGpusPerNode))
      ->check(CLI::PositiveNumber);
}

}  // namespace

void setup_demand(CLI::App& app, CommandContext& ctx) {
  CLI::App* demand = app.add_subcommand(
      "demand", "Measured GPU demand series: convert them to the hourly CSV, print statistics");
  demand->require_subcommand(1);
  // Shared by the callbacks, which CLI11 keeps for as long as `app` lives.
  auto options = std::make_shared<DemandOptions>();

  CLI::App* import = demand->add_subcommand(
      "import",
      "Convert a measured demand series into the canonical hourly CSV (time_h,gpus): each hour "
      "is the mean of its samples, counted in clock hours from the first sample's hour. helios_vc, "
      "philly_nodes: an hour with no rows carries the last row's value; prometheus, opencost "
      "(docs/own-history.md): an hour with no sample is an error unless --fill says otherwise");
  import->add_option("--format", options->format,
                     "Input format: helios_vc (HeliosArtifact VC sequence; demand = "
                     "running_gpu_num + pending_gpu_num), philly_nodes (philly_node_sequence; "
                     "demand = active x --gpus-per-node), prometheus (/api/v1/query_range JSON, series "
                     "summed per timestamp) or opencost (/allocation JSON with step=1h; demand = "
                     "gpuHours / window hours); azure-llm (a request trace TIMESTAMP,ContextTokens,"
                     "GeneratedTokens of the Azure LLM inference dataset, into the hourly token demand "
                     "time_h,requests,input_tokens,output_tokens counted from the first request: docs/tokens.md); "
                     "focus (a FOCUS billing export's GPU rows: Usage rows in GPU-Hours, or in Hours of an instance "
                     "type of --gpus-per-instance / --catalog, spread over their charge periods: docs/own-history.md)")
      ->required()
      ->check(CLI::IsMember({"helios_vc", "philly_nodes", "prometheus", "opencost", "azure-llm", "focus"}));
  import->add_option("input", options->input_path, "The per-minute series file (CSV with a header)")
      ->required();
  import->add_option("--out,-o,--output", options->output_path,
                     "The hourly CSV to write (replaced atomically; --output is the older spelling)")
      ->required();
  add_gpus_per_node_option(*import, *options);
  import
      ->add_option_function<std::string>(
          "--fill",
          [options](const std::string& value) {
            options->fill = value;
            options->fill_given = true;
          },
          "prometheus, opencost: an hour without a sample is an error (default), zero or holds the hour "
          "before")
      ->check(CLI::IsMember({"error", "zero", "hold"}));
  import
      ->add_option_function<double>(
          "--scale",
          [options](double value) {
            options->scale = value;
            options->scale_given = true;
          },
          "prometheus: GPUs per unit of the query's value (0.01 turns a summed utilization percentage "
          "into GPUs; default 1)")
      ->check(CLI::PositiveNumber);
  import->add_option("--gpus-per-instance", options->gpus_per_instance,
                     "focus: TYPE=GPUS, an instance type (matched inside SkuId, SkuMeter, ResourceType or "
                     "ChargeDescription) whose rows in Hours are GPU rows; repeatable, over --catalog's");
  import->add_option("--catalog", options->catalog,
                     "focus: a pricing catalog folder whose cloud offers give instance types' GPUs (instance_type, "
                     "gpus_per_instance)");
  import->add_option("--billing-account", options->billing_account,
                     "focus: read only the rows of this BillingAccountId (a tcosim export has one per plan: "
                     "SCENARIO/PLAN)");
  import->callback([options, &ctx] { ctx.exit_code = run_demand_import(*options, ctx); });

  CLI::App* stats = demand->add_subcommand(
      "stats",
      "Print hours, mean, P50 and P95 (linear interpolation), peak GPUs and GPU-hours of a demand "
      "series after averaging it into hours");
  stats->add_option("file", options->input_path, "The series file")->required();
  stats->add_option("--format", options->format,
                    "Series format: csv (time_h,gpus; default), helios_vc or philly_nodes")
      ->default_val("csv")
      ->check(CLI::IsMember({"csv", "helios_vc", "philly_nodes"}));
  add_gpus_per_node_option(*stats, *options);
  stats->callback([options, &ctx] { ctx.exit_code = run_demand_stats(*options, ctx); });
}

}  // namespace tco::cli
