#include "engine/decisions/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include <boost/math/tools/roots.hpp>
#include <fmt/format.h>

#include "engine/des/trace_limits.hpp"
#include "engine/des/job_stream.hpp"
#include "core/error.hpp"
#include "core/parallel/process_group.hpp"
#include "engine/decisions/decision_monte_carlo.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "core/random/random.hpp"

namespace tco {

namespace {

// A path's demand growth rate, as the replay draws it (engine/montecarlo/monte_carlo.cpp's path_growth:
// the same draw, so the same cloned jobs).
double path_growth(const Scenario& s, std::uint64_t seed, std::uint32_t path) {
  const double sigma = s.monte_carlo.demand_growth_sigma_per_year;
  const double g = s.jobs->growth_per_year;
  if (sigma <= 0.0) return g;
  return std::max(-0.99, g + sigma * normal_quantile(uniform(seed, path, RandomSource::demand, 0, 0)));
}

double relative(double fluid, double des) {
  if (fluid == des) return 0.0;
  return (fluid - des) / std::abs(des);
}

// The three fitted factors, in the order they are fitted.
struct Factors {
  double packing = 1.0;        // onprem.packing_efficiency
  double cloud_packing = 1.0;  // cloud.packing_efficiency
  double spot_overhead = 1.0;  // cloud.spot_overhead_factor
};

Plan with_factors(const Plan& plan, const Factors& f) {
  Plan p = plan;
  if (p.onprem) p.onprem->packing_efficiency = f.packing;
  if (p.cloud) {
    p.cloud->packing_efficiency = f.cloud_packing;
    p.cloud->spot_overhead_factor = f.spot_overhead;
  }
  return p;
}

// The fluid model on every path's own demand, averaged over paths (in path order, so the result
// does not depend on the thread count).
struct FluidMeans {
  double npv_usd = 0.0;
  double onprem_busy_gpu_hours = 0.0;
  double spot_billed_gpu_hours = 0.0;
  double on_demand_billed_gpu_hours = 0.0;
  double cloud_work_gpu_hours = 0.0;
  std::vector<double> npv_by_path;
};

FluidMeans fluid_means(const Scenario& s, const Plan& plan, const std::vector<std::vector<double>>& demand_by_path,
                       int threads) {
  const long paths = static_cast<long>(demand_by_path.size());
  std::vector<GpuHours> hours(paths);
  FluidMeans mean;
  mean.npv_by_path.assign(paths, 0.0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(1, threads))
  for (long k = 0; k < paths; ++k) {
    const PlanResult r = evaluate_plan(s, plan, demand_by_path[k]);
    mean.npv_by_path[k] = r.npv_usd;
    hours[k] = r.gpu_hours;
  }
  for (long k = 0; k < paths; ++k) {  // in path order
    mean.npv_usd += mean.npv_by_path[k];
    mean.onprem_busy_gpu_hours += hours[k].onprem_busy;
    mean.spot_billed_gpu_hours += hours[k].spot_billed;
    mean.on_demand_billed_gpu_hours += hours[k].on_demand_billed;
    mean.cloud_work_gpu_hours += hours[k].cloud_work;
  }
  const double n = static_cast<double>(std::max(1L, paths));
  mean.npv_usd /= n;
  mean.onprem_busy_gpu_hours /= n;
  mean.spot_billed_gpu_hours /= n;
  mean.on_demand_billed_gpu_hours /= n;
  mean.cloud_work_gpu_hours /= n;
  return mean;
}

using FluidOf = std::function<FluidMeans(const Factors& factors)>;

// Packing: busy(p) is continuous and non-decreasing in p; toms748 on [kPackingFitMin, 1].
void fit_packing(const FluidOf& fluid, Factors at, double target, FactorFit& fit) {
  auto busy = [&](double p) {
    at.packing = p;
    return fluid(at).onprem_busy_gpu_hours;
  };
  auto gap = [&](double p) { return busy(p) - target; };
  const double tolerance = 1e-9 * std::max(1.0, target);
  const double at_one = gap(1.0);
  if (std::abs(at_one) <= tolerance) {
    fit.status = FactorFit::Status::fitted;
    fit.value = 1.0;
    return;
  }
  if (at_one < 0.0) {
    fit.status = FactorFit::Status::clamped_high;
    fit.value = 1.0;
    fit.note = fmt::format(
        "the replay keeps the on-prem GPUs busier ({:.6g} GPU-hours) than the fluid model can at packing 1 "
        "({:.6g}): checkpoint writes, work lost to failures and re-run, or jobs queued on-prem past their "
        "submission hour; packing kept at 1",
        target, at_one + target);
    return;
  }
  const double at_min = gap(kPackingFitMin);
  if (at_min >= 0.0) {
    fit.status = FactorFit::Status::clamped_low;
    fit.value = kPackingFitMin;
    fit.note = fmt::format("the replay's on-prem busy GPU-hours ({:.6g}) are below what the fluid model serves at "
                           "packing {} ({:.6g}); packing clamped to {}",
                           target, kPackingFitMin, at_min + target, kPackingFitMin);
    return;
  }
  std::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(gap, kPackingFitMin, 1.0, at_min, at_one,
                                                       boost::math::tools::eps_tolerance<double>(45), iterations);
  fit.status = FactorFit::Status::fitted;
  fit.value = 0.5 * (a + b);
}

// The edge of the step where a monotone step function crosses its target, by bisection between
// `over` (gap = billed - target >= 0 there) and `under` (gap < 0), either one the larger x. The
// side nearer the target is kept, the one that does not bill less on a tie. The bisection ends a
// hair from the edge; a value rounded to 4 decimals into the kept step (when the step is that
// wide, and inside [x_min, x_max]) bills the same and does not sit on the edge.
double nearest_step_edge(const std::function<double(double)>& gap, double over, double gap_over, double under,
                         double gap_under, double x_min, double x_max) {
  for (int i = 0; i < 200 && std::abs(over - under) > 1e-12 * std::max(over, under); ++i) {
    const double mid = 0.5 * (over + under);
    const double g = gap(mid);
    if (g >= 0.0) {
      over = mid;
      gap_over = g;
    } else {
      under = mid;
      gap_under = g;
    }
  }
  const bool keep_under = std::abs(gap_under) < std::abs(gap_over);
  const double edge = keep_under ? under : over;
  const double kept_gap = keep_under ? gap_under : gap_over;
  const bool upper = edge > (keep_under ? over : under);
  const double rounded = upper ? std::ceil(edge * 1e4) / 1e4 : std::floor(edge * 1e4) / 1e4;
  return rounded >= x_min && rounded <= x_max && gap(rounded) == kept_gap ? rounded : edge;
}

// A factor whose billed GPU-hours are a monotone step function of it, fitted from `anchor` (the
// value the factor keeps when the fluid model already bills the target there) toward `limit`
// (where it is clamped when even there the fluid model bills less than the target). In between,
// bisection finds the step where billed(x) crosses the target (nearest_step_edge). The notes say
// why a clamp happened, given what the fluid model bills at that end.
void fit_step_factor(const std::function<double(double)>& billed, double target, double anchor, double limit,
                     const std::function<std::string(double billed_at_anchor)>& anchor_note,
                     const std::function<std::string(double billed_at_limit)>& limit_note, FactorFit& fit) {
  const double tolerance = 1e-9 * std::max(1.0, target);
  const double at_anchor = billed(anchor) - target;
  if (at_anchor >= -tolerance) {
    fit.value = anchor;
    if (at_anchor <= tolerance) {
      fit.status = FactorFit::Status::fitted;
    } else {
      fit.status = anchor > limit ? FactorFit::Status::clamped_high : FactorFit::Status::clamped_low;
      fit.note = anchor_note(at_anchor + target);
    }
    return;
  }
  const double at_limit = billed(limit) - target;
  if (at_limit < 0.0) {
    fit.status = limit > anchor ? FactorFit::Status::clamped_high : FactorFit::Status::clamped_low;
    fit.value = limit;
    fit.note = limit_note(at_limit + target);
    return;
  }
  // The limit bills at least the target, the anchor less.
  fit.status = FactorFit::Status::fitted;
  fit.value = nearest_step_edge([&](double x) { return billed(x) - target; }, limit, at_limit, anchor, at_anchor,
                                std::min(anchor, limit), std::max(anchor, limit));
}

// Cloud packing: billed(q) = on-demand billed GPU-hours is a non-increasing step function
// of q (whole instances per hour, of GPUs / q), fitted on [kCloudPackingFitMin, 1] from 1.
void fit_cloud_packing(const FluidOf& fluid, Factors at, double target, double des_ratio, double fluid_work,
                       FactorFit& fit) {
  auto billed = [&](double q) {
    at.cloud_packing = q;
    return fluid(at).on_demand_billed_gpu_hours;
  };
  fit_step_factor(
      billed, target, 1.0, kCloudPackingFitMin,
      [&](double billed_at_one) {
        return fmt::format(
            "the fluid model already bills {:.6g} on-demand GPU-hours per GPU-hour of cloud work at packing 1, more "
            "than the replay's {:.6g} (the replay's jobs fill their instances); packing kept at 1",
            billed_at_one / fluid_work, des_ratio);
      },
      [&](double billed_at_min) {
        return fmt::format("the replay bills {:.6g} on-demand GPU-hours per GPU-hour of cloud work, more than the "
                           "fluid model does at packing {} ({:.6g}); packing clamped to {}",
                           des_ratio, kCloudPackingFitMin, billed_at_min / fluid_work, kCloudPackingFitMin);
      },
      fit);
}

// Spot overhead: the fluid model rounds spot work to whole instances and then bills each
// instance s hours an hour (engine/ledger/hourly/hourly_model.hpp), so billed(s) = s x billed(1): the fitted
// factor is target / billed(1), within [kSpotOverheadMin, kSpotOverheadMax].
void fit_spot_overhead(const FluidOf& fluid, Factors at, double target, FactorFit& fit) {
  at.spot_overhead = 1.0;
  const double billed_at_one = fluid(at).spot_billed_gpu_hours;
  const double tolerance = 1e-9 * std::max(1.0, target);
  const double at_min = kSpotOverheadMin * billed_at_one - target;
  if (at_min >= -tolerance) {
    fit.value = kSpotOverheadMin;
    if (at_min <= tolerance) {
      fit.status = FactorFit::Status::fitted;
    } else {
      fit.status = FactorFit::Status::clamped_low;
      fit.note = fmt::format(
          "the fluid model already bills {:.6g} spot GPU-hours at factor {}, more than the replay's {:.6g} (in the "
          "replay only preemptible jobs use spot, and jobs fall back to on-demand after max_tries or when spot is "
          "unavailable; the fluid model sends spot_share of every hour's overflow to spot); factor kept at {}",
          at_min + target, kSpotOverheadMin, target, kSpotOverheadMin);
    }
    return;
  }
  const double at_max = kSpotOverheadMax * billed_at_one - target;
  if (at_max < 0.0) {
    fit.status = FactorFit::Status::clamped_high;
    fit.value = kSpotOverheadMax;
    fit.note = fmt::format("the replay bills {:.6g} spot GPU-hours, more than the fluid model does at factor {} "
                           "({:.6g}); factor clamped to {}",
                           target, kSpotOverheadMax, at_max + target, kSpotOverheadMax);
    return;
  }
  fit.status = FactorFit::Status::fitted;
  fit.value = target / billed_at_one;
}

}  // namespace

std::string to_string(FactorFit::Status status) {
  switch (status) {
    case FactorFit::Status::not_fitted: return "not_fitted";
    case FactorFit::Status::fitted: return "fitted";
    case FactorFit::Status::clamped_low: return "clamped_low";
    case FactorFit::Status::clamped_high: return "clamped_high";
  }
  return "not_fitted";
}

double PlanCalibration::relative_before() const { return relative(fluid_npv_before_usd, des_npv_usd.mean); }
double PlanCalibration::relative_after() const { return relative(fluid_npv_after_usd, des_npv_usd.mean); }

HourlyJobDemand::HourlyJobDemand(long hours)
    : hours_(hours), partial_(static_cast<std::size_t>(hours), 0.0), whole_step_(static_cast<std::size_t>(hours) + 1, 0.0) {}

void HourlyJobDemand::add(double submit_h, double duration_h, int gpus) {
  const double a = std::max(0.0, submit_h);
  const double b = std::min(static_cast<double>(hours_), submit_h + duration_h);
  if (!(b > a)) return;
  const long ha = static_cast<long>(std::floor(a));
  const long hb = static_cast<long>(std::floor(b));  // may be hours_ (b at the horizon's end)
  if (ha == hb) {
    partial_[ha] += gpus * (b - a);
    return;
  }
  // [a, ha + 1): the first partial hour; [ha + 1, hb): whole hours; [hb, b): the last partial.
  partial_[ha] += gpus * (static_cast<double>(ha + 1) - a);
  if (ha + 1 < hb) {
    whole_step_[ha + 1] += gpus;
    whole_step_[hb] -= gpus;
  }
  if (hb < hours_ && b > static_cast<double>(hb)) partial_[hb] += gpus * (b - static_cast<double>(hb));
}

std::vector<double> HourlyJobDemand::gpus_by_hour() const {
  std::vector<double> out(partial_.size());
  double running = 0.0;
  for (long h = 0; h < hours_; ++h) {
    running += whole_step_[h];
    out[h] = running + partial_[h];
  }
  return out;
}

std::vector<std::vector<double>> job_demand_by_path(const Scenario& s, std::uint64_t seed, long paths, int threads) {
  if (!s.jobs) throw InputError(s.file, "/jobs", "expected a \"jobs\" section (docs/des.md)");
  const long hours = s.horizon_hours();
  const double bytes = static_cast<double>(paths) * static_cast<double>(hours) * sizeof(double);
  if (bytes > 4e9)
    throw ModelError(fmt::format("calibration holds every path's hourly demand: {} paths x {} hours is {:.1f} GB; "
                                 "use fewer --paths",
                                 paths, hours, bytes / 1e9));
  const des::JobCatalog catalog = des::build_job_catalog(*s.jobs);
  des::check_trace_limits(s, catalog);
  std::vector<std::vector<double>> out(static_cast<std::size_t>(paths));
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(1, threads))
  for (long k = 0; k < paths; ++k) {
    const auto path = static_cast<std::uint32_t>(k);
    des::JobStream stream(*s.jobs, catalog, s.calendar, seed, path, static_cast<double>(hours),
                          path_growth(s, seed, path));
    HourlyJobDemand demand(hours);
    des::SimJob job;
    while (stream.next(job)) demand.add(job.submit_h, job.duration_h, job.gpus);
    out[k] = demand.gpus_by_hour();
  }
  return out;
}

std::vector<double> mean_job_demand_by_hour(const Scenario& s, std::uint64_t seed, long paths, int threads) {
  const std::vector<std::vector<double>> by_path = job_demand_by_path(s, seed, paths, threads);
  std::vector<double> sum(static_cast<std::size_t>(s.horizon_hours()), 0.0);
  for (const auto& d : by_path)  // in path order
    for (std::size_t h = 0; h < sum.size(); ++h) sum[h] += d[h];
  for (double& d : sum) d /= static_cast<double>(paths);
  return sum;
}

void require_calibration_jobs(const Scenario& s) {
  if (!s.jobs)
    throw InputError(s.file, "/jobs",
                     "expected a \"jobs\" section: calibration replays the scenario's jobs in the discrete-event model "
                     "and fits the fluid model to it (docs/calibration.md)");
}

CalibrationResult calibrate(const Scenario& s, const CalibrationOptions& o) {
  require_calibration_jobs(s);
  const MonteCarloRun mc =
      run_monte_carlo(s, decision_monte_carlo(o.paths, o.seed, o.threads, o.progress, o.split_over_processes));
  CalibrationResult r;
  r.seed = mc.seed;
  r.paths = mc.paths;
  // The fit is cheap next to the replay: rank 0 does it alone, on the gathered outcomes.
  if (o.split_over_processes && !is_root_process()) return r;
  // The fit's evaluations are not counted: the bar says what it is on instead.
  if (o.progress) o.progress->set_label("fitting the fluid model to the replay");

  const std::vector<std::vector<double>> demand = job_demand_by_path(s, mc.seed, mc.paths, o.threads);
  std::vector<double> mean_demand(static_cast<std::size_t>(s.horizon_hours()), 0.0);
  for (const auto& d : demand)
    for (std::size_t h = 0; h < mean_demand.size(); ++h) mean_demand[h] += d[h];
  for (double& d : mean_demand) {
    d /= static_cast<double>(r.paths);
    r.demand_gpu_hours += d;
    r.demand_peak_gpus = std::max(r.demand_peak_gpus, d);
  }

  for (std::size_t k = 0; k < s.plans.size(); ++k) {
    const Plan& plan = s.plans[k];
    const GpuHours& des_hours = mc.run.plans[k].gpu_hours;
    const FluidOf fluid = [&](const Factors& f) { return fluid_means(s, with_factors(plan, f), demand, o.threads); };
    PlanCalibration c;
    c.name = plan.name;
    c.pointer = "/plans/" + std::to_string(k);
    c.des_npv_usd = mc.plans[k].npv_usd;
    Factors factors;  // the scenario's, then each fitted one in turn
    factors.packing = plan.onprem ? plan.onprem->packing_efficiency : 1.0;
    factors.cloud_packing = plan.cloud ? plan.cloud->packing_efficiency : 1.0;
    factors.spot_overhead = plan.cloud ? plan.cloud->spot_overhead_factor : 1.0;
    const FluidMeans before = fluid(factors);
    c.fluid_npv_before_usd = before.npv_usd;
    c.fluid_npv_on_mean_demand_usd = evaluate_plan(s, plan, mean_demand).npv_usd;

    c.packing.before = c.packing.value = factors.packing;
    c.cloud_packing.before = c.cloud_packing.value = factors.cloud_packing;
    c.spot_overhead.before = c.spot_overhead.value = factors.spot_overhead;
    c.packing.des_gpu_hours = des_hours.onprem_busy;
    c.packing.fluid_before_gpu_hours = before.onprem_busy_gpu_hours;
    c.cloud_packing.des_gpu_hours = des_hours.on_demand_billed;
    c.cloud_packing.fluid_before_gpu_hours = before.on_demand_billed_gpu_hours;
    c.spot_overhead.des_gpu_hours = des_hours.spot_billed;
    c.spot_overhead.fluid_before_gpu_hours = before.spot_billed_gpu_hours;

    if (!plan.onprem || plan.onprem_nodes == 0)
      c.packing.note = "the plan owns no nodes";
    else if (!plan.bursts())
      c.packing.note = "the plan does not burst: the fluid model serves all the work on-prem at any packing that "
                       "keeps up (carrying a backlog), so busy GPU-hours do not identify packing";
    else
      fit_packing(fluid, factors, des_hours.onprem_busy, c.packing);
    factors.packing = c.packing.value;

    // Cloud packing matches billed on-demand GPU-hours per GPU-hour of cloud work, on the fluid
    // model's own cloud work after the on-prem fit (it sends a little less to the cloud than the
    // replay: checkpoint writes and re-runs count as on-prem work). Only where all the replay's
    // cloud work is on-demand: it does not split its cloud work by venue.
    if (!plan.cloud || !plan.bursts()) {
      c.cloud_packing.note = "the plan does not use the cloud";
    } else if (plan.spot_share > 0.0) {
      c.cloud_packing.note = "the plan uses spot: the replay does not split its cloud work between spot and "
                             "on-demand, so billed on-demand GPU-hours per GPU-hour of on-demand work are not "
                             "measured (and on spot, 1 / packing and spot_overhead_factor are the same knob); "
                             "use the packing fitted for an on-demand plan of the same jobs and offer";
    } else if (plan.reserved_instances > 0) {
      c.cloud_packing.note = "the plan holds reserved instances: the replay does not split its cloud work between "
                             "the reserved pool and on-demand or spot, so billed GPU-hours per GPU-hour of work do "
                             "not identify packing";
    } else {
      const double fluid_work = fluid(factors).cloud_work_gpu_hours;
      if (des_hours.cloud_work <= 0.0 || fluid_work <= 0.0) {
        c.cloud_packing.note = "no cloud work (in the replay or the fluid model) to measure packing on";
      } else {
        c.cloud_packing.des_ratio = des_hours.on_demand_billed / des_hours.cloud_work;
        fit_cloud_packing(fluid, factors, c.cloud_packing.des_ratio * fluid_work, c.cloud_packing.des_ratio,
                          fluid_work, c.cloud_packing);
      }
    }
    factors.cloud_packing = c.cloud_packing.value;

    if (!plan.cloud || plan.spot_share <= 0.0 || !plan.bursts())
      c.spot_overhead.note = "the plan uses no spot";
    else
      fit_spot_overhead(fluid, factors, des_hours.spot_billed, c.spot_overhead);
    factors.spot_overhead = c.spot_overhead.value;

    const FluidMeans after = fluid(factors);
    c.fluid_npv_after_usd = after.npv_usd;
    c.packing.fluid_after_gpu_hours = after.onprem_busy_gpu_hours;
    c.spot_overhead.fluid_after_gpu_hours = after.spot_billed_gpu_hours;
    c.cloud_packing.fluid_after_gpu_hours = after.on_demand_billed_gpu_hours;
    if (after.cloud_work_gpu_hours > 0.0)
      c.cloud_packing.fluid_ratio_after = c.cloud_packing.fluid_after_gpu_hours / after.cloud_work_gpu_hours;
    c.des_on_demand_billed_gpu_hours = des_hours.on_demand_billed;
    c.fluid_on_demand_billed_after_gpu_hours = after.on_demand_billed_gpu_hours;
    c.des_cloud_work_gpu_hours = des_hours.cloud_work;
    c.fluid_cloud_work_after_gpu_hours = after.cloud_work_gpu_hours;
    // Paired over paths (the same jobs on both sides): fluid - DES.
    std::vector<double> before_minus_des(r.paths), after_minus_des(r.paths);
    for (long p = 0; p < r.paths; ++p) {
      before_minus_des[p] = before.npv_by_path[p] - mc.npv_by_path[k][p];
      after_minus_des[p] = after.npv_by_path[p] - mc.npv_by_path[k][p];
    }
    c.difference_before_usd = summarize(before_minus_des);
    c.difference_after_usd = summarize(after_minus_des);

    c.merge_patch = Json::object();
    if (c.packing.status != FactorFit::Status::not_fitted)
      c.merge_patch["onprem"] = {{"packing_efficiency", c.packing.value}};
    if (c.cloud_packing.status != FactorFit::Status::not_fitted)
      c.merge_patch["cloud"]["packing_efficiency"] = c.cloud_packing.value;
    if (c.spot_overhead.status != FactorFit::Status::not_fitted)
      c.merge_patch["cloud"]["spot_overhead_factor"] = c.spot_overhead.value;
    r.plans.push_back(std::move(c));
  }
  return r;
}

namespace {

Json fit_json(const FactorFit& f, const char* matched) {
  Json j = {{"status", to_string(f.status)},
            {"before", f.before},
            {"value", f.value},
            {"matched", matched},
            {"des_gpu_hours", f.des_gpu_hours},
            {"fluid_before_gpu_hours", f.fluid_before_gpu_hours},
            {"fluid_after_gpu_hours", f.fluid_after_gpu_hours}};
  j["note"] = f.note.empty() ? Json(nullptr) : Json(f.note);
  return j;
}

Json cloud_packing_json(const FactorFit& f) {
  Json j = fit_json(f, "billed on-demand GPU-hours per GPU-hour of cloud work");
  j["des_billed_per_cloud_work"] = f.des_ratio > 0.0 ? Json(f.des_ratio) : Json(nullptr);
  j["fluid_after_billed_per_cloud_work"] = f.fluid_ratio_after > 0.0 ? Json(f.fluid_ratio_after) : Json(nullptr);
  return j;
}

}  // namespace

Json calibration_json(const Scenario& s, const CalibrationResult& r) {
  Json plans = Json::array();
  for (const auto& c : r.plans) {
    plans.push_back({{"name", c.name},
                     {"pointer", c.pointer},
                     {"des_npv_usd", {{"mean", c.des_npv_usd.mean},
                                      {"stderr", c.des_npv_usd.stderr_},
                                      {"ci95_half_width", c.des_half_width_usd()}}},
                     {"fluid_npv_before_usd", c.fluid_npv_before_usd},
                     {"fluid_npv_after_usd", c.fluid_npv_after_usd},
                     {"fluid_npv_on_mean_demand_usd", c.fluid_npv_on_mean_demand_usd},
                     {"relative_disagreement_before", c.relative_before()},
                     {"relative_disagreement_after", c.relative_after()},
                     {"packing_efficiency", fit_json(c.packing, "on-prem busy GPU-hours")},
                     {"cloud_packing_efficiency", cloud_packing_json(c.cloud_packing)},
                     {"spot_overhead_factor", fit_json(c.spot_overhead, "billed spot GPU-hours")},
                     {"on_demand_billed_gpu_hours", {{"des", c.des_on_demand_billed_gpu_hours},
                                                     {"fluid_after", c.fluid_on_demand_billed_after_gpu_hours}}},
                     {"cloud_work_gpu_hours", {{"des", c.des_cloud_work_gpu_hours},
                                               {"fluid_after", c.fluid_cloud_work_after_gpu_hours}}},
                     {"paired_difference_usd",
                      {{"before", {{"mean", c.difference_before_usd.mean},
                                   {"ci95_half_width", c.difference_before_usd.ci95_high - c.difference_before_usd.mean}}},
                       {"after", {{"mean", c.difference_after_usd.mean},
                                  {"ci95_half_width", c.difference_after_usd.ci95_high - c.difference_after_usd.mean}}}}},
                     {"merge_patch", c.merge_patch}});
  }
  return {{"calibration_version", 1},
          {"tool_version", TCO_VERSION},
          {"scenario", {{"file", s.file}, {"name", s.name}, {"digest_sha256", s.scenario_digest_sha256}}},
          {"seed", r.seed},
          {"paths", r.paths},
          {"horizon_hours", s.horizon_hours()},
          {"demand", {{"gpu_hours_per_path", r.demand_gpu_hours}, {"peak_gpus_of_mean", r.demand_peak_gpus}}},
          {"how_to_apply",
           "merge each plan's merge_patch into the plan object at its pointer (RFC 7386 JSON merge patch); a plan's "
           "\"onprem\" and \"cloud\" objects patch the scenario's sections"},
          {"plans", plans}};
}

}  // namespace tco
