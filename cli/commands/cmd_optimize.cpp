// tcosim optimize SCENARIO --nodes FROM:TO[:STEP] | --replicas FROM:TO[:STEP] [--plan NAME] [--risk mean|p90|cvar95]
//   [--reserved FROM:TO[:STEP]] [--paths N] [--seed S] [--threads T] [--backend auto|cpu|cuda]
//   [--out REPORT.json] [--catalog DIR] [--quiet]
// tcosim optimize SCENARIO --spares FROM:TO[:STEP] [--plan NAME] [--risk ...] [--paths N] ...:
// sizes the plan's hot spares in the discrete-event replay instead (engine/decisions/spares_sizing.hpp).
// tcosim optimize SCENARIO --latency-replicas FROM:TO[:STEP] [--slo-share S] [--slo-probability P]
//   [--wait-thresholds-s T1,T2,...] [--plan NAME] ...: sizes a serving plan's owned replicas in the
// request replay at a latency target instead (engine/decisions/latency_sizing.hpp).
// Sizes the base load of a hybrid plan: the Monte Carlo fluid model of the sweep engine over a
// grid of node counts (and reserved instances) on common random numbers (engine/decisions/sizing.hpp), and
// writes `run`'s report of the scenario with a "sizing" section (docs/decisions.md). Under
// `mpirun -n K`, the node counts and the report's Monte Carlo paths split over the K ranks
// (docs/cluster.md).
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "cli/command_outputs.hpp"
#include "cli/options.hpp"
#include "cli/report_pipeline.hpp"
#include "cli/root_first.hpp"
#include "cli/shard/sharded_command.hpp"
#include "cli/terminal/terminal_answer.hpp"
#include "core/parallel_for_index.hpp"
#include "core/progress/progress_bar.hpp"
#include "core/error.hpp"
#include "core/parallel/process_group.hpp"
#include "engine/decisions/latency_sizing.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/decisions/spares_sizing.hpp"
#include "reports/json/decisions_json.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/markdown/sizing_markdown.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

namespace {

struct OptimizeOptions {
  std::string scenario;
  std::string nodes = "0:64";
  std::string replicas;
  std::string reserved;
  std::string spares;
  std::string latency_replicas;
  double slo_share = 0.99;
  double slo_probability = 1.0;
  std::vector<double> wait_thresholds_s;
  std::string commitment;
  std::string refresh_months;
  bool nodes_given = false;
  std::string plan;
  std::string risk = "mean";
  std::string search = "auto";
  std::string backend = "auto";
  std::string out;
  std::string catalog;
  std::optional<long> paths;
  std::optional<std::uint64_t> seed;
  int threads = 0;
  bool quiet = false;
  TodayOptions today;
  ShardOptions shard;
};

// "k months after the arrival" or "never" (no refresh inside the horizon).
std::string refresh_months_words(const Json& k) {
  return k.is_null() ? std::string("never") : fmt::format("+{} mo", k.get<long>());
}

// The replay's service per evaluated point, its limits and its search; for a plan that shifts
// time, the misses shifting adds at each point (against its twin without shifting).
std::string replay_console(const Json& sizing) {
  const Json& limits = sizing.at("service_limits");
  const bool shifts = !limits.at("max_deadline_misses_added_by_shifting").is_null();
  std::string out = fmt::format("  the jobs' service in the discrete-event replay (means per path; limits: deadline "
                                "misses <= the baseline's {1:.2f}{2}, and for a plan that never bursts a mean first "
                                "wait <= {0} h):\n",
                                limits.at("max_wait_h").get<double>(), limits.at("baseline_deadline_misses").get<double>(),
                                shifts ? ", none added by time shifting" : "");
  out += fmt::format("  {:>6} {:>16} {:>14} {:>16} {:>10}{} {:>6} {:>16} {:>14}\n", "nodes", "waited GPU-h", "first wait h",
                     "unserved GPU-h", "missed", shifts ? fmt::format(" {:>14}", "added by shift") : "", "meets",
                     "minus prev N", "(paired se)");
  for (const auto& p : sizing.at("points").is_null() ? sizing.at("curve") : sizing.at("points"))
    out += fmt::format("  {:>6} {:>16.0f} {:>14.3f} {:>16.0f} {:>10.2f}{} {:>6} {:>16} {:>14}\n", p.at("nodes").get<long>(),
                       p.at("waited_gpu_hours").get<double>(), p.at("mean_first_wait_h").get<double>(),
                       p.at("unserved_gpu_hours").get<double>(), p.at("deadline_misses").get<double>(),
                       shifts ? fmt::format(" {:>+14.2f}", p.at("deadline_misses_added_by_shifting").get<double>()) : "",
                       p.at("meets_limits").get<bool>() ? "yes" : "no",
                       p.at("minus_previous_mean_usd").is_null() ? "-" : format_usd(p.at("minus_previous_mean_usd")),
                       p.at("minus_previous_stderr_usd").is_null() ? "-" : format_usd(p.at("minus_previous_stderr_usd")));
  if (limits.at("best_chosen_among") == "no_misses_added_by_shifting")
    out += "  note: no node count meets the service limits: the best below are chosen over the counts where time "
           "shifting adds no deadline miss\n";
  else if (limits.at("met_by_none").get<bool>())
    out += fmt::format("  note: no node count meets the service limits: the best below are chosen over every count{}\n",
                       shifts ? " (time shifting adds deadline misses at every one: weigh the plan without it)" : "");
  const Json& search = sizing.at("search");
  std::string order;
  for (const auto& n : search.at("evaluated_nodes_in_order")) order += (order.empty() ? "" : ", ") + std::to_string(n.get<long>());
  out += fmt::format("  search: {} ({} of {} node counts in {} rounds: {})\n", search.at("method").get<std::string>(),
                     search.at("points_evaluated").get<long>(), search.at("node_counts_in_range").get<long>(),
                     search.at("rounds").get<long>(), order);
  return out;
}

// "2.915 2.901-2.930": a serving point's $/M tokens over the paths (mean, P10-P90); "-" without.
std::string path_usd_per_million_words(const Json& p) {
  if (!p.value("usd_per_million_tokens_mean", Json()).is_number()) return "-";
  return fmt::format("{:.3f} {:.3f}-{:.3f}", p.at("usd_per_million_tokens_mean").get<double>(),
                     p.at("usd_per_million_tokens_p10").get<double>(), p.at("usd_per_million_tokens_p90").get<double>());
}

std::string sizing_console(const Json& sizing) {
  std::string out = fmt::format("sizing \"{}\" vs \"{}\" ({} paths, seed {}):\n", sizing.at("plan").get<std::string>(),
                                sizing.at("baseline").get<std::string>(), sizing.at("paths").get<long>(),
                                sizing.at("seed").get<std::uint64_t>());
  const Json& commitment = sizing.at("grid").at("commitment");
  // The sized field names the unit: instances, gpus or usd_per_hour (the pointer's last segment).
  const std::string size_unit =
      commitment.is_null() ? std::string()
                           : sizing.at("grid").at("pointer_commitment").get<std::string>().substr(
                                 sizing.at("grid").at("pointer_commitment").get<std::string>().rfind('/') + 1);
  const bool refresh_sized = !sizing.at("grid").at("refresh_months_after_arrival").is_null();
  const Json& rows = commitment.is_null() && !refresh_sized ? sizing.at("curve") : sizing.at("points");
  // A serving plan's points: their owned replicas and $/M tokens (the scenario as written).
  const bool serving = !rows.empty() && rows.front().contains("owned_replicas");
  out += fmt::format("  {:>6} {:>9} {:>12}{} {:>16} {:>16} {:>16} {:>16} {:>8}{}\n", "nodes", "reserved", size_unit,
                     refresh_sized ? fmt::format(" {:>9}", "refresh k") : "", "NPV mean", "NPV P90", "NPV CVaR95",
                     "saving mean", "P(save)",
                     serving ? fmt::format(" {:>9} {:>10} {:>17}", "replicas", "$/M tokens", "paths: mean P10-P90")
                             : "");
  for (const auto& p : rows)
    out += fmt::format("  {:>6} {:>9} {:>12}{} {:>16} {:>16} {:>16} {:>16} {:>8.3f}{}\n", p.at("nodes").get<long>(),
                       p.at("reserved_instances").get<long>(),
                       p.contains("commitment_size") ? std::to_string(p.at("commitment_size").get<long>()) : "",
                       refresh_sized ? fmt::format(" {:>9}", refresh_months_words(p.at("refresh_months_after_arrival")))
                                     : "",
                       format_usd(p.at("npv_mean_usd")), format_usd(p.at("npv_p90_usd")),
                       format_usd(p.at("npv_cvar95_usd")), format_usd(p.at("saving_mean_usd")),
                       p.at("probability_saving").get<double>(),
                       serving ? fmt::format(" {:>9} {:>10} {:>17}", p.at("owned_replicas").get<long>(),
                                             p.at("reservation_usd_per_million_tokens").is_number()
                                                 ? fmt::format("{:.3f}", p.at("reservation_usd_per_million_tokens").get<double>())
                                                 : std::string("-"),
                                             path_usd_per_million_words(p))
                               : std::string());
  if (!sizing.at("search").is_null()) out += replay_console(sizing);
  for (const auto& source : sizing.at("randomness")) out += "  drew: " + source.get<std::string>() + "\n";
  if (const Json& cap = sizing.at("grid").at("site_cap_max_nodes"); cap.is_number())
    out += fmt::format("  the site's power cap fits at most {} nodes (spares aside): larger counts not evaluated\n",
                       cap.get<long>());
  out += "  efficient frontier (mean NPV against CVaR95):";
  for (const auto& f : sizing.at("frontier"))
    out += fmt::format(" {} node{} {} / {};", f.at("nodes").get<long>(), f.at("nodes").get<long>() == 1 ? "" : "s",
                       format_usd(f.at("npv_mean_usd")), format_usd(f.at("npv_cvar95_usd")));
  out.back() = '\n';
  out += "  " + sizing_answer_sentence(sizing) + "\n";
  for (const char* measure : kRiskMeasures) {
    const Json& b = sizing.at("best").at(measure);
    out += fmt::format("  best N by {:<6}: {} (reserved {}{}{}), within 1%: {}..{}\n", measure,
                       b.at("nodes").get<long>(), b.at("reserved_instances").get<long>(),
                       commitment.is_null() ? std::string()
                                            : fmt::format(", {} {} {}", commitment.get<std::string>(),
                                                          b.at("commitment_size").get<long>(), size_unit),
                       refresh_sized ? ", refresh " + refresh_months_words(b.at("refresh_months_after_arrival"))
                                     : std::string(),
                       b.at("within_1pct_min_nodes").get<long>(), b.at("within_1pct_max_nodes").get<long>());
  }
  return out;
}

std::string spares_console(const Json& sizing) {
  std::string out = fmt::format("sizing the hot spares of \"{}\" ({} nodes) vs \"{}\" in the discrete-event replay "
                                "({} paths, seed {}):\n",
                                sizing.at("plan").get<std::string>(), sizing.at("nodes").get<long>(),
                                sizing.at("baseline").get<std::string>(), sizing.at("paths").get<long>(),
                                sizing.at("seed").get<std::uint64_t>());
  out += fmt::format("  {:>6} {:>16} {:>16} {:>16} {:>16} {:>8} {:>9} {:>16}\n", "spares", "NPV mean", "NPV P90",
                     "NPV CVaR95", "saving mean", "P(save)", "goodput", "unserved GPU-h");
  for (const auto& p : sizing.at("curve"))
    out += fmt::format("  {:>6} {:>16} {:>16} {:>16} {:>16} {:>8.3f} {:>9} {:>16.0f}\n", p.at("spares").get<long>(),
                       format_usd(p.at("npv_mean_usd")), format_usd(p.at("npv_p90_usd")),
                       format_usd(p.at("npv_cvar95_usd")), format_usd(p.at("saving_mean_usd")),
                       p.at("probability_saving").get<double>(),
                       p.at("goodput_mean").is_number() ? fmt::format("{:.2f}%", 100.0 * p.at("goodput_mean").get<double>())
                                                        : std::string("-"),
                       p.at("unserved_gpu_hours").get<double>());
  if (!sizing.at("waiting_priced").get<bool>())
    out += "  note: waiting_usd_per_gpu_hour is 0, so the NPVs do not price the work left unserved: a spare's worth "
           "is in that column\n";
  for (const char* measure : kRiskMeasures) {
    const Json& b = sizing.at("best").at(measure);
    const Json& within = b.at("within_1pct_spares");
    out += fmt::format("  best spares by {:<6}: {}, within 1%: {}..{}\n", measure, b.at("spares").get<long>(),
                       within.front().get<long>(), within.back().get<long>());
  }
  return out;
}

std::string latency_console(const Json& sizing) {
  std::string out = fmt::format("sizing the owned replicas of \"{}\" in the request replay ({} path{}, {} hour{}): a "
                                "point meets the slo when at least {:.4g}% of a path's requests are within it on {:.4g}% "
                                "of the paths\n",
                                sizing.at("plan").get<std::string>(), sizing.at("paths").get<long>(),
                                sizing.at("paths").get<long>() == 1 ? "" : "s", sizing.at("hours").get<long>(),
                                sizing.at("hours").get<long>() == 1 ? "" : "s",
                                100.0 * sizing.at("slo_share").get<double>(),
                                100.0 * sizing.at("probability").get<double>());
  out += fmt::format("  {:>6} {:>9} {:>10} {:>16} {:>14} {:>11} {:>11} {:>12} {:>6}\n", "nodes", "replicas", "wait s",
                     "NPV", "replay $/path", "min share", "mean share", "paths ok", "meets");
  const auto share = [](const Json& v) { return v.is_null() ? std::string("-") : fmt::format("{:.4f}", v.get<double>()); };
  for (const auto& p : sizing.at("points"))
    out += fmt::format("  {:>6} {:>9} {:>10} {:>16} {:>14} {:>11} {:>11} {:>11.1f}% {:>6}\n", p.at("nodes").get<long>(),
                       p.at("owned_replicas").get<long>(),
                       p.at("wait_threshold_s").is_null() ? std::string("-")
                                                          : fmt::format("{:g}", p.at("wait_threshold_s").get<double>()),
                       format_usd(p.at("npv_usd")), format_usd(p.at("replay_usd_per_path")),
                       share(p.at("min_share_within_slo")), share(p.at("mean_share_within_slo")),
                       100.0 * p.at("paths_meeting_share").get<double>(), p.at("meets").get<bool>() ? "yes" : "no");
  const Json& c = sizing.at("chosen");
  if (c.is_null())
    out += "  no point of the range meets the slo: widen --latency-replicas or lower --slo-share\n";
  else
    out += fmt::format("  cheapest that meets it: {} node{} ({} replicas{}), NPV {}\n", c.at("nodes").get<long>(),
                       c.at("nodes").get<long>() == 1 ? "" : "s", c.at("owned_replicas").get<long>(),
                       c.at("wait_threshold_s").is_null()
                           ? std::string()
                           : fmt::format(", wait threshold {:g} s", c.at("wait_threshold_s").get<double>()),
                       format_usd(c.at("npv_usd")));
  return out;
}

// What both sizings do around their own: rank 0 checks the outputs and reads the scenario; every
// rank sizes (`size(doc, dir, progress)`, its share under mpirun) and computes its share of run's
// report of the scenario; rank 0 adds the section `key` (`to_json(result)`) and what the sizing
// records in the report's run block (`run_fields(run, result)`), and writes.
template <class Size, class ToJson, class Console, class RunFields>
int size_and_report(const OptimizeOptions& o, CommandContext& ctx, int threads, const char* key, Size&& size,
                    ToJson&& to_json, Console&& console, RunFields&& run_fields) {
  OutputSet outputs(ctx.out);
  MonteCarloSpec spec;  // the scenario's seed and paths, for a shard's header
  const Json doc = root_first([&] {
    outputs.add_file("--out", o.out, true);
    outputs.add_input("the scenario", o.scenario);
    outputs.add_input_folder("a catalog file", o.catalog);
    // Loaded whole here, so that a bad scenario ends every rank at once and the catalog it reads is
    // among the inputs rank 0 shares (cli/root_first.hpp).
    const Scenario loaded = load_scenario(o.scenario, o.catalog);
    spec = loaded.monte_carlo;
    add_scenario_inputs(outputs, loaded);
    return read_json_file(o.scenario);
  });
  note_shard_run(o.seed.value_or(spec.seed), o.paths.value_or(spec.paths));
  const std::string dir = std::filesystem::path(o.scenario).parent_path().string();
  ProgressBar bar(ctx.err, progress_wanted(ctx, o.quiet));
  const auto result = size(doc, dir.empty() ? std::string(".") : dir, bar.counter());
  MonteCarloOptions mc = monte_carlo_options(o.paths, o.seed, threads);
  mc.progress = bar.counter();
  mc.split_over_processes = true;
  Json report =
      make_report(o.scenario, o.catalog, mc, with_today(RunMetadata{"optimize", mc.threads, process_count()}, o.today));
  bar.stop();
  if (!is_root_process()) return kExitOk;
  report[key] = to_json(result);
  run_fields(report["run"], result);
  commit_and_answer(ctx.out, outputs, o.out, report_text(report), o.quiet,
                    [&] { return console(report.at(key), result); });
  return kExitOk;
}

// optimize --spares: the plan's hot spares in the replay (engine/decisions/spares_sizing.hpp).
int run_optimize_spares(const OptimizeOptions& o, CommandContext& ctx) {
  if (!o.reserved.empty() || !o.commitment.empty() || o.nodes_given || !o.replicas.empty())
    throw InputError("", "--spares",
                     "sizes the hot spares at the plan's own node count in the discrete-event replay: give it without "
                     "--nodes, --reserved and --commitment (which size the base load in the fluid model), and run those apart");
  SparesSizingOptions s;
  s.plan = o.plan;
  s.spares = parse_int_range(o.spares, "--spares");
  s.risk = o.risk;
  s.paths = o.paths;
  s.seed = o.seed;
  s.threads = resolved_thread_count(o.threads);
  s.split_over_processes = true;
  return size_and_report(
      o, ctx, s.threads, "spares_sizing",
      [&](const Json& doc, const std::string& dir, ProgressCounter* progress) {
        s.progress = progress;
        return optimize_spares(doc, o.scenario, dir, o.catalog, s);
      },
      [](const SparesSizingResult& r) { return spares_sizing_json(r); },
      [](const Json& section, const SparesSizingResult&) { return spares_console(section); },
      [](Json&, const SparesSizingResult&) {});
}

// optimize --latency-replicas: a serving plan's owned replicas at an slo share (engine/decisions/latency_sizing.hpp).
int run_optimize_latency(const OptimizeOptions& o, CommandContext& ctx) {
  if (!o.reserved.empty() || !o.commitment.empty() || o.nodes_given || !o.spares.empty() || !o.refresh_months.empty())
    throw InputError("", "--latency-replicas",
                     "sizes the owned replicas in the request replay: give it without --nodes, --reserved, "
                     "--commitment, --refresh-months and --spares, and run those apart");
  LatencySizingOptions s;
  s.plan = o.plan;
  s.replicas = parse_int_range(o.latency_replicas, "--latency-replicas");
  s.slo_share = o.slo_share;
  s.probability = o.slo_probability;
  s.wait_thresholds_s = o.wait_thresholds_s;
  return size_and_report(
      o, ctx, resolved_thread_count(o.threads), "latency_sizing",
      [&](const Json& doc, const std::string& dir, ProgressCounter*) {
        return optimize_latency_replicas(doc, o.scenario, dir, o.catalog, s);
      },
      [](const LatencySizingResult& r) { return latency_sizing_json(r); },
      [](const Json& section, const LatencySizingResult&) { return latency_console(section); },
      [](Json&, const LatencySizingResult&) {});
}

int run_optimize(const OptimizeOptions& o, CommandContext& ctx) {
  if (!o.latency_replicas.empty()) return run_optimize_latency(o, ctx);
  if (!o.spares.empty()) return run_optimize_spares(o, ctx);
  SizingOptions s;
  s.plan = o.plan;
  s.nodes = parse_int_range(o.nodes, "--nodes");
  if (!o.replicas.empty()) {
    if (o.nodes_given)
      throw InputError("", "--replicas", "gives the range in replicas instead of --nodes: give one of the two");
    s.replicas = parse_int_range(o.replicas, "--replicas");
  }
  if (!o.reserved.empty()) s.reserved = parse_int_range(o.reserved, "--reserved");
  if (!o.commitment.empty()) s.commitment = parse_commitment_range(o.commitment, "--commitment");
  if (!o.refresh_months.empty()) s.refresh_months = parse_int_range(o.refresh_months, "--refresh-months");
  s.risk = o.risk;
  s.search = o.search;
  s.paths = o.paths;
  s.seed = o.seed;
  s.threads = resolved_thread_count(o.threads);
  s.backend = backend_of(o.backend);
  s.split_over_processes = true;
  // Under mpirun every rank evaluates its block of node counts and its block of the report's paths.
  return size_and_report(
      o, ctx, s.threads, "sizing",
      [&](const Json& doc, const std::string& dir, ProgressCounter* progress) {
        s.progress = progress;
        SizingResult r = optimize_sizing(doc, o.scenario, dir, o.catalog, s);
        // A device that failed its parity probe is said at once, whatever --quiet says (docs/sweep.md).
        if (r.backend_probe && is_root_process() && (!r.backend_probe->passed || !o.quiet))
          ctx.err << parity_probe_console(*r.backend_probe, "optimize");
        return r;
      },
      [](const SizingResult& r) { return sizing_json(r); },
      [](const Json& section, const SizingResult& r) {
        return sizing_console(section) + fmt::format("  {} grid points x {} paths on {} in {:.2f} s\n",
                                                     r.points.size(), r.paths, to_string(r.backend), r.seconds);
      },
      [](Json& run, const SizingResult& r) {
        if (!r.backend_probe) return;
        run["backend"] = to_string(r.backend);
        run["parity_probe"] = parity_probe_json(*r.backend_probe);
      });
}

}  // namespace

void setup_optimize(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<OptimizeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "optimize",
      "Size the base load: evaluate a hybrid plan at every on-prem node count of a range (optionally jointly with "
      "reserved instances) on the same Monte Carlo paths with the hourly fluid model, and report the cost curve "
      "(NPV mean, P10, P90, CVaR95 and the saving vs the baseline per node count), the best node count per risk "
      "measure and the range within 1% of it; the JSON report is run's report plus a \"sizing\" section "
      "(docs/decisions.md).");
  cmd->add_option("scenario", opts->scenario, "Scenario file (JSON; see docs/scenario.md)")->required();
  cmd->add_option("--nodes", opts->nodes,
                  "On-prem node counts to evaluate, FROM:TO or FROM:TO:STEP (e.g. 0:64 or 0:64:4; default 0:64)")
      ->each([opts](const std::string&) { opts->nodes_given = true; });
  cmd->add_option("--replicas", opts->replicas,
                  "A serving plan's range in owned replicas instead of nodes, FROM:TO or FROM:TO:STEP: each R is "
                  "evaluated at ceil(R x GPUs per replica / GPUs per node) nodes (a count met twice once)");
  cmd->add_option("--plan", opts->plan,
                  "The plan to size, by name (default: the scenario's first hybrid plan); its other settings stay as "
                  "written");
  cmd->add_option("--risk", opts->risk,
                  "Risk measure of the recommendation: mean (expected NPV), p90 (the NPV exceeded on 10% of paths) or "
                  "cvar95 (the mean of the worst 5% of paths); the best N for every measure is reported anyway")
      ->check(CLI::IsMember({"mean", "p90", "cvar95"}));
  cmd->add_option("--search", opts->search,
                  "On a scenario of jobs (sized in the discrete-event replay): all (every node count), bracket (a "
                  "coarse grid, then halving around the best of each risk measure until its neighbours are "
                  "evaluated) or auto (bracket above 12 node counts when nothing is sized jointly; the default)")
      ->check(CLI::IsMember({"auto", "all", "bracket"}));
  cmd->add_option("--reserved", opts->reserved,
                  "Also size the plan's reserved instances jointly with the nodes, FROM:TO[:STEP] instances (the "
                  "plan's reserved term and the offer's reserved price apply)");
  cmd->add_option("--commitment", opts->commitment,
                  "Also size one of the plan's commitments jointly with the nodes, NAME=FROM:TO[:STEP]: a capacity "
                  "block's instances, a take-or-pay's GPUs or a savings plan's USD per hour (from 1)");
  cmd->add_option("--refresh-months", opts->refresh_months,
                  "Also choose when the plan's refresh happens, FROM:TO[:STEP] months after the next generation "
                  "arrives (its refresh.months_after_arrival), jointly with the nodes; \"never\" (keeping the old "
                  "fleet) is evaluated beside them on the same paths");
  cmd->add_option("--spares", opts->spares,
                  "Size the plan's hot spares instead, FROM:TO[:STEP] spares at its own node count, in the "
                  "discrete-event replay (the only model where a spare takes a failed node's place): needs \"jobs\" "
                  "and onprem.spares; the JSON report is run's report plus a \"spares_sizing\" section");
  cmd->add_option("--latency-replicas", opts->latency_replicas,
                  "Size a serving plan's owned replicas in the request replay instead, FROM:TO[:STEP] replicas (each "
                  "bought as the fewest whole nodes holding it): needs workload.requests; the cheapest count whose "
                  "share of requests within the slo reaches --slo-share on --slo-probability of the paths; the JSON "
                  "report is run's report plus a \"latency_sizing\" section");
  cmd->add_option("--slo-share", opts->slo_share,
                  "With --latency-replicas: the share of a path's requests that must be within the slo (default 0.99)");
  cmd->add_option("--slo-probability", opts->slo_probability,
                  "With --latency-replicas: the share of paths that must reach --slo-share (default 1: every path)");
  cmd->add_option("--wait-thresholds-s", opts->wait_thresholds_s,
                  "With --latency-replicas, for a scenario with workload.requests.rented_scaling: the wait thresholds "
                  "to try beside each replica count, in seconds, comma-separated (default: the scenario's)")
      ->delimiter(',');
  cmd->add_option("--paths", opts->paths, "Monte Carlo paths per node count (default: the scenario's monte_carlo.paths)")
      ->check(CLI::Range(1L, 100000000L));
  cmd->add_option("--seed", opts->seed,
                  "Seed of the random streams (default: the scenario's monte_carlo.seed; 0 is an ordinary seed)");
  add_threads_option(*cmd, opts->threads);
  add_backend_option(*cmd, opts->backend);
  add_report_out_option(*cmd, opts->out);
  add_catalog_option(*cmd, opts->catalog);
  add_quiet_flag(*cmd, opts->quiet);
  add_today_options(*cmd, opts->today);
  add_shard_options(*cmd, opts->shard);
  cmd->callback([opts, &ctx] {
    ctx.exit_code =
        run_maybe_sharded(opts->shard, "optimize", opts->scenario, opts->out, opts->quiet, ctx,
                          [&] { return run_optimize(*opts, ctx); });
  });
}

}  // namespace tco::cli
