#include "engine/decisions/replay_sizing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel_for_index.hpp"
#include "core/progress/progress_counter.hpp"
#include "engine/decisions/decision_monte_carlo.hpp"
#include "engine/decisions/sizing_draws.hpp"
#include "engine/decisions/sizing_search.hpp"
#include "engine/montecarlo/monte_carlo.hpp"

namespace tco {

namespace {

// A field of the plan the grid varies: its pointer under the plan and its values.
struct SizedField {
  std::string pointer;
  std::vector<long> values;
};

// One evaluated point: its NPV per path and the replay's statistics; for a plan that shifts
// time, the deadline misses per path of its twin without shifting on the same paths.
struct Evaluated {
  std::vector<double> npv_by_path_usd;
  McPlanStats stats;
  std::optional<double> twin_deadline_misses;
};

double job_mean(const McPlanStats& p, const char* counter) { return p.job_means[job_counter_index(counter)]; }

// The value of every field at point i (the first field slowest).
std::vector<long> point_values(const std::vector<SizedField>& fields, std::size_t i) {
  std::vector<long> out(fields.size());
  for (std::size_t f = fields.size(); f-- > 0;) {
    out[f] = fields[f].values[i % fields[f].values.size()];
    i /= fields[f].values.size();
  }
  return out;
}

// The root's list of indices on every rank (a collective under mpirun).
std::vector<std::size_t> broadcast_indices(std::vector<std::size_t> v) {
  const int n = broadcast_int(static_cast<int>(v.size()));
  v.resize(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<std::size_t>(broadcast_int(static_cast<int>(x)));
  return v;
}

}  // namespace

SizingResult optimize_replay_sizing(const Json& doc, const std::string& file, const std::string& dir,
                                    const std::string& catalog_dir, const SizingOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  const Scenario s = load_scenario_json(doc, file, dir, catalog_dir);
  SizingResult r = sizing_frame(s, o);
  r.model = "monte_carlo_discrete_event";
  r.randomness = {"the replay's own random inputs (monte_carlo: the jobs and demand growth, spot availability, "
                  "preemptions and prices, node failures, power prices, as the scenario sets them)"};
  const int k = r.plan_index;
  const Plan& plan = s.plans[k];
  const std::string plan_pointer = "/plans/" + std::to_string(k);
  r.max_wait_h = plan.scheduling.max_wait_h;
  // A plan that shifts time replays each point beside its twin without shifting (the report's
  // twin, docs/report.md "Time shifting"), on the same paths: the misses shifting adds are exact.
  const bool shifts = plan.scheduling.time_shift;
  r.weighs_misses_added_by_shifting = shifts;
  const std::size_t plans_per_point = shifts ? 2 : 1;

  std::vector<SizedField> fields = {{"/onprem_nodes", r.node_values}};
  if (o.reserved) fields.push_back({"/reserved_instances", r.reserved_values});
  if (o.commitment) fields.push_back({r.commitment_pointer.substr(plan_pointer.size()), r.commitment_values});
  if (o.refresh_months) fields.push_back({r.refresh_pointer.substr(plan_pointer.size()), r.refresh_values});
  const bool joint = fields.size() > 1;
  std::size_t count = 1;
  for (const auto& f : fields) count *= f.values.size();
  if (o.search == "bracket" && joint)
    throw InputError("", "--search",
                     "the search varies the node count alone: give --search bracket without --reserved, --commitment "
                     "and --refresh-months, or --search all");
  r.search = o.search == "bracket" || (o.search == "auto" && !joint && count > kFullGridNodeCounts) ? "bracket" : "all";

  const SizingDraws draws = sizing_draws(s, r.paths, r.seed);
  if (draws.drawn()) r.randomness.push_back(draws.words());
  std::vector<std::optional<Evaluated>> evaluated(count);
  std::optional<Evaluated> baseline;
  // The plan at each of `indices` (beside the baseline first when asked) in the world `source`:
  // the scenario's document, or a path's drawn one (its uncertain section then spent); a plan
  // that shifts time has each point's twin without shifting right after it.
  auto variants_of = [&](const Json& source, const std::vector<std::size_t>& indices, bool with_baseline) {
    Json variants = source;
    variants.erase("uncertain");
    variants["plans"] = Json::array();
    if (with_baseline) variants["plans"].push_back(source.at("plans").at(static_cast<std::size_t>(s.baseline_index)));
    for (std::size_t i : indices) {
      Json p = source.at("plans").at(static_cast<std::size_t>(k));
      p["name"] = fmt::format("{} @ point {}", plan.name, i);
      const std::vector<long> v = point_values(fields, i);
      for (std::size_t f = 0; f < fields.size(); ++f) p[Json::json_pointer(fields[f].pointer)] = v[f];
      variants["plans"].push_back(p);
      if (!shifts) continue;
      p["name"] = fmt::format("{} @ point {} without shifting", plan.name, i);
      p["scheduling"]["time_shift"] = false;
      variants["plans"].push_back(p);
    }
    variants["baseline"] = variants["plans"].at(0).at("name");
    try {
      return load_scenario_json(variants, file, dir, catalog_dir);
    } catch (const InputError& e) {
      throw InputError(e.file(), plan_pointer, fmt::format("plan \"{}\" cannot be sized: {}", plan.name, e.message()));
    }
  };
  // The replay's plans of one round (the baseline first when asked, then each point and its
  // twin) into `baseline` and `evaluated`.
  auto store = [&](std::vector<Evaluated> slots, const std::vector<std::size_t>& indices, bool with_baseline) {
    const std::size_t first = with_baseline ? 1 : 0;
    if (with_baseline) baseline = std::move(slots[0]);
    for (std::size_t j = 0; j < indices.size(); ++j) {
      Evaluated& e = slots[first + j * plans_per_point];
      if (shifts) e.twin_deadline_misses = job_mean(slots[first + j * plans_per_point + 1].stats, "deadline_misses");
      evaluated[indices[j]] = std::move(e);
    }
  };
  auto evaluate = [&](const std::vector<std::size_t>& indices) {
    const bool with_baseline = !baseline && r.evaluated_order.empty();
    for (std::size_t i : indices) r.evaluated_order.push_back(point_values(fields, i)[0]);
    const std::size_t plans = (with_baseline ? 1 : 0) + indices.size() * plans_per_point;
    std::vector<Evaluated> slots(plans);
    if (!draws.drawn()) {
      const MonteCarloRun mc = run_monte_carlo(
          variants_of(doc, indices, with_baseline),
          decision_monte_carlo(r.paths, r.seed, o.threads, o.progress, o.split_over_processes));
      if (mc.plans.empty()) return;  // a rank other than the root: its share is with the root
      for (std::size_t j = 0; j < plans; ++j) slots[j] = Evaluated{mc.npv_by_path[j], mc.plans[j], std::nullopt};
      store(std::move(slots), indices, with_baseline);
      return;
    }
    // Each path in its own drawn world, one path of the replay there (every rank runs every path).
    std::vector<std::vector<double>> npv(plans, std::vector<double>(static_cast<std::size_t>(r.paths)));
    std::vector<std::vector<std::vector<double>>> means(plans, std::vector<std::vector<double>>(r.paths));
    progress_begin(o.progress, r.paths, "paths");
    parallel_for_index(r.paths, o.threads, [&](long p) {
      Scenario world;
      try {
        world = variants_of(draws.document(doc, p), indices, with_baseline);
      } catch (const InputError& e) {
        throw InputError(e.file(), "/uncertain", fmt::format("{}: {}", draws.describe(p), e.message()));
      }
      MonteCarloOptions one = decision_monte_carlo(1, r.seed, 1, nullptr, false);
      one.first_path = p;
      const MonteCarloRun mc = run_monte_carlo(world, one);
      for (std::size_t j = 0; j < plans; ++j) {
        npv[j][p] = mc.npv_by_path[j][0];
        means[j][p] = mc.plans[j].job_means;
      }
    }, o.progress);
    for (std::size_t j = 0; j < plans; ++j) {
      Evaluated& e = slots[j];
      e.npv_by_path_usd = npv[j];
      e.stats.npv_usd = summarize(npv[j]);
      e.stats.job_means.assign(means[j][0].size(), 0.0);
      for (const auto& m : means[j])  // in path order
        for (std::size_t c = 0; c < m.size(); ++c) e.stats.job_means[c] += m[c];
      for (double& v : e.stats.job_means) v /= static_cast<double>(r.paths);
    }
    store(std::move(slots), indices, with_baseline);
  };

  // The evaluated points in index order, their NPV summaries and whether they meet the limits.
  // A plan that bursts keeps the wait limit by construction (a job waits for the owned pool at
  // most max_wait_h, then leaves for the cloud, whose own retries are not the pool's queue).
  // A plan that shifts time meets them only where shifting adds no miss on average over the paths
  // (the paired mean, shifted - twin; means of whole counts, so 1e-9 only absorbs rounding).
  auto adds_no_misses = [&](const Evaluated& e) {
    return !e.twin_deadline_misses || job_mean(e.stats, "deadline_misses") <= *e.twin_deadline_misses + 1e-9;
  };
  auto meets_limits = [&](const Evaluated& e) {
    return (plan.bursts() || job_mean(e.stats, "mean_first_wait_h") <= r.max_wait_h + 1e-9) &&
           job_mean(e.stats, "deadline_misses") <= job_mean(baseline->stats, "deadline_misses") + 1e-9 &&
           adds_no_misses(e);
  };
  // The points the best are chosen among (empty: all): those that meet the limits; when none
  // does, those where shifting adds no miss; when none of these either, all of them.
  auto choice = [&](const std::vector<const Evaluated*>& points) -> std::pair<std::vector<bool>, std::string> {
    std::vector<bool> meets, no_added;
    for (const Evaluated* e : points) {
      meets.push_back(meets_limits(*e));
      no_added.push_back(adds_no_misses(*e));
    }
    auto any = [](const std::vector<bool>& v) { return std::find(v.begin(), v.end(), true) != v.end(); };
    if (any(meets)) return {meets, "meets_limits"};
    if (shifts && any(no_added)) return {no_added, "no_misses_added_by_shifting"};
    return {{}, "all"};
  };
  auto current_bests = [&]() {
    std::vector<std::size_t> at;
    std::vector<Summary> npv;
    std::vector<const Evaluated*> points;
    for (std::size_t i = 0; i < count && baseline; ++i)
      if (evaluated[i]) {
        at.push_back(i);
        npv.push_back(evaluated[i]->stats.npv_usd);
        points.push_back(&*evaluated[i]);
      }
    std::vector<std::size_t> out;
    if (!at.empty())
      for (const SizingBest& b : best_per_measure(npv, choice(points).first)) out.push_back(at[b.point]);
    return broadcast_indices(out);
  };

  if (r.search == "bracket") {
    const SearchTrace trace = bracket_search(count, evaluate, current_bests);
    r.search_rounds = trace.rounds;
  } else {
    std::vector<std::size_t> all(count);
    for (std::size_t i = 0; i < count; ++i) all[i] = i;
    evaluate(all);
    r.search_rounds = 1;
  }
  if (!baseline) return r;  // a rank other than the root

  const std::vector<double>& base_npv = baseline->npv_by_path_usd;
  r.baseline_npv_usd = baseline->stats.npv_usd;
  r.baseline_deadline_misses = job_mean(baseline->stats, "deadline_misses");
  std::vector<Summary> npv_by_point;
  std::vector<const Evaluated*> points;
  for (std::size_t i = 0; i < count; ++i) {
    if (!evaluated[i]) continue;
    const Evaluated& e = *evaluated[i];
    points.push_back(&e);
    const std::vector<long> v = point_values(fields, i);
    SizingPoint pt;
    pt.nodes = v[0];
    std::size_t f = 1;
    pt.reserved_instances = o.reserved ? v[f++] : plan.reserved_instances;
    if (o.commitment) pt.commitment_size = v[f++];
    if (o.refresh_months && v[f] < s.horizon_months) pt.refresh_months_after_arrival = v[f];
    pt.deterministic_npv_usd = std::nan("");
    pt.npv_usd = e.stats.npv_usd;
    std::vector<double> saving(base_npv.size());
    long positive = 0;
    for (std::size_t p = 0; p < saving.size(); ++p) {
      saving[p] = base_npv[p] - e.npv_by_path_usd[p];
      positive += saving[p] > 0.0 ? 1 : 0;
    }
    pt.saving_usd = summarize(saving, WorstTail::low);
    pt.probability_saving = saving.empty() ? 0.0 : static_cast<double>(positive) / static_cast<double>(saving.size());
    pt.npv_by_path_usd = e.npv_by_path_usd;
    ReplayService service{job_mean(e.stats, "waited_gpu_hours"), job_mean(e.stats, "mean_first_wait_h"),
                          job_mean(e.stats, "unserved_gpu_hours"), job_mean(e.stats, "deadline_misses"),
                          job_mean(e.stats, "bursts"), meets_limits(e), e.twin_deadline_misses, std::nullopt};
    if (e.twin_deadline_misses) service.deadline_misses_added_by_shifting = service.deadline_misses - *e.twin_deadline_misses;
    pt.service = service;
    npv_by_point.push_back(pt.npv_usd);
    r.points.push_back(std::move(pt));
  }
  const auto [eligible, among] = choice(points);
  r.best_chosen_among = among;
  r.limits_met_by_none = among != "meets_limits";
  r.best = best_per_measure(npv_by_point, eligible);
  r.frontier = efficient_frontier(npv_by_point, eligible);
  const std::vector<double>& best_npv = r.points[r.best_for("mean").point].npv_by_path_usd;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    SizingPoint& pt = r.points[i];
    std::vector<double> minus_best(best_npv.size());
    for (std::size_t p = 0; p < best_npv.size(); ++p) minus_best[p] = pt.npv_by_path_usd[p] - best_npv[p];
    pt.minus_best_mean_usd = summarize(minus_best);
    if (joint || i == 0) continue;
    std::vector<double> minus_previous(best_npv.size());
    for (std::size_t p = 0; p < best_npv.size(); ++p)
      minus_previous[p] = pt.npv_by_path_usd[p] - r.points[i - 1].npv_by_path_usd[p];
    pt.minus_previous_usd = summarize(minus_previous);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace tco
