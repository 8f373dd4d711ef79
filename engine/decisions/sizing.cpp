#include "engine/decisions/sizing.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/integer_fields.hpp"
#include "engine/sweep/sweep_over_ranks.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "engine/sweep/sweep_size.hpp"
#include "core/parallel_for_index.hpp"
#include "core/progress/progress_counter.hpp"
#include "engine/decisions/replay_sizing.hpp"
#include "engine/decisions/sizing_draws.hpp"
#include "engine/decisions/sizing_tokens.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

namespace {

// A scenario document with one plan (the k-th of `doc`), which is its own baseline, with the
// grid's fields written so that the grid can point at them, and without the uncertain section.
Json single_plan_document(const Json& doc, const Plan& plan, int k, bool with_reserved) {
  Json out = doc;
  Json p = doc.at("plans").at(static_cast<std::size_t>(k));
  if (plan.kind != Plan::Kind::api) p["onprem_nodes"] = plan.onprem_nodes;  // an api plan has no fleet field
  if (with_reserved) p["reserved_instances"] = plan.reserved_instances;
  out["plans"] = Json::array({p});
  out["baseline"] = plan.name;
  // Its pointers may name the other plans; sizing draws the section from the whole document.
  out.erase("uncertain");
  return out;
}

SweepInputs grid_inputs(const Json& plan_doc, const std::string& file, const std::string& dir,
                        const std::string& catalog_dir, long paths, std::uint64_t seed, const Json& fields) {
  SweepInputs in;
  in.scenario_file = file;
  in.scenario_dir = dir;
  in.catalog_dir = catalog_dir;
  in.scenario_doc = plan_doc;
  {
    IntegerFieldRecorder integer_fields(file);
    in.base = load_scenario_json(plan_doc, file, dir, catalog_dir);
    in.integer_pointers = integer_fields.pointers();
  }
  in.paths = paths;
  in.seed = seed;
  // No fields: the document's one point (the baseline, which may be an api plan with no fleet field).
  in.grid = fields.empty() ? SweepGrid{file, {}}
                           : parse_sweep_grid({{"fields", fields}}, file, plan_doc, file, in.integer_pointers);
  return in;
}

// The grid's points in a path's world: copies of the world's scenario with the plan's node count
// set, when `by_copy` (the grid varies the node count alone); else each point's document loaded.
PreparedGridPoints world_grid_points(const SweepInputs& in, long points, bool by_copy) {
  if (!by_copy) return prepare_grid_points(in, {0, points}, 1);
  std::vector<SweepPoint> prepared;
  prepared.reserve(static_cast<std::size_t>(points));
  Scenario point = in.base;
  for (long i = 0; i < points; ++i) {
    point.plans[0].onprem_nodes = static_cast<int>(std::lround(in.grid.point_values(i)[0]));
    prepared.push_back(prepare_sweep_point(point, in.seed));
  }
  return pack_grid_points({0, points}, prepared);
}

}  // namespace

CommitmentRange parse_commitment_range(const std::string& text, const std::string& option) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("", option, fmt::format("expected NAME=FROM:TO[:STEP] (a commitment of the plan), found \"{}\"", text));
  CommitmentRange out{text.substr(0, eq), parse_int_range(text.substr(eq + 1), option)};
  if (out.sizes.from < 1)
    throw InputError("", option,
                     fmt::format("expected sizes from 1 (every value must be a commitment; compare with none through a "
                                 "plan without it), found {}",
                                 out.sizes.from));
  return out;
}

std::vector<long> IntRange::values() const {
  std::vector<long> out;
  for (long v = from; v <= to; v += step) out.push_back(v);
  return out;
}

IntRange parse_int_range(const std::string& text, const std::string& option) {
  // Each part a whole decimal number and nothing else: "1e9" or "64x" is an error, never a 1 or a 64.
  std::vector<long> parts;
  for (std::size_t from = 0;;) {
    const std::size_t colon = std::min(text.find(':', from), text.size());
    long value = 0;
    const char* first = text.data() + from;
    const char* last = text.data() + colon;
    const auto [end, ec] = std::from_chars(first, last, value);
    if (first == last || ec != std::errc() || end != last) {
      parts.clear();
      break;
    }
    parts.push_back(value);
    if (colon == text.size()) break;
    from = colon + 1;
  }
  if (parts.size() != 2 && parts.size() != 3)
    throw InputError("", option, fmt::format("expected FROM:TO or FROM:TO:STEP of whole numbers (e.g. 0:64 or 0:64:4), "
                                             "found \"{}\"", text));
  const long a = parts[0], b = parts[1], s = parts.size() == 3 ? parts[2] : 1;
  if (a < 0 || b < a || s < 1 || b > kMaxSizingCount)
    throw InputError("", option,
                     fmt::format("expected 0 <= FROM <= TO <= {} and STEP >= 1, found \"{}\"", kMaxSizingCount, text));
  return {a, b, s};
}

double risk_value(const Summary& npv, const std::string& measure) {
  if (measure == "p90") return npv.p90;
  if (measure == "cvar95") return npv.cvar95;
  return npv.mean;
}

std::vector<SizingBest> best_per_measure(const std::vector<Summary>& npv, const std::vector<bool>& eligible) {
  auto ok = [&](std::size_t i) { return eligible.empty() || eligible[i]; };
  std::size_t first = 0;
  while (first + 1 < npv.size() && !ok(first)) ++first;
  std::vector<SizingBest> out;
  for (const char* measure : kRiskMeasures) {
    SizingBest b;
    b.measure = measure;
    b.point = first;
    for (std::size_t i = first + 1; i < npv.size(); ++i)
      if (ok(i) && risk_value(npv[i], measure) < risk_value(npv[b.point], measure)) b.point = i;
    b.value_usd = risk_value(npv[b.point], measure);
    const double limit = b.value_usd + 0.01 * std::fabs(b.value_usd);
    for (std::size_t i = 0; i < npv.size(); ++i)
      if (ok(i) && risk_value(npv[i], measure) <= limit) b.within_1pct.push_back(i);
    out.push_back(b);
  }
  return out;
}

std::vector<std::size_t> efficient_frontier(const std::vector<Summary>& npv, const std::vector<bool>& eligible) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < npv.size(); ++i)
    if (eligible.empty() || eligible[i]) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (npv[a].mean != npv[b].mean) return npv[a].mean < npv[b].mean;
    if (npv[a].cvar95 != npv[b].cvar95) return npv[a].cvar95 < npv[b].cvar95;
    return a < b;
  });
  std::vector<std::size_t> out;
  for (std::size_t i : order)
    if (out.empty() || npv[i].cvar95 < npv[out.back()].cvar95) out.push_back(i);
  return out;
}

const SizingBest& SizingResult::best_for(const std::string& measure) const {
  for (const auto& b : best)
    if (b.measure == measure) return b;
  return best.front();
}

std::vector<long> nodes_for_replicas(const Scenario& s, const Plan& plan, const IntRange& replicas) {
  if (!s.workload.tokens)
    throw InputError("", "--replicas",
                     "expected a serving scenario (workload.tokens) to count replicas in; size nodes with --nodes");
  if (!plan.onprem)
    throw InputError("", "--replicas", fmt::format("plan \"{}\" owns no nodes to hold replicas", plan.name));
  const TokenDemand& serving = plan.serving ? *plan.serving : *s.workload.tokens;
  const long per_replica = serving.capacity.gpus_per_replica, per_node = plan.onprem->server.gpus;
  std::vector<long> nodes;
  for (const long r : replicas.values()) {
    const long n = (r * per_replica + per_node - 1) / per_node;
    if (n > kMaxSizingCount)
      throw InputError("", "--replicas",
                       fmt::format("{} replicas of {} GPUs need {} nodes of {} GPUs: more than the {} a sizing may reach",
                                   r, per_replica, n, per_node, kMaxSizingCount));
    if (nodes.empty() || nodes.back() != n) nodes.push_back(n);
  }
  return nodes;
}

SizingResult sizing_frame(const Scenario& s, const SizingOptions& o) {
  const std::string& file = s.file;
  if (o.risk != "mean" && o.risk != "p90" && o.risk != "cvar95")
    throw InputError("", "--risk", fmt::format("expected mean, p90 or cvar95, found \"{}\"", o.risk));
  if (o.search != "auto" && o.search != "all" && o.search != "bracket")
    throw InputError("", "--search", fmt::format("expected auto, all or bracket, found \"{}\"", o.search));
  int k = -1;
  if (o.plan.empty()) {
    for (int j = 0; j < static_cast<int>(s.plans.size()) && k < 0; ++j)
      if (s.plans[j].kind == Plan::Kind::hybrid) k = j;
    if (k < 0)
      throw InputError(file, "/plans",
                       "expected a hybrid plan to size (one that owns nodes and bursts to the cloud), found none; "
                       "add one or name an onprem plan with --plan");
  } else {
    for (int j = 0; j < static_cast<int>(s.plans.size()); ++j)
      if (s.plans[j].name == o.plan) k = j;
    if (k < 0) {
      std::string known;
      for (const auto& p : s.plans) known += (known.empty() ? "" : ", ") + p.name;
      throw InputError("", "--plan", fmt::format("expected the name of a plan ({}), found \"{}\"", known, o.plan));
    }
  }
  const Plan& plan = s.plans[k];
  const std::string plan_pointer = "/plans/" + std::to_string(k);
  if (plan.kind == Plan::Kind::cloud || plan.kind == Plan::Kind::api)
    throw InputError("", "--plan",
                     fmt::format("\"{}\" is {} plan: it owns no nodes to size (choose a hybrid or onprem plan)",
                                 plan.name, plan.kind == Plan::Kind::api ? "an api" : "a cloud"));
  const std::vector<long> node_values = o.replicas ? nodes_for_replicas(s, plan, *o.replicas) : o.nodes.values();
  const char* const range_option = o.replicas ? "--replicas" : "--nodes";
  const long first_nodes = node_values.front();
  if (plan.kind == Plan::Kind::onprem && first_nodes < 1)
    throw InputError("", range_option,
                     fmt::format("\"{}\" is an onprem plan (it never bursts): it needs at least 1 node, found a range "
                                 "from {}",
                                 plan.name, first_nodes));
  if (plan.uses_api() && plan.reserved_instances == 0 && first_nodes < 1)
    throw InputError("", range_option,
                     fmt::format("\"{}\" sends its overflow to the API: it needs a base fleet, at least 1 node, found "
                                 "a range from {} (at 0 nodes it is a plan of kind \"api\": compare with one)",
                                 plan.name, first_nodes));
  if (o.reserved && plan.kind != Plan::Kind::hybrid)
    throw InputError("", "--reserved", fmt::format("\"{}\" does not rent: it can hold no reserved instances", plan.name));

  SizingResult r;
  r.plan = plan.name;
  r.plan_index = k;
  r.baseline = s.plans[s.baseline_index].name;
  r.risk = o.risk;
  r.paths = o.paths.value_or(s.monte_carlo.paths);
  if (r.paths < 1 || r.paths > 100000000)
    throw InputError("", "--paths", fmt::format("expected 1 to 100,000,000 paths, found {}", r.paths));
  r.seed = o.seed.value_or(s.monte_carlo.seed);
  r.node_values = node_values;
  if (o.replicas) r.replica_values = o.replicas->values();
  if (plan.onprem && plan.onprem->site.power_cap_mw) {
    const OnPremSpec& onprem = *plan.onprem;
    const double cap_kw = *onprem.site.power_cap_mw * 1000.0;
    r.site_cap_max_nodes = static_cast<long>(std::floor(cap_kw / onprem.server.peak_kw)) - onprem.spare_nodes();
    std::erase_if(r.node_values, [&](long n) { return n > *r.site_cap_max_nodes; });
    if (r.node_values.empty())
      throw InputError("", range_option,
                       fmt::format("no node count from {} fits the site: {} MW feeds {} nodes of {} kW; with {} hot "
                                   "spares, at most {} to size (onprem.site.power_cap_mw)",
                                   first_nodes, *onprem.site.power_cap_mw,
                                   *r.site_cap_max_nodes + onprem.spare_nodes(), onprem.server.peak_kw,
                                   onprem.spare_nodes(), *r.site_cap_max_nodes));
  }
  if (o.reserved) r.reserved_values = o.reserved->values();
  if (o.commitment) {
    const auto& list = plan.commitments;
    const auto it = std::find_if(list.begin(), list.end(), [&](const Commitment& c) { return c.name == o.commitment->name; });
    if (it == list.end()) {
      std::string known;
      for (const auto& c : list) known += (known.empty() ? "" : ", ") + c.name;
      throw InputError("", "--commitment",
                       fmt::format("expected the name of a commitment of plan \"{}\" ({}), found \"{}\"", plan.name,
                                   known.empty() ? "it has none" : known, o.commitment->name));
    }
    r.commitment = it->name;
    r.commitment_field = it->kind == Commitment::Kind::capacity_block ? "instances"
                         : it->kind == Commitment::Kind::take_or_pay ? "gpus"
                                                                     : "usd_per_hour";
    r.commitment_pointer = fmt::format("{}/commitments/{}/{}", plan_pointer, it - list.begin(), r.commitment_field);
    r.commitment_values = o.commitment->sizes.values();
  }

  if (o.refresh_months) {
    if (!plan.refresh)
      throw InputError("", "--refresh-months",
                       fmt::format("plan \"{}\" has no \"refresh\" to choose the month of (docs/scenario.md)", plan.name));
    r.refresh_pointer = plan_pointer + "/refresh/months_after_arrival";
    r.refresh_values = o.refresh_months->values();
    // k = H puts the refresh at or past the horizon's end on every path: no refresh.
    std::erase_if(r.refresh_values, [&](long v) { return v >= s.horizon_months; });
    r.refresh_values.push_back(s.horizon_months);
  }

  return r;
}

SizingResult optimize_sizing(const Json& doc, const std::string& file, const std::string& dir,
                             const std::string& catalog_dir, const SizingOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  const Scenario s = load_scenario_json(doc, file, dir, catalog_dir);
  if (s.jobs) return optimize_replay_sizing(doc, file, dir, catalog_dir, o);
  if (!doc.contains("workload"))
    throw InputError(file, "/workload",
                     "expected a \"workload\" section (hourly demand, sized by the hourly fluid model) or a \"jobs\" "
                     "section (sized by the discrete-event replay)");
  SizingResult r = sizing_frame(s, o);
  const int k = r.plan_index;
  const Plan& plan = s.plans[k];
  const std::string plan_pointer = "/plans/" + std::to_string(k);
  r.randomness = {"the fluid model's own random inputs (monte_carlo: demand growth, spot availability and "
                  "preemptions, spot and power price shocks, ambient noise, node failures, as the scenario sets them)"};
  // The sized plan alone, over the grid.
  const Json plan_doc = single_plan_document(doc, plan, k, o.reserved.has_value());
  Json fields = Json::array({{{"pointer", "/plans/0/onprem_nodes"}, {"values", r.node_values}}});
  if (o.reserved) fields.push_back({{"pointer", "/plans/0/reserved_instances"}, {"values", r.reserved_values}});
  if (o.commitment)
    fields.push_back({{"pointer", "/plans/0" + r.commitment_pointer.substr(plan_pointer.size())},
                      {"values", r.commitment_values}});
  if (o.refresh_months)
    fields.push_back({{"pointer", "/plans/0" + r.refresh_pointer.substr(plan_pointer.size())},
                      {"values", r.refresh_values}});
  SweepInputs in;
  try {
    in = grid_inputs(plan_doc, file, dir, catalog_dir, r.paths, r.seed, fields);
  } catch (const InputError& e) {
    throw InputError(e.file(), plan_pointer, fmt::format("plan \"{}\" cannot be sized: {}", plan.name, e.message()));
  }
  const long points = in.grid.points();
  // All points are prepared at once (no blocks): the memory cap applies to the whole range.
  check_sweep_size(estimate_sweep_size(points, r.paths, 1, in.base.horizon_hours(), points,
                                       typical_prepared_point_bytes(in.base.horizon_hours())),
                   o.refresh_months ? "--nodes/--refresh-months"
                   : o.commitment   ? "--nodes/--commitment"
                   : o.reserved     ? "--nodes/--reserved"
                                    : "--nodes");
  // Every input checked: a device is trusted only after its parity probe (docs/sweep.md).
  const SweepBackendChoice choice = choose_sweep_backend(o.backend, o.device, s.catalog_dir, o.threads);
  r.backend = choice.backend;
  r.backend_probe = choice.probe;
  // The grid's scenario holds the plan alone, at /plans/0: errors name it as the user's file does.
  auto renamed = [&](const InputError& e) {
    std::string message = e.message();
    for (std::size_t at = message.find("/plans/0"); at != std::string::npos; at = message.find("/plans/0", at + 1))
      message.replace(at, 8, plan_pointer);
    return InputError(e.file(), plan_pointer, fmt::format("plan \"{}\" cannot be sized: {}", plan.name, message));
  };
  const Plan& base_plan = s.plans[s.baseline_index];
  const Json base_fields = Json::array();
  const SizingDraws draws = sizing_draws(s, r.paths, r.seed);
  std::vector<SweepPointValues> values;
  std::vector<double> base_npv;
  if (draws.drawn()) {
    // Path p of the sweep's own streams in path p's drawn world, on the CPU (every rank runs every
    // path); the deterministic figures stay those of the document as written.
    r.randomness.push_back(draws.words());
    const PreparedGridPoints as_written = prepare_grid_points(in, {0, points}, o.threads);
    // The points of a path's world from its one loaded scenario when only the node count varies
    // and nothing the loader derives or checks from it can differ between worlds (a refresh's
    // fleet, an API overflow's cloud, a site's power cap): every count was loaded as written just
    // above. Loading each world once per point cost most of the time (docs/performance.md).
    const bool points_by_copy = !o.reserved && !o.commitment && !o.refresh_months && !plan.refresh &&
                                !plan.uses_api() && !(plan.onprem && plan.onprem->site.power_cap_mw);
    values.resize(static_cast<std::size_t>(points));
    base_npv.resize(static_cast<std::size_t>(r.paths));
    std::vector<std::vector<SweepPointValues>> by_path(static_cast<std::size_t>(r.paths));
    progress_begin(o.progress, r.paths, "paths");
    parallel_for_index(r.paths, o.threads, [&](long p) {
      const Json world = draws.document(doc, p);
      try {
        const SweepInputs pin = grid_inputs(single_plan_document(world, plan, k, o.reserved.has_value()), file, dir,
                                            catalog_dir, 1, r.seed, fields);
        by_path[p] = evaluate_prepared_paths_cpu(pin, world_grid_points(pin, points, points_by_copy), p, 1, 1);
        const SweepInputs bin = grid_inputs(single_plan_document(world, base_plan, s.baseline_index, false), file, dir,
                                            catalog_dir, 1, r.seed, base_fields);
        base_npv[p] =
            evaluate_prepared_paths_cpu(bin, pack_grid_points({0, 1}, {prepare_sweep_point(bin.base, r.seed)}), p, 1, 1)[0]
                .npv_usd[0][0];
      } catch (const InputError& e) {
        throw InputError(e.file(), "/uncertain", fmt::format("{}: {}", draws.describe(p), renamed(e).message()));
      }
    }, o.progress);
    for (long i = 0; i < points; ++i) {
      SweepPointValues& v = values[i];
      v = by_path[0][i];
      v.deterministic_npv_usd = as_written.deterministic_npv_usd[i];
      v.npv_usd[0].resize(static_cast<std::size_t>(r.paths));
      v.total_usd[0].resize(static_cast<std::size_t>(r.paths));
      if (!v.tokens_served.empty()) v.tokens_served[0].resize(static_cast<std::size_t>(r.paths));
      for (long p = 0; p < r.paths; ++p) {
        v.npv_usd[0][p] = by_path[p][i].npv_usd[0][0];
        v.total_usd[0][p] = by_path[p][i].total_usd[0][0];
        // Each path's tokens are its own world's (a drawn request rate or tokens per request).
        if (!v.tokens_served.empty()) v.tokens_served[0][p] = by_path[p][i].tokens_served[0][0];
      }
    }
  } else {
    try {
      values = evaluate_grid_points_over_ranks(in, {0, points}, r.backend, o.threads, o.split_over_processes, o.progress);
    } catch (const InputError& e) {
      throw renamed(e);
    }
    // The baseline once, on the same paths.
    const Json base_doc = single_plan_document(doc, base_plan, s.baseline_index, false);
    const SweepInputs base_in = grid_inputs(base_doc, file, dir, catalog_dir, r.paths, r.seed, base_fields);
    const std::vector<SweepPointValues> base_values =
        evaluate_grid_points_over_ranks(base_in, {0, 1}, r.backend, o.threads, o.split_over_processes, o.progress);
    if (base_values.empty()) return r;  // a rank other than the root: its share is with the root
    base_npv = base_values.front().npv_usd[0];
  }
  r.baseline_npv_usd = summarize(base_npv);

  for (const auto& v : values) {
    SizingPoint pt;
    pt.nodes = std::lround(v.grid_values[0]);
    std::size_t field = 1;
    pt.reserved_instances = o.reserved ? std::lround(v.grid_values[field++]) : plan.reserved_instances;
    if (o.commitment) pt.commitment_size = std::lround(v.grid_values[field++]);
    if (o.refresh_months) {
      const long k = std::lround(v.grid_values[field++]);
      if (k < s.horizon_months) pt.refresh_months_after_arrival = k;
    }
    pt.deterministic_npv_usd = v.deterministic_npv_usd[0];
    pt.npv_usd = summarize(v.npv_usd[0]);
    std::vector<double> saving(v.npv_usd[0].size());
    long positive = 0;
    for (std::size_t p = 0; p < saving.size(); ++p) {
      saving[p] = base_npv[p] - v.npv_usd[0][p];
      positive += saving[p] > 0.0 ? 1 : 0;
    }
    pt.saving_usd = summarize(saving, WorstTail::low);  // the worst savings are the lowest
    pt.probability_saving = saving.empty() ? 0.0 : static_cast<double>(positive) / static_cast<double>(saving.size());
    pt.npv_by_path_usd = v.npv_usd[0];
    if (s.workload.tokens) {
      pt.total_by_path_usd = v.total_usd[0];
      if (!v.tokens_served.empty()) pt.tokens_by_path = v.tokens_served[0];
    }
    r.points.push_back(std::move(pt));
  }

  if (s.workload.tokens) {
    // Each point's replicas and $/M tokens, from the point's scenario as written (deterministic).
    parallel_for_index(points, o.threads, [&](long i) {
      const Scenario at = load_scenario_json(grid_point_document(in.grid, in.scenario_doc, i), file, dir, catalog_dir);
      SizingPoint& pt = r.points[static_cast<std::size_t>(i)];
      pt.tokens = sizing_point_tokens(at, 0);
      if (pt.tokens) add_path_usd_per_million_tokens(*pt.tokens, pt.total_by_path_usd, pt.tokens_by_path);
    });
  }

  std::vector<Summary> npv_by_point;
  for (const auto& pt : r.points) npv_by_point.push_back(pt.npv_usd);
  r.best = best_per_measure(npv_by_point);
  r.frontier = efficient_frontier(npv_by_point);
  const std::vector<double>& best_npv = r.points[r.best_for("mean").point].npv_by_path_usd;
  for (auto& pt : r.points) {
    std::vector<double> minus_best(best_npv.size());
    for (std::size_t p = 0; p < best_npv.size(); ++p) minus_best[p] = pt.npv_by_path_usd[p] - best_npv[p];
    pt.minus_best_mean_usd = summarize(minus_best);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace tco
