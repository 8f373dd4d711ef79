#include "engine/decisions/latency_sizing.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "engine/des/serving/plan_latency.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "models/workload/workload.hpp"
#include "models/scenario.hpp"
#include "models/serving/request_workload.hpp"
#include "models/serving/token_demand.hpp"

namespace tco {

namespace {

// The scenario's first plan that owns nodes (or may: a kind other than cloud and api), or the one named.
int latency_plan_index(const Scenario& s, const std::string& name) {
  for (int k = 0; k < static_cast<int>(s.plans.size()); ++k) {
    const Plan& p = s.plans[k];
    if (name.empty() ? p.onprem.has_value() && p.kind != Plan::Kind::api : p.name == name) return k;
  }
  if (name.empty())
    throw InputError(s.file, "/plans", "expected a plan that owns nodes to size the replicas of, found none");
  std::string known;
  for (const auto& p : s.plans) known += (known.empty() ? "" : ", ") + p.name;
  throw InputError("", "--plan", fmt::format("expected the name of a plan ({}), found \"{}\"", known, name));
}

// The fewest nodes whose replicas number at least `replicas` (owned_replicas is floor-linear in N).
long nodes_for_replicas(Plan plan, const TokenDemand& serving, long replicas) {
  long nodes = 0;
  plan.onprem_nodes = 0;
  while (owned_replicas(plan, serving) < replicas) {
    if (++nodes > kMaxSizingCount)
      throw InputError("", "--latency-replicas",
                       fmt::format("{} replicas need more than {} nodes of plan \"{}\"", replicas, kMaxSizingCount,
                                   plan.name));
    plan.onprem_nodes = static_cast<int>(nodes);
  }
  return nodes;
}

const LatencyPathFigure* figure_of(const PlanLatency& l, const std::string& key) {
  for (const LatencyPathFigure& f : l.across_paths)
    if (key == f.key) return &f;
  return nullptr;
}

double mean_of_figure(const LatencyPathFigure* f, long paths) {
  if (!f || f->values.empty()) return 0.0;
  double sum = 0.0;
  for (double v : f->values) sum += v;
  return sum / static_cast<double>(paths);
}

LatencySizingPoint evaluate_point(const Scenario& s, int k, long replicas_asked, long nodes,
                                  std::optional<double> threshold, const LatencySizingOptions& o, long* hours) {
  const Plan& plan = s.plans[static_cast<std::size_t>(k)];
  LatencySizingPoint p;
  p.replicas_asked = replicas_asked;
  p.nodes = nodes;
  p.wait_threshold_s = threshold;
  const std::vector<double> demand = demand_gpus_by_hour(s.workload, s.horizon_hours(), s.calendar);
  p.npv_usd = evaluate_plan(s, plan, demand).npv_usd;
  const TokenHours token_series = token_hours(*s.workload.tokens, s.horizon_hours(), s.calendar);
  const std::optional<PlanLatency> l = plan_latency(s, plan, token_series.tokens);
  if (!l) return p;
  *hours = l->hours;
  p.owned_replicas = l->owned_replicas;
  if (l->replicas == 0) return p;  // no replica serves: no request is within the slo
  p.replay_usd_per_path = mean_of_figure(figure_of(*l, "rented_usd"), l->paths) +
                          mean_of_figure(figure_of(*l, "api_overflow_usd"), l->paths);
  // A path where no request arrived misses nothing: its share counts as 1.
  std::vector<double> shares(static_cast<std::size_t>(l->paths), 1.0);
  const LatencyPathFigure* share = figure_of(*l, "share_within_slo");
  if (share && static_cast<long>(share->values.size()) == l->paths) shares = share->values;
  double lowest = 1.0, sum = 0.0;
  long reaching = 0;
  for (double v : shares) {
    lowest = std::min(lowest, v);
    sum += v;
    reaching += v >= o.slo_share ? 1 : 0;
  }
  p.min_share_within_slo = lowest;
  p.mean_share_within_slo = sum / static_cast<double>(shares.size());
  p.paths_meeting_share = static_cast<double>(reaching) / static_cast<double>(shares.size());
  p.meets = meets_slo_share(shares, o.slo_share, o.probability);
  return p;
}

}  // namespace

bool meets_slo_share(const std::vector<double>& shares, double target, double probability) {
  if (shares.empty()) return false;
  long reaching = 0;
  for (double v : shares) reaching += v >= target ? 1 : 0;
  // Counts, not a division: 3 of 4 paths meet probability 0.75 exactly.
  return static_cast<double>(reaching) >= probability * static_cast<double>(shares.size());
}

LatencySizingResult optimize_latency_replicas(const Json& doc, const std::string& file, const std::string& dir,
                                              const std::string& catalog_dir, const LatencySizingOptions& o) {
  if (!(o.slo_share > 0.0 && o.slo_share <= 1.0))
    throw InputError("", "--slo-share", fmt::format("expected a share in (0, 1], found {}", o.slo_share));
  if (!(o.probability > 0.0 && o.probability <= 1.0))
    throw InputError("", "--slo-probability", fmt::format("expected a probability in (0, 1], found {}", o.probability));
  const Scenario s = load_scenario_json(doc, file, dir, catalog_dir);
  if (!s.workload.requests)
    throw InputError(s.file, "/workload/requests",
                     "expected workload.requests: --latency-replicas sizes the replicas in the request replay "
                     "(docs/decisions.md §19)");
  const int k = latency_plan_index(s, o.plan);
  const Plan& plan = s.plans[static_cast<std::size_t>(k)];
  if (!plan.onprem || plan.kind == Plan::Kind::api || plan.kind == Plan::Kind::cloud)
    throw InputError("", "--plan", fmt::format("\"{}\" owns no nodes: it has no replicas to size", plan.name));
  std::vector<std::optional<double>> thresholds;
  for (double t : o.wait_thresholds_s) {
    if (!s.workload.requests->rented_scaling)
      throw InputError(s.file, "/workload/requests/rented_scaling",
                       "--wait-thresholds-s varies the rented scaling's wait threshold: the scenario has none");
    if (!(t >= 0.0))
      throw InputError("", "--wait-thresholds-s", fmt::format("expected seconds >= 0, found {}", t));
    thresholds.push_back(t);
  }
  if (thresholds.empty())
    thresholds.push_back(s.workload.requests->rented_scaling
                             ? std::optional<double>(s.workload.requests->rented_scaling->wait_threshold_s)
                             : std::nullopt);

  const TokenDemand& serving = plan.serving ? *plan.serving : *s.workload.tokens;
  const std::string plan_pointer = "/plans/" + std::to_string(k);
  LatencySizingResult r;
  r.plan = plan.name;
  r.slo_share = o.slo_share;
  r.probability = o.probability;
  r.paths = s.workload.requests->paths;
  long last_nodes = -1;
  for (long replicas : o.replicas.values()) {
    const long nodes = nodes_for_replicas(plan, serving, replicas);
    if (nodes == last_nodes) continue;
    last_nodes = nodes;
    for (const std::optional<double>& t : thresholds) {
      Json point = doc;
      point["plans"][static_cast<std::size_t>(k)]["onprem_nodes"] = nodes;
      if (t) point["workload"]["requests"]["rented_scaling"]["wait_threshold_s"] = *t;
      Scenario at;
      try {
        at = load_scenario_json(point, file, dir, catalog_dir);
      } catch (const InputError& e) {
        throw InputError(e.file(), plan_pointer,
                         fmt::format("plan \"{}\" cannot be sized at {} nodes: {}", plan.name, nodes, e.message()));
      }
      r.points.push_back(evaluate_point(at, k, replicas, nodes, t, o, &r.hours));
    }
  }
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const LatencySizingPoint& p = r.points[i];
    if (!p.meets) continue;
    if (!r.chosen) {
      r.chosen = i;
      continue;
    }
    const LatencySizingPoint& best = r.points[*r.chosen];
    const bool cheaper = p.npv_usd < best.npv_usd ||
                         (p.npv_usd == best.npv_usd && p.replay_usd_per_path < best.replay_usd_per_path) ||
                         (p.npv_usd == best.npv_usd && p.replay_usd_per_path == best.replay_usd_per_path &&
                          p.wait_threshold_s.value_or(0.0) > best.wait_threshold_s.value_or(0.0));
    if (cheaper) r.chosen = i;
  }
  return r;
}

}  // namespace tco
