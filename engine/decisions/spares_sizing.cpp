#include "engine/decisions/spares_sizing.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "engine/decisions/decision_monte_carlo.hpp"
#include "engine/montecarlo/path_worlds.hpp"
#include "models/scenario.hpp"

namespace tco {

namespace {

// The scenario's first plan that owns nodes, or the one named.
int sized_plan_index(const Scenario& s, const std::string& name) {
  for (int k = 0; k < static_cast<int>(s.plans.size()); ++k) {
    const Plan& p = s.plans[k];
    if (name.empty() ? p.onprem && p.onprem_nodes > 0 : p.name == name) return k;
  }
  if (name.empty())
    throw InputError(s.file, "/plans", "expected a plan that owns nodes to size the spares of, found none");
  std::string known;
  for (const auto& p : s.plans) known += (known.empty() ? "" : ", ") + p.name;
  throw InputError("", "--plan", fmt::format("expected the name of a plan ({}), found \"{}\"", known, name));
}

std::string variant_name(const std::string& plan, long spares) { return fmt::format("{} + {} spares", plan, spares); }

}  // namespace

SparesSizingResult optimize_spares(const Json& doc, const std::string& file, const std::string& dir,
                                   const std::string& catalog_dir, const SparesSizingOptions& o) {
  if (o.risk != "mean" && o.risk != "p90" && o.risk != "cvar95")
    throw InputError("", "--risk", fmt::format("expected mean, p90 or cvar95, found \"{}\"", o.risk));
  const Scenario s = load_scenario_json(doc, file, dir, catalog_dir);
  if (!s.jobs)
    throw InputError(s.file, "/jobs",
                     "expected a \"jobs\" section: --spares sizes hot spares in the discrete-event replay, the only "
                     "model where a spare does work (docs/decisions.md)");
  if (draws_uncertain_in_replay(s))
    throw InputError(s.file, "/uncertain",
                     "--spares replays the scenario as written and does not draw its uncertain inputs (run and "
                     "optimize --nodes do): size the spares on a copy without the \"uncertain\" section");
  const int k = sized_plan_index(s, o.plan);
  const Plan& plan = s.plans[k];
  const std::string plan_pointer = "/plans/" + std::to_string(k);
  if (!plan.onprem || plan.onprem_nodes == 0)
    throw InputError("", "--plan", fmt::format("\"{}\" owns no nodes: it has no spares to size", plan.name));
  if (!plan.onprem->spares)
    throw InputError(s.file, plan_pointer + "/onprem/spares",
                     fmt::format("plan \"{}\" has no onprem.spares (swap_h, repair cost) to size the count of", plan.name));

  // The baseline, then the sized plan at each spare count, in one scenario.
  const Plan& baseline = s.plans[s.baseline_index];
  Json variants = doc;
  variants["plans"] = Json::array({doc.at("plans").at(static_cast<std::size_t>(s.baseline_index))});
  for (long spares : o.spares.values()) {
    Json p = doc.at("plans").at(static_cast<std::size_t>(k));
    p["name"] = variant_name(plan.name, spares);
    p["onprem"]["spares"]["nodes"] = spares;
    variants["plans"].push_back(p);
  }
  variants["baseline"] = baseline.name;
  Scenario varied;
  try {
    varied = load_scenario_json(variants, file, dir, catalog_dir);
  } catch (const InputError& e) {
    throw InputError(e.file(), plan_pointer, fmt::format("plan \"{}\" cannot be sized: {}", plan.name, e.message()));
  }

  const MonteCarloRun mc =
      run_monte_carlo(varied, decision_monte_carlo(o.paths, o.seed, o.threads, o.progress, o.split_over_processes));

  SparesSizingResult r;
  r.plan = plan.name;
  r.baseline = baseline.name;
  r.risk = o.risk;
  r.nodes = plan.onprem_nodes;
  r.waiting_priced = s.waiting_usd_per_gpu_hour > 0.0;
  r.paths = mc.paths;
  r.seed = mc.seed;
  if (mc.plans.empty()) return r;  // a rank other than the root: its share is with the root
  const std::vector<double>& base_npv = mc.npv_by_path[0];
  std::vector<Summary> npv_by_point;
  const std::vector<long> counts = o.spares.values();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::vector<double>& npv = mc.npv_by_path[i + 1];
    SparesPoint pt;
    pt.spares = counts[i];
    pt.npv_usd = mc.plans[i + 1].npv_usd;
    std::vector<double> saving(npv.size());
    long positive = 0;
    for (std::size_t p = 0; p < npv.size(); ++p) {
      saving[p] = base_npv[p] - npv[p];
      positive += saving[p] > 0.0 ? 1 : 0;
    }
    pt.saving_usd = summarize(saving, WorstTail::low);
    pt.probability_saving = npv.empty() ? 0.0 : static_cast<double>(positive) / static_cast<double>(npv.size());
    pt.goodput = mc.plans[i + 1].goodput;
    pt.unserved_gpu_hours = mc.plans[i + 1].job_means[job_counter_index("unserved_gpu_hours")];
    npv_by_point.push_back(pt.npv_usd);
    r.points.push_back(std::move(pt));
  }
  r.best = best_per_measure(npv_by_point);
  return r;
}

}  // namespace tco
