#include "engine/montecarlo/monte_carlo.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>

#include <fmt/format.h>

#include "engine/des/batch_draws.hpp"
#include "engine/des/checkpoint.hpp"
#include "engine/des/des_plan.hpp"
#include "engine/des/job_stream.hpp"
#include "engine/des/path_goodput.hpp"
#include "engine/des/trace_limits.hpp"
#include "core/error.hpp"
#include "engine/ledger/commitment_booking.hpp"
#include "engine/ledger/hidden_cost_booking.hpp"
#include "engine/ledger/ownership_costs.hpp"
#include "engine/ledger/refresh_booking.hpp"
#include "core/parallel/process_group.hpp"
#include "core/parallel/rank_errors.hpp"
#include "core/parallel/test_abort_hook.hpp"
#include "core/random/random.hpp"
#include "engine/montecarlo/path_checkpoint.hpp"
#include "engine/montecarlo/path_outcome_codec.hpp"
#include "engine/montecarlo/path_worlds.hpp"
#include "engine/montecarlo/replay_worlds.hpp"
#include "models/next_generation/arrival_draw.hpp"
#include "models/next_generation/next_generation.hpp"

namespace tco {

namespace {

using des::JobCounters;
using des::PathOutcome;

// The JobCounters fields as numbers, in job_counter_names() order.
std::vector<double> counter_values(const JobCounters& c) {
  return {static_cast<double>(c.submitted), static_cast<double>(c.completed),
          static_cast<double>(c.completed_onprem), static_cast<double>(c.completed_reserved),
          static_cast<double>(c.completed_spot), static_cast<double>(c.completed_on_demand),
          static_cast<double>(c.unfinished), static_cast<double>(c.unservable),
          static_cast<double>(c.started), static_cast<double>(c.bursts),
          static_cast<double>(c.spot_requests), static_cast<double>(c.spot_unavailable),
          static_cast<double>(c.preemptions), static_cast<double>(c.fallbacks_to_on_demand),
          static_cast<double>(c.node_failures), static_cast<double>(c.jobs_hit_by_failures),
          static_cast<double>(c.deadline_misses), static_cast<double>(c.deferred),
          c.submitted_gpu_hours, c.lost_gpu_hours, c.waited_gpu_hours,
          c.started > 0 ? c.first_wait_h_sum / static_cast<double>(c.started) : 0.0,
          c.deferred_h_sum, c.unserved_gpu_hours, c.shift_energy_saved_usd, static_cast<double>(c.no_venue_capacity)};
}

// What a plan costs apart from its path: ownership (capex, maintenance, staff, facility,
// residual), the same on every path.
struct PlanFixed {
  Ledger ledger;
  OwnershipSummary ownership;
  FacilityFigures facility;
  std::optional<RefreshFigures> refresh;  // a refreshing plan's (engine/ledger/refresh_booking.hpp)
  double total_usd = 0.0;
  double npv_usd = 0.0;
};

PlanFixed fixed_costs(const Scenario& s, const Plan& plan, std::optional<int> delivery_month = std::nullopt) {
  PlanFixed f;
  f.ledger = Ledger(s.horizon_months);
  f.ownership.depreciation_usd_by_month.assign(s.horizon_months, 0.0);
  if (plan.onprem && plan.onprem_nodes > 0) {
    f.facility = facility_figures(*plan.onprem, owned_nodes(plan));
    if (plan.refresh) {  // its delivery is never drawn (models/onprem/refresh_reader.cpp)
      f.refresh.emplace();
      f.ownership = book_refreshed_ownership(plan, f.facility.racks, s.horizon_months, f.ledger, *f.refresh);
    } else {
      f.ownership = book_ownership_costs(
          *plan.onprem, {owned_nodes(plan), static_cast<double>(f.facility.racks), 1.0, delivery_month, std::nullopt},
          s.horizon_months, f.ledger);
    }
  }
  // Commitments' bills are fixed: prepaid or paid whether used or not (the replay runs jobs on
  // their capacity, engine/des/cloud/committed_pool.hpp).
  if (!plan.commitments.empty()) {
    CommitmentTracker commitments(plan, s.horizon_hours());
    commitments.book(f.ledger, s.discount_rate_per_year, 1.0);
  }
  // The hidden costs: the fixed ones here, the uplifts on the commitments' bills here and on each
  // path's own GPU bill as the paths are reduced (the sum is linear in the bill).
  book_hidden_costs(plan, f.ledger);
  f.total_usd = f.ledger.total_usd();
  f.npv_usd = f.ledger.npv_usd(s.discount_rate_per_year);
  return f;
}

// A plan whose fixed costs differ by path: its delivery slip drawn (models/finance/procurement.hpp),
// or its resale value stepped (or its refresh moved) by a next generation whose arrival month is
// drawn per path. Booked
// once for each (arrival month, delivery month) some path draws, and averaged over the paths for
// the report's mean ledger. Its depreciation tables and facility follow the planned delivery.
struct DrawnFixedCosts {
  std::map<std::pair<int, int>, PlanFixed> by_key;  // (arrival month or -1, delivery month or -1)
  std::map<std::pair<int, int>, long> paths_by_key;
  std::vector<double> month_by_path;  // the drawn delivery months, for the procurement figures

  // `world` is the scenario of the path's arrival month (the base scenario without a drawn one).
  const PlanFixed& at(const Scenario& world, const Plan& plan, int arrival_month, std::optional<int> delivery_month) {
    if (delivery_month) month_by_path.push_back(*delivery_month);
    const std::pair<int, int> key{arrival_month, delivery_month.value_or(-1)};
    ++paths_by_key[key];
    auto it = by_key.find(key);
    if (it == by_key.end()) it = by_key.emplace(key, fixed_costs(world, plan, delivery_month)).first;
    return it->second;
  }

  bool used() const { return !paths_by_key.empty(); }

  PlanFixed mean(const Scenario& s, const PlanFixed& planned) const {
    PlanFixed m = planned;
    m.ledger = Ledger(s.horizon_months);
    long paths = 0;
    for (const auto& [key, count] : paths_by_key) paths += count;
    const auto n = static_cast<double>(paths);
    for (const auto& [key, fixed] : by_key)
      m.ledger.add_scaled(fixed.ledger, static_cast<double>(paths_by_key.at(key)) / n);
    m.total_usd = m.ledger.total_usd();
    m.npv_usd = m.ledger.npv_usd(s.discount_rate_per_year);
    return m;
  }
};

// The delivery figures over the paths (every path alike when the slip is fixed).
ProcurementFigures path_procurement_figures(const Scenario& s, const Plan& plan, const PlanFixed& planned,
                                            const DrawnFixedCosts& drawn, long paths) {
  const OnPremSpec& o = *plan.onprem;
  ProcurementFigures f = procurement_figures(o, planned.ownership, s.horizon_months);
  f.paths = paths;
  if (!o.delivery_drawn()) return f;
  const Summary months = summarize(drawn.month_by_path);
  f.delivery_month_mean = months.mean;
  f.delivery_month_p5 = months.p5;
  f.delivery_month_p50 = months.p50;
  f.delivery_month_p95 = months.p95;
  const auto n = static_cast<double>(drawn.month_by_path.size());
  const auto later = std::count_if(drawn.month_by_path.begin(), drawn.month_by_path.end(),
                                   [&f](double m) { return m > f.planned_delivery_month; });
  const auto past = std::count_if(drawn.month_by_path.begin(), drawn.month_by_path.end(),
                                  [&s](double m) { return m >= s.horizon_months; });
  f.share_later_than_planned = static_cast<double>(later) / n;
  f.share_past_horizon = static_cast<double>(past) / n;
  return f;
}

Ledger operating_ledger(const PathOutcome& o) {
  Ledger l(static_cast<int>(o.cost_by_month.size()));
  for (int m = 0; m < l.months(); ++m)
    for (int c = 0; c < kCategoryCount; ++c)
      if (o.cost_by_month[m][c] != 0.0) l.add(m, category_at(c), o.cost_by_month[m][c], Timing::end_of_month);
  return l;
}

// Running sums over paths (in path order) for the per-plan means.
struct PlanAccumulator {
  std::vector<des::CostRow> cost_by_month;
  std::vector<double> peak_kw_by_month;
  GpuHours gpu_hours;
  double it_kwh = 0.0, facility_kwh = 0.0, throttled_hours = 0.0;
  double onprem_co2_kg = 0.0;  // accrued by the replay with an hourly grid intensity only
  std::vector<double> counters;
  double events = 0.0;
  std::vector<double> commitment_used_gpu_hours;
  std::vector<double> commitment_used_usd;
  std::vector<VenueTotals> venue_totals;

  void add(const PathOutcome& o) {
    if (cost_by_month.empty()) {
      cost_by_month.assign(o.cost_by_month.size(), des::CostRow{});
      peak_kw_by_month.assign(o.peak_facility_kw_by_month.size(), 0.0);
    }
    for (std::size_t m = 0; m < cost_by_month.size(); ++m) {
      for (int c = 0; c < kCategoryCount; ++c) cost_by_month[m][c] += o.cost_by_month[m][c];
      peak_kw_by_month[m] += o.peak_facility_kw_by_month[m];
    }
    gpu_hours += o.gpu_hours;
    it_kwh += o.it_energy_kwh;
    facility_kwh += o.facility_energy_kwh;
    onprem_co2_kg += o.onprem_co2_kg;
    throttled_hours += o.throttled_hours;
    const std::vector<double> v = counter_values(o.jobs);
    if (counters.empty()) counters.assign(v.size(), 0.0);
    for (std::size_t i = 0; i < v.size(); ++i) counters[i] += v[i];
    events += static_cast<double>(o.events);
    if (commitment_used_gpu_hours.empty()) commitment_used_gpu_hours.assign(o.commitment_used_gpu_hours.size(), 0.0);
    for (std::size_t i = 0; i < o.commitment_used_gpu_hours.size(); ++i)
      commitment_used_gpu_hours[i] += o.commitment_used_gpu_hours[i];
    if (commitment_used_usd.empty()) commitment_used_usd.assign(o.commitment_used_usd.size(), 0.0);
    for (std::size_t i = 0; i < o.commitment_used_usd.size(); ++i) commitment_used_usd[i] += o.commitment_used_usd[i];
    if (venue_totals.empty()) venue_totals.resize(o.venue_totals.size());
    for (std::size_t i = 0; i < o.venue_totals.size(); ++i) {
      VenueTotals& t = venue_totals[i];
      t.work_gpu_hours += o.venue_totals[i].work_gpu_hours;
      t.billed_gpu_hours += o.venue_totals[i].billed_gpu_hours;
      t.cost_usd += o.venue_totals[i].cost_usd;
      t.instance_hours += o.venue_totals[i].instance_hours;
      t.launched_instances += o.venue_totals[i].launched_instances;
    }
  }
};

PlanResult mean_plan_result(const Scenario& s, const Plan& plan, const PlanFixed& fixed, const PlanAccumulator& a,
                            long paths) {
  const double n = static_cast<double>(paths);
  PlanResult r;
  r.name = plan.name;
  r.ledger = fixed.ledger;
  for (int m = 0; m < s.horizon_months; ++m)
    for (int c = 0; c < kCategoryCount; ++c)
      if (a.cost_by_month[m][c] != 0.0) r.ledger.add(m, category_at(c), a.cost_by_month[m][c] / n, Timing::end_of_month);
  r.total_usd = r.ledger.total_usd();
  r.npv_usd = r.ledger.npv_usd(s.discount_rate_per_year);
  auto scale = [n](double x) { return x / n; };
  r.gpu_hours = {scale(a.gpu_hours.onprem_busy), scale(a.gpu_hours.onprem_capacity), scale(a.gpu_hours.reserved_used),
                 scale(a.gpu_hours.reserved_paid), scale(a.gpu_hours.spot_billed), scale(a.gpu_hours.on_demand_billed),
                 scale(a.gpu_hours.cloud_work), scale(a.gpu_hours.useful), scale(a.gpu_hours.waited),
                 scale(a.gpu_hours.unserved), scale(a.gpu_hours.api_work)};
  r.it_energy_kwh = a.it_kwh / n;
  r.facility_energy_kwh = a.facility_kwh / n;
  r.peak_facility_kw_by_month.resize(a.peak_kw_by_month.size());
  for (std::size_t m = 0; m < a.peak_kw_by_month.size(); ++m) r.peak_facility_kw_by_month[m] = a.peak_kw_by_month[m] / n;
  r.peak_facility_kw = r.peak_facility_kw_by_month.empty()
                           ? 0.0 : *std::max_element(r.peak_facility_kw_by_month.begin(), r.peak_facility_kw_by_month.end());
  r.throttled_hours = static_cast<int>(std::lround(a.throttled_hours / n));
  r.facility = fixed.facility;
  r.refresh = fixed.refresh;
  r.depreciation_usd_by_month = fixed.ownership.depreciation_usd_by_month;
  r.depreciation_total_usd = fixed.ownership.depreciation_total_usd;
  if (plan.onprem) r.depreciation_views = opted_in_views(*plan.onprem, fixed.ownership);
  if (plan.onprem && plan.onprem_nodes > 0) {
    // An hourly grid intensity: the paths' mean of the grams the replay accrued hour by hour.
    r.co2_onprem_kg = plan.onprem->power.g_co2_series ? a.onprem_co2_kg / n
                                                      : r.facility_energy_kwh * plan.onprem->power.g_co2_per_kwh / 1000.0;
    r.co2_embodied_kg = fixed.ownership.embodied_co2_kg;  // the planned delivery's
    if (r.gpu_hours.onprem_capacity > 0.0) r.onprem_utilization = r.gpu_hours.onprem_busy / r.gpu_hours.onprem_capacity;
  }
  std::vector<VenueTotals> venue_means = a.venue_totals;
  for (VenueTotals& t : venue_means)
    t = {t.work_gpu_hours / n, t.billed_gpu_hours / n, t.cost_usd / n, t.instance_hours / n, t.launched_instances / n};
  if (!plan.venues.empty()) r.venues = venue_figures(plan, venue_means);
  if (plan.cloud)
    r.co2_cloud_kg = venues_change_co2(plan)
                         ? venue_plan_co2_kg(plan, r.gpu_hours.reserved_used, venue_means)
                         : cloud_co2_kg(*plan.cloud, r.gpu_hours.on_demand_billed + r.gpu_hours.spot_billed +
                                                         r.gpu_hours.reserved_used);
  if (!plan.commitments.empty()) {
    std::vector<double> used = a.commitment_used_gpu_hours, used_usd = a.commitment_used_usd;
    for (double& x : used) x /= n;
    for (double& x : used_usd) x /= n;
    r.commitments =
        replayed_commitment_figures(plan, s.horizon_hours(), s.horizon_months, s.discount_rate_per_year, used, used_usd);
  }
  // n/a when nothing useful was served, or so little (1e-320 GPUs) that the ratio overflows.
  if (const double x = r.total_usd / r.gpu_hours.useful; r.gpu_hours.useful > 0.0 && std::isfinite(x))
    r.usd_per_useful_gpu_hour = x;
  return r;
}

// The figures summed over `paths` paths, as means; the goodput of those means (pooled over the
// paths, so that a reader can recompute it from the GPU-hours shown beside it).
GoodputFigures mean_goodput(const GoodputFigures& sums, long paths) {
  const double n = static_cast<double>(paths);
  GoodputFigures g;
  g.useful_gpu_hours = sums.useful_gpu_hours / n;
  g.lost_gpu_hours = sums.lost_gpu_hours / n;
  g.repair_wait_gpu_hours = sums.repair_wait_gpu_hours / n;
  g.node_failures = sums.node_failures / n;
  g.spare_swaps = sums.spare_swaps / n;
  g.goodput = goodput_ratio(g.useful_gpu_hours, g.lost_gpu_hours, g.repair_wait_gpu_hours);
  return g;
}

// One pass over path 0's jobs: unconstrained peak concurrency and per-class sizes.
struct StreamSurvey {
  long jobs = 0;
  double gpu_hours = 0.0;
  double peak_gpus = 0.0;
  std::vector<long> class_jobs, class_preemptible;
  std::vector<double> class_gpus;
};

StreamSurvey survey(const Scenario& s, const des::JobCatalog& catalog, std::uint64_t seed, double growth) {
  StreamSurvey out;
  out.class_jobs.assign(catalog.class_names.size(), 0);
  out.class_preemptible.assign(catalog.class_names.size(), 0);
  out.class_gpus.assign(catalog.class_names.size(), 0.0);
  des::JobStream stream(*s.jobs, catalog, s.calendar, seed, 0, static_cast<double>(s.horizon_hours()), growth);
  using End = std::pair<double, int>;
  std::priority_queue<End, std::vector<End>, std::greater<>> running;
  double concurrent = 0.0;
  des::SimJob j;
  while (stream.next(j)) {
    ++out.jobs;
    out.gpu_hours += j.gpus * j.duration_h;
    ++out.class_jobs[j.job_class];
    out.class_gpus[j.job_class] += j.gpus;
    if (j.preemptible) ++out.class_preemptible[j.job_class];
    while (!running.empty() && running.top().first <= j.submit_h) {
      concurrent -= running.top().second;
      running.pop();
    }
    running.emplace(j.submit_h + j.duration_h, j.gpus);
    concurrent += j.gpus;
    out.peak_gpus = std::max(out.peak_gpus, concurrent);
  }
  return out;
}

double path_growth(const Scenario& s, std::uint64_t seed, std::uint32_t path) {
  const double sigma = s.monte_carlo.demand_growth_sigma_per_year;
  const double g = s.jobs->growth_per_year;
  if (sigma <= 0.0) return g;
  return std::max(-0.99, g + sigma * normal_quantile(uniform(seed, path, RandomSource::demand, 0, 0)));
}

// Refuses a workload no path could replay (kMaxJobsPerPath), at the fastest growth any of the
// paths that may run draws.
void check_job_volume(const Scenario& s, const des::JobCatalog& catalog, std::uint64_t seed, long paths) {
  double growth = s.jobs->growth_per_year;
  if (s.monte_carlo.demand_growth_sigma_per_year > 0.0)
    for (long k = 0; k < paths; ++k) growth = std::max(growth, path_growth(s, seed, static_cast<std::uint32_t>(k)));
  const double horizon_h = static_cast<double>(s.horizon_hours());
  const double jobs = des::upper_jobs_per_path(*s.jobs, catalog, horizon_h, growth);
  if (!(jobs <= des::kMaxJobsPerPath))
    throw InputError(s.file, "/jobs",
                     fmt::format("the workload would generate up to {:.3g} jobs on one path over {:.0f} hours (arrival "
                                 "rates, job durations, trace tiles and growth of {:.4g}/yr); more than {:.0f} million "
                                 "cannot be replayed: check the rates and growth for a unit slip",
                                 jobs, horizon_h, growth, des::kMaxJobsPerPath / 1e6));
}

// A path's jobs, generated once and replayed by every plan, unless they would take more than
// kMaxSharedJobs x 48 bytes (then each plan streams them).
constexpr std::size_t kMaxSharedJobs = 2'000'000;

bool path_jobs(const Scenario& s, const des::JobCatalog& catalog, const des::PathInputs& in,
               std::vector<des::SimJob>& jobs) {
  des::JobStream stream(*s.jobs, catalog, s.calendar, in.seed, in.path, static_cast<double>(s.horizon_hours()),
                        in.growth_per_year);
  des::SimJob j;
  while (stream.next(j)) {
    if (jobs.size() == kMaxSharedJobs) {
      jobs = {};
      return false;
    }
    jobs.push_back(j);
  }
  return true;
}

// The outcomes of this rank's block of a batch, gathered to the root into `results` (indexed by
// the batch's path): rank order is path order.
// Returns the bytes gathered (on the root).
std::size_t gather_outcomes(std::vector<std::vector<PathOutcome>>& results, const IndexBlock& mine) {
  std::string bytes;
  for (long i = mine.begin; i < mine.end; ++i)
    for (const PathOutcome& o : results[i]) append_path_outcome(bytes, o);
  const std::string all = gather_bytes(bytes);
  if (!is_root_process()) return 0;
  std::size_t offset = 0;
  for (std::vector<PathOutcome>& per_plan : results)
    for (PathOutcome& o : per_plan) o = read_path_outcome(all, offset);
  return all.size();
}

// One path's world (engine/montecarlo/path_worlds.hpp): its scenario (in its drawn arrival
// month's world when that is drawn too), its plans prepared for the replay, and its job catalog
// when an input changes the jobs. Built in place and never moved: the prepared plans point into
// the scenario.
struct PathWorld {
  Scenario scenario;
  std::unique_ptr<ReplayPlans> plans;
  std::optional<des::JobCatalog> catalog;
};

std::unique_ptr<PathWorld> path_world(const PathWorlds& worlds, std::uint64_t seed, long path) {
  auto w = std::make_unique<PathWorld>();
  w->scenario = worlds.scenario_of_path(path);
  const Scenario& s = w->scenario;
  if (s.next_generation && s.next_generation->arrival_draw.drawn)
    w->scenario = with_arrival_month(
        s, arrival_month_on_path(s.next_generation->arrival_draw, seed, static_cast<std::uint32_t>(path)));
  w->plans = std::make_unique<ReplayPlans>(w->scenario);
  if (worlds.jobs_drawn) {
    w->catalog = des::build_job_catalog(*w->scenario.jobs);
    des::check_trace_limits(w->scenario, *w->catalog);
    check_job_volume(w->scenario, *w->catalog, seed, path + 1);
  }
  return w;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

const std::vector<std::string>& job_counter_names() {
  static const std::vector<std::string> names = {
      "submitted", "completed", "completed_onprem", "completed_reserved", "completed_spot", "completed_on_demand",
      "unfinished", "unservable", "started", "bursts", "spot_requests", "spot_unavailable", "preemptions",
      "fallbacks_to_on_demand", "node_failures", "jobs_hit_by_failures", "deadline_misses", "deferred",
      "submitted_gpu_hours", "lost_gpu_hours", "waited_gpu_hours", "mean_first_wait_h", "deferred_h",
      "unserved_gpu_hours", "shift_energy_saved_usd", "no_venue_capacity"};
  return names;
}

std::size_t job_counter_index(std::string_view name) {
  const auto& names = job_counter_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::invalid_argument("unknown job counter");
  return static_cast<std::size_t>(it - names.begin());
}

std::vector<McComparisonStats> paired_comparisons(const Scenario& s, const std::vector<std::vector<double>>& npv_by_path,
                                                  const std::vector<std::vector<double>>& nominal_by_path) {
  std::vector<McComparisonStats> out;
  const int baseline = s.baseline_index;
  for (std::size_t k = 0; k < npv_by_path.size(); ++k) {
    if (static_cast<int>(k) == baseline) continue;
    McComparisonStats c;
    c.plan = s.plans[k].name;
    c.baseline = s.plans[baseline].name;
    const std::size_t paths = npv_by_path[k].size();
    std::vector<double> npv_d(paths), nominal_d(paths);
    for (std::size_t p = 0; p < paths; ++p) {
      npv_d[p] = npv_by_path[k][p] - npv_by_path[baseline][p];
      nominal_d[p] = nominal_by_path[k][p] - nominal_by_path[baseline][p];
    }
    c.npv_difference_usd = summarize(npv_d);
    c.nominal_difference_usd = summarize(nominal_d);
    c.p_cheaper = fraction_negative(npv_d);
    out.push_back(std::move(c));
  }
  return out;
}

MonteCarloRun run_monte_carlo(const Scenario& s, const MonteCarloOptions& o) {
  return run_monte_carlo(s, o, PathWorlds{});
}

MonteCarloRun run_monte_carlo(const Scenario& s, const MonteCarloOptions& o, const PathWorlds& path_worlds) {
  if (!s.jobs) throw ModelError("the scenario has no \"jobs\" section: the Monte Carlo replay needs jobs");
  MonteCarloRun mc;
  mc.seed = o.seed.value_or(s.monte_carlo.seed);
  mc.target_ci_usd = o.target_ci_usd;
  const long fixed_paths = o.paths.value_or(s.monte_carlo.paths);
  if (fixed_paths < 1) throw InputError(s.file, "--paths", "expected at least 1 path");
  if (o.target_ci_usd && *o.target_ci_usd <= 0.0) throw InputError(s.file, "--target-ci-usd", "expected a half-width > 0 USD");
  const long ceiling = o.target_ci_usd ? o.path_ceiling : fixed_paths;
  mc.batch_paths = std::max<long>(1, std::min(o.batch_paths, ceiling));

  // Plans whose pools behave alike share one event loop per path (des::simulate_group_jobs), in
  // the world of the path's next-generation arrival month when that is drawn.
  ReplayWorlds worlds(s, mc.seed);
  const des::DesPlans& prepared = worlds.plans(-1).prepared;
  const des::JobCatalog catalog = des::build_job_catalog(*s.jobs);
  des::check_trace_limits(s, catalog);
  const long first = o.first_path;
  if (first < 0 || (first > 0 && !o.checkpoint_dir.empty()))
    throw ModelError("first_path must be >= 0, and 0 with checkpoints (their key does not hold it)");
  check_job_volume(s, catalog, mc.seed, first + ceiling);
  const bool drawn_worlds = static_cast<bool>(path_worlds.scenario_of_path);
  if (drawn_worlds && !o.checkpoint_dir.empty())
    throw InputError(s.file, "--checkpoint-dir",
                     "a scenario of jobs with an \"uncertain\" section replays each path in its own drawn world, "
                     "which the checkpoints' key does not hold: run it without --checkpoint-dir");
  const std::size_t plan_count = s.plans.size();
  std::vector<PlanFixed> fixed;
  for (const Plan& p : s.plans) fixed.push_back(fixed_costs(s, p));
  std::vector<DrawnFixedCosts> drawn(plan_count);
  // Drawn worlds: the sum over the paths of each plan's fixed ledger, for the mean ledger.
  std::vector<Ledger> world_fixed_sums(plan_count, Ledger(s.horizon_months));
  const bool any_spot = std::any_of(prepared.plans.begin(), prepared.plans.end(),
                                    [](const des::DesPlan& d) { return d.spot_allowed; });
  std::vector<PlanAccumulator> acc(plan_count);
  // Goodput, for the plans that opt in with onprem.spares: per path and summed over the paths.
  std::vector<std::vector<double>> goodput_by_path(plan_count);
  std::vector<GoodputFigures> goodput_sums(plan_count);
  auto goodput_reported = [&s](std::size_t k) {
    const Plan& p = s.plans[k];
    return p.onprem && p.onprem->spares && p.onprem_nodes > 0;
  };
  mc.npv_by_path.assign(plan_count, {});
  std::vector<std::vector<double>> nominal_by_path(plan_count);
  const int baseline = s.baseline_index;

  auto max_half_width = [&]() {
    double worst = 0.0;
    const auto n = static_cast<long>(mc.npv_by_path[0].size());
    if (n < 2) return std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < plan_count; ++k) {
      if (static_cast<int>(k) == baseline && plan_count > 1) continue;
      std::vector<double> d(n);
      for (long p = 0; p < n; ++p)
        d[p] = plan_count > 1 ? mc.npv_by_path[k][p] - mc.npv_by_path[baseline][p] : mc.npv_by_path[k][p];
      const Summary sum = summarize(d);
      worst = std::max(worst, sum.ci95_high - sum.mean);
    }
    return worst;
  };

  // Split: more than one rank, or an index shard or its merge (core/parallel/index_shards.hpp).
  const bool split = o.split_over_processes && processes_split();
  const int ranks = split ? process_count() : 1;
  const int rank = split ? process_rank() : 0;
  const bool root = !split || is_root_process();
  const bool checkpointing = !o.checkpoint_dir.empty();
  const std::string checkpoint_key = checkpointing && root ? path_checkpoint_key(s, mc.seed, o) : std::string();
  // With a target half-width, the ceiling is the most there can be: the bar shows it as the total.
  progress_begin(o.progress, ceiling, "paths");
  if (ranks > 1) fail_alone_if_test_asks();
  long done = 0;
  while (done < ceiling) {
    const long batch = std::min(mc.batch_paths, ceiling - done);
    worlds.prepare(first + done, first + done + batch);
    std::vector<std::vector<PathOutcome>> results(batch, std::vector<PathOutcome>(plan_count));
    // A batch that an earlier run of the same key wrote is read by the root; no rank computes it.
    bool from_checkpoint = false;
    if (checkpointing) {
      std::optional<std::vector<std::vector<PathOutcome>>> saved;
      if (root) saved = load_path_checkpoint(o.checkpoint_dir, checkpoint_key, done, done + batch, plan_count);
      from_checkpoint = broadcast_int(saved ? 1 : 0) == 1;
      if (saved) {
        results = std::move(*saved);
        mc.paths_from_checkpoints += batch;
        progress_add(o.progress, batch);
      }
    }
    const IndexBlock mine = index_block(from_checkpoint ? 0 : batch, rank, ranks);
    // The root (or a merge of index shards) prices every path of the batch in its world; another
    // rank, or a shard, needs its own paths'.
    std::vector<std::unique_ptr<PathWorld>> worlds_of_batch(drawn_worlds ? batch : 0);
    if (drawn_worlds)
      parallel_for_index(batch, o.threads, [&](long i) {
        if (root || (i >= mine.begin && i < mine.end)) worlds_of_batch[i] = path_world(path_worlds, mc.seed, first + done + i);
      });
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(1, o.threads))
    for (long i = mine.begin; i < mine.end; ++i) {
      if (progress_cancelled(o.progress)) continue;
      const auto path = static_cast<std::uint32_t>(first + done + i);
      const PathWorld* drawn_world = drawn_worlds ? worlds_of_batch[i].get() : nullptr;
      const int arrival = drawn_world ? -1 : worlds.arrival_month(path);
      const Scenario& world = drawn_world ? drawn_world->scenario : worlds.scenario(arrival);
      const ReplayPlans& replay = drawn_world ? *drawn_world->plans : worlds.plans(arrival);
      const des::JobCatalog& jobs_catalog = drawn_world && drawn_world->catalog ? *drawn_world->catalog : catalog;
      des::PathInputs in{mc.seed, path, path_growth(drawn_world ? world : s, mc.seed, path)};
      in.class_names = &jobs_catalog.class_names;
      std::vector<PathOutcome> per_plan(plan_count);
      // Kept by the thread from path to path: a path's jobs take megabytes, and allocating
      // them afresh every path cost page faults.
      thread_local std::vector<des::SimJob> jobs;
      jobs.clear();
      const bool shared = path_jobs(drawn_world ? world : s, jobs_catalog, in, jobs);
      thread_local std::vector<double> spot_share_u, unused;
      const bool path_spot = drawn_world ? std::any_of(replay.prepared.plans.begin(), replay.prepared.plans.end(),
                                                       [](const des::DesPlan& d) { return d.spot_allowed; })
                                         : any_spot;
      if (shared && path_spot) {
        spot_share_u.resize(jobs.size());
        unused.resize(jobs.size());
        des::uniform_pairs_by_entity(mc.seed, path, RandomSource::spot_availability, 0, static_cast<int>(jobs.size()),
                                     unused.data(), spot_share_u.data());
        in.spot_share_u = spot_share_u.data();
      }
      thread_local des::PathSites sites;
      sites.start_path(mc.seed, path);
      in.sites = &sites;
      for (std::size_t g = 0; g < replay.group_plans.size(); ++g) {
        std::vector<PathOutcome> outcomes = shared ? des::simulate_group_jobs(world, replay.group_plans[g], jobs, in)
                                                   : des::simulate_group_path(world, replay.group_plans[g], jobs_catalog, in);
        const std::vector<int>& members = replay.prepared.pool_groups[g];
        for (std::size_t m = 0; m < members.size(); ++m) per_plan[members[m]] = std::move(outcomes[m]);
      }
      results[i] = std::move(per_plan);
      progress_add(o.progress);
    }
    throw_if_cancelled(o.progress);
    if (split && !from_checkpoint) {
      const auto waiting = std::chrono::steady_clock::now();
      wait_for_every_process();
      mc.root_wait_for_ranks_s += seconds_since(waiting);
    }
    const auto gathering = std::chrono::steady_clock::now();
    if (split && !from_checkpoint) mc.gathered_bytes += gather_outcomes(results, mine);
    if (checkpointing && !from_checkpoint)
      root_does([&] { save_path_checkpoint(o.checkpoint_dir, checkpoint_key, done, done + batch, results); },
                split);
    // The test hook ends a rank once the first batch is gathered (and, with checkpoints, on disk).
    if (ranks > 1 && done == 0) abort_if_test_asks_after_block();
    // Reduce in path order (on the root alone under mpirun).
    for (long i = 0; i < (root ? batch : 0); ++i) {
      const Scenario* world_of_path = drawn_worlds ? &worlds_of_batch[i]->scenario : nullptr;
      for (std::size_t k = 0; k < plan_count; ++k) {
        PathOutcome& out = results[i][k];
        const Plan& plan = world_of_path ? world_of_path->plans[k] : s.plans[k];
        if (const HiddenCosts* h = rented_hidden_costs(plan))
          for (des::CostRow& row : out.cost_by_month) add_gpu_bill_uplifts(*h, row);
        const Ledger operating = operating_ledger(out);
        const auto path = static_cast<std::uint32_t>(first + done + i);
        const bool delivery_drawn = plan.onprem && plan.onprem_nodes > 0 && plan.onprem->delivery_drawn();
        const bool resale_drawn = worlds.arrival_drawn() && owned_nodes(plan) > 0 &&
                                  (plan.onprem->resale_step.active() || plan.refresh);
        std::optional<int> delivery;
        if (delivery_drawn)
          delivery = delivered_month(plan.onprem->purchase_month, *plan.onprem->procurement, mc.seed, path);
        const int arrival = resale_drawn ? worlds.arrival_month(path) : -1;
        std::optional<PlanFixed> in_world;
        if (world_of_path) {  // its own fixed costs and discount rate
          in_world = fixed_costs(*world_of_path, plan, delivery);
          world_fixed_sums[k].add_scaled(in_world->ledger, 1.0);
          if (delivery) drawn[k].month_by_path.push_back(*delivery);
        }
        const PlanFixed& f = in_world ? *in_world
                             : delivery_drawn || resale_drawn
                                 ? drawn[k].at(worlds.scenario(arrival), worlds.scenario(arrival).plans[k], arrival,
                                               delivery)
                                 : fixed[k];
        const double rate = world_of_path ? world_of_path->discount_rate_per_year : s.discount_rate_per_year;
        mc.npv_by_path[k].push_back(f.npv_usd + operating.npv_usd(rate));
        nominal_by_path[k].push_back(f.total_usd + operating.total_usd());
        acc[k].add(out);
        mc.total_events += out.events;
        if (goodput_reported(k)) {
          const GoodputFigures g = des::path_goodput(out);
          goodput_by_path[k].push_back(g.goodput);
          des::add_goodput(goodput_sums[k], g);
        }
      }
    }
    done += batch;
    if (split) mc.root_gather_and_statistics_s += seconds_since(gathering);
    if (o.target_ci_usd) {
      if (root) mc.max_comparison_half_width_usd = max_half_width();
      if (broadcast_int(root && mc.max_comparison_half_width_usd <= *o.target_ci_usd ? 1 : 0) == 1) break;
    }
  }
  mc.paths = done;
  if (!root) return mc;
  const auto statistics = std::chrono::steady_clock::now();
  if (o.target_ci_usd && mc.max_comparison_half_width_usd > *o.target_ci_usd)
    throw TargetNotReached(
        fmt::format("--target-ci-usd {}: the path ceiling {} came first; the widest 95% CI half-width of the NPV "
                    "differences is {:.2f} USD after {} paths (raise --path-ceiling or the target)",
                    *o.target_ci_usd, ceiling, mc.max_comparison_half_width_usd, done),
        mc.max_comparison_half_width_usd);
  if (!o.target_ci_usd && done >= 2) mc.max_comparison_half_width_usd = max_half_width();

  // Statistics.
  for (std::size_t k = 0; k < plan_count; ++k) {
    McPlanStats st;
    st.name = s.plans[k].name;
    st.npv_usd = summarize(mc.npv_by_path[k]);
    st.total_nominal_usd = summarize(nominal_by_path[k]);
    st.job_means = acc[k].counters;
    for (double& v : st.job_means) v /= static_cast<double>(done);
    st.events_per_path = acc[k].events / static_cast<double>(done);
    if (goodput_reported(k)) st.goodput = summarize(goodput_by_path[k], WorstTail::low);  // a low goodput is the bad tail
    mc.plans.push_back(std::move(st));
  }
  mc.comparisons = paired_comparisons(s, mc.npv_by_path, nominal_by_path);

  // The mean path as the deterministic report's plans, comparisons and breakevens.
  ScenarioRun& run = mc.run;
  run.warnings = s.warnings;
  const StreamSurvey survey0 = survey(s, catalog, mc.seed, path_growth(s, mc.seed, 0));
  mc.jobs_per_path = survey0.jobs;
  const double submitted = acc[baseline].counters.empty() ? 0.0 : acc[baseline].counters[job_counter_index("submitted_gpu_hours")] / static_cast<double>(done);
  run.demand.gpu_hours = submitted;
  run.demand.mean_gpus = submitted / static_cast<double>(s.horizon_hours());
  run.demand.peak_gpus = survey0.peak_gpus;
  for (std::size_t k = 0; k < plan_count; ++k) {
    const Plan& plan = s.plans[k];
    PlanFixed mean_fixed = drawn[k].used() ? drawn[k].mean(s, fixed[k]) : fixed[k];
    if (drawn_worlds) {
      mean_fixed.ledger = Ledger(s.horizon_months);
      mean_fixed.ledger.add_scaled(world_fixed_sums[k], 1.0 / static_cast<double>(done));
      mean_fixed.total_usd = mean_fixed.ledger.total_usd();
      mean_fixed.npv_usd = mean_fixed.ledger.npv_usd(s.discount_rate_per_year);
    }
    run.plans.push_back(mean_plan_result(s, plan, mean_fixed, acc[k], done));
    if (plan.onprem && plan.onprem_nodes > 0 && plan.onprem->procurement)
      run.plans.back().procurement = path_procurement_figures(s, plan, fixed[k], drawn[k], done);
    if (goodput_reported(k)) run.plans.back().goodput = mean_goodput(goodput_sums[k], done);
    const double unfinished = mc.plans[k].job_means[job_counter_index("unfinished")];
    if (unfinished > 0.0 && !s.plans[k].bursts())
      add_run_warning(run, s, "jobs-unfinished", "/plans/" + std::to_string(k),
           fmt::format("plan \"{}\": {:.1f} jobs per path are still queued or running at the horizon's end "
                       "({:.0f} GPU-hours of work left); the plan does not burst to the cloud",
                       s.plans[k].name, unfinished, mc.plans[k].job_means[job_counter_index("unserved_gpu_hours")]));
    if (mc.plans[k].job_means[job_counter_index("unservable")] > 0.0)
      add_run_warning(run, s, "jobs-unservable", "/plans/" + std::to_string(k),
           fmt::format("plan \"{}\": {:.1f} jobs per path need more GPUs than the on-prem pool holds and the plan "
                       "does not burst: they never run",
                       s.plans[k].name, mc.plans[k].job_means[job_counter_index("unservable")]));
  }
  for (std::size_t k = 0; k < plan_count; ++k) {
    if (static_cast<int>(k) == baseline) continue;
    run.comparisons.push_back(compare(s.plans[k].name, run.plans[k].ledger, s.plans[baseline].name,
                                      run.plans[baseline].ledger, s.discount_rate_per_year));
  }
  run.utilization_breakevens = scenario_utilization_breakevens(s);
  run.recommendation = recommend(s, run.plans, run.demand.gpu_hours, run.utilization_breakevens);
  run.recommended_comparisons = compare_with_recommended(s, run.plans, run.recommendation);

  // Young's checkpoint interval for every class of preemptible jobs, on every plan that uses spot.
  for (std::size_t k = 0; k < plan_count; ++k) {
    const des::DesPlan& d = prepared.plans[k];
    if (!d.spot_allowed) continue;
    const des::SpotMarket market(d.spot, d.spot_trace, mc.seed, 0);
    const double rate = market.rate_per_instance_hour();
    if (rate <= 0.0) continue;
    for (std::size_t c = 0; c < catalog.class_names.size(); ++c) {
      if (survey0.class_preemptible[c] == 0) continue;
      CheckpointAdvice a;
      a.plan = s.plans[k].name;
      a.job_class = catalog.class_names[c];
      a.mean_gpus = survey0.class_gpus[c] / static_cast<double>(survey0.class_jobs[c]);
      a.instances = static_cast<int>(std::ceil(a.mean_gpus / d.gpus_per_instance - 1e-9));
      a.preemptions_per_hour = rate * a.instances;
      a.checkpoint_write_h = d.checkpoint_write_h;
      a.young_interval_h = des::young_interval_h(d.checkpoint_write_h, a.preemptions_per_hour);
      mc.checkpoint_advice.push_back(std::move(a));
    }
  }
  if (split) mc.root_gather_and_statistics_s += seconds_since(statistics);
  return mc;
}

}  // namespace tco
