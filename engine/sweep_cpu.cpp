// The CPU backend of the sweep (engine/sweep_backend.hpp). OpenMP spreads the (point, path)
// items over threads; each item's results go to their own slots, so the numbers do not depend
// on the thread count or the schedule. One path runs month by month: the month's per-hour draws
// (spot words, preemption words, ambient normals) are laid out once for all plans, then each
// plan's hours go through sweep_hour_usd (step_hour) eight hours at a time in independent lanes,
// which the compiler turns into vector code. The month's cost is the lanes' sums added in a
// fixed order: the same bits on every machine (this file is compiled without FMA contraction;
// see cmake/cuda.cmake), within 1e-12 of sweep_plan_path's hour-by-hour sum.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "engine/error.hpp"
#include "engine/sweep_backend.hpp"

// Vector clones for AVX-512 and AVX2 machines, chosen at run time (GCC on x86-64).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TCO_SWEEP_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define TCO_SWEEP_INLINE inline __attribute__((always_inline))
#define TCO_SWEEP_FLAT __attribute__((flatten, noinline))
#else
#define TCO_SWEEP_FLAT
#define TCO_SWEEP_CLONES
#define TCO_SWEEP_INLINE inline
#endif

namespace tco {

namespace {

constexpr int kLanes = 8;
constexpr int kTile = kSweepMonthHours;

// Per-thread buffers for one path's month (no allocation inside the loop).
struct PathTiles {
  std::vector<double> failure;
  double growth_step[kTile];
  double growth[kTile];
  std::uint32_t spot_words[kTile + 8];
  std::uint32_t preemption_words[kTile + 8];
  double u[kTile];
  double z[kTile];
  double ones[kTile];
  double zeros[kTile];
  double nodes[kTile];
  double spot_available[kTile];
  double preemption[kTile];
  double pue[kTile];
  double work_rate[kTile];
  double fresh[kTile];
  double carried[kTile];
  double down[kTile];
};

// One plan's inputs for the hours of one month (pointers already at the month's first hour).
struct MonthInputs {
  const double* demand;
  const double* growth;
  const double* nodes_up;
  const double* work_rate;
  const double* pue;
  const double* usd_per_kwh;
  const double* cloud_factor;
  const double* spot_available;
  const double* preemption;
  double power_mult;
  double spot_mult;
};

TCO_SWEEP_INLINE HourInputs hour_inputs(const MonthInputs& a, int j) {
  HourInputs in;
  in.demand_gpus = a.demand[j] * a.growth[j];
  in.nodes_up = a.nodes_up[j];
  in.work_rate = a.work_rate[j];
  in.pue = a.pue[j];
  in.usd_per_kwh = a.usd_per_kwh[j] * a.power_mult;
  in.cloud_price_factor = a.cloud_factor[j];
  in.spot_available = a.spot_available[j];
  in.spot_preemption_factor = a.preemption[j];
  in.spot_price_multiplier = a.spot_mult;
  return in;
}

// The month's hours of one plan in eight independent lanes, summed in a fixed order (the lane of
// hour j is j mod 8). `carried` is the backlog each hour starts with (a plan that does not
// burst), or null (none).
template <typename Divide>
TCO_SWEEP_INLINE void lanes_month(const SweepPlanParams& p, const MonthInputs& a, int n,
                                  const double* __restrict carried, double& usd, double& peak_kw, Divide divide) {
  double acc[kLanes] = {};
  double top[kLanes] = {};
  int j0 = 0;
  for (; j0 + kLanes <= n; j0 += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      double backlog = carried ? carried[j0 + l] : 0.0;
      double kw = 0.0;
      acc[l] += sweep_hour_usd(p, hour_inputs(a, j0 + l), backlog, kw, divide);
      top[l] = top[l] > kw ? top[l] : kw;
    }
  }
  for (int l = 0; j0 + l < n; ++l) {
    double backlog = carried ? carried[j0 + l] : 0.0;
    double kw = 0.0;
    acc[l] += sweep_hour_usd(p, hour_inputs(a, j0 + l), backlog, kw, divide);
    top[l] = top[l] > kw ? top[l] : kw;
  }
  usd = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  peak_kw = 0.0;
  for (double kw : top) peak_kw = peak_kw > kw ? peak_kw : kw;
}

// A bursting plan's hours are independent. (A local copy that says it bursts: the branch folds
// away and every load is from the stack, so the compiler can run the lanes as one vector.)
template <typename Divide>
TCO_SWEEP_INLINE void bursting_month(const SweepPlanParams& plan, const MonthInputs& a, int n, double& usd,
                                     double& peak_kw, Divide divide) {
  SweepPlanParams p = plan;
  p.fleet.bursts = 1;
  lanes_month(p, a, n, nullptr, usd, peak_kw, divide);
}

// A plan that does not burst carries its backlog from hour to hour, but most hours start with
// none. So: the backlog each hour would leave if it started with none, for all hours at once
// (vectorised); then a light sequential pass that steps exactly only the hours that start with
// a backlog; then the costs, vectorised. The same bits as stepping hour after hour.
template <typename Divide>
TCO_SWEEP_INLINE void backlog_month(const SweepPlanParams& plan, const MonthInputs& a, int n, double& backlog,
                                    double* __restrict fresh, double* __restrict carried, double& usd,
                                    double& peak_kw, Divide divide) {
  SweepPlanParams p = plan;
  p.fleet.bursts = 0;
  for (int j = 0; j < n; ++j) fresh[j] = step_hour(p.fleet, hour_inputs(a, j), 0.0, divide).backlog_gpu_hours;
  // Out of line and cold, so that the common hour (no backlog) is a load, not a division chain.
  const auto carry = [&](int j, double from) __attribute__((noinline, cold)) {
    return step_hour(p.fleet, hour_inputs(a, j), from, divide).backlog_gpu_hours;
  };
  double b = backlog;
  for (int j = 0; j < n; ++j) {
    carried[j] = b;
    if (b == 0.0)
      b = fresh[j];
    else
      b = carry(j, b);
  }
  backlog = b;
  lanes_month(p, a, n, carried, usd, peak_kw, divide);
}

// One plan's month, with the division the plan's constants allow (the same bits either way).
TCO_SWEEP_INLINE void plan_month(const SweepPlanParams& p, const MonthInputs& a, int n, double& backlog,
                                 PathTiles& t, double& usd, double& peak_kw) {
  if (p.fleet.bursts) {
    if (p.power_of_two_divisors)
      bursting_month(p, a, n, usd, peak_kw, PowerOfTwoDivision{});
    else
      bursting_month(p, a, n, usd, peak_kw, PlainDivision{});
  } else {
    if (p.power_of_two_divisors)
      backlog_month(p, a, n, backlog, t.fresh, t.carried, usd, peak_kw, PowerOfTwoDivision{});
    else
      backlog_month(p, a, n, backlog, t.fresh, t.carried, usd, peak_kw, PlainDivision{});
  }
}

// Nodes up in hours h0 .. h0 + n - 1 from the sorted failure times: each failure adds its
// node-hours down to the hours it touches, in the failures' order (the same sums as
// sweep_nodes_down, hour by hour). `first` skips the failures repaired before h0.
TCO_SWEEP_INLINE void fill_nodes_up(const double* starts, int count, double repair_h, double nodes, long h0, int n,
                                    int& first, double* __restrict down, double* __restrict out) {
  for (int j = 0; j < n; ++j) down[j] = 0.0;
  const double month_begin = static_cast<double>(h0);
  const double month_end = static_cast<double>(h0 + n);
  while (first < count && starts[first] + repair_h <= month_begin) ++first;
  for (int i = first; i < count && starts[i] < month_end; ++i) {
    const double s = starts[i];
    const double e = s + repair_h;
    for (long hour = std::max(h0, static_cast<long>(std::floor(s))); hour < h0 + n && static_cast<double>(hour) < e;
         ++hour) {
      const double hour_begin = static_cast<double>(hour);
      const double hour_end = hour_begin + 1.0;
      down[hour - h0] += (e < hour_end ? e : hour_end) - (s > hour_begin ? s : hour_begin);
    }
  }
  for (int j = 0; j < n; ++j) out[j] = nodes - down[j];
}

// The words of hours h0 .. h0 + n - 1 of a per-hour source (4 hours per Philox block): the
// blocks are drawn in one loop that the compiler vectorises; returns where hour h0's word is.
// (Flattened, so that Philox is inlined and the loop vectorised, in each clone.)
TCO_SWEEP_CLONES TCO_SWEEP_FLAT const std::uint32_t* fill_hour_words(std::uint64_t seed, std::uint32_t path, RandomSource source,
                                                      long h0, int n, std::uint32_t* __restrict words) {
  const std::uint32_t first = static_cast<std::uint32_t>(h0 >> 2);
  const int blocks = static_cast<int>(((h0 + n - 1) >> 2) - (h0 >> 2)) + 1;
  for (int b = 0; b < blocks; ++b) {
    const PhiloxWords w = sweep_block(seed, path, source, 0u, first + static_cast<std::uint32_t>(b));
    words[4 * b] = w.v[0];
    words[4 * b + 1] = w.v[1];
    words[4 * b + 2] = w.v[2];
    words[4 * b + 3] = w.v[3];
  }
  return words + (h0 & 3);
}

// The ambient uniforms of hours h0 .. h0 + n - 1 (one Philox block per hour, vectorised), then
// their normal quantiles.
TCO_SWEEP_CLONES TCO_SWEEP_FLAT void fill_ambient_uniforms(std::uint64_t seed, std::uint32_t path, long h0, int n, double* __restrict z) {
  for (int j = 0; j < n; ++j)
    z[j] = uniform(seed, path, RandomSource::ambient, static_cast<std::uint32_t>(h0 + j), 0u);
}

// Phi^-1 of the uniforms: the central piece for every hour (vectorised), then the tails
// (|u - 0.5| > 0.425, 15 % of hours) one by one; the same bits as normal_quantile.
TCO_SWEEP_INLINE void fill_ambient_z(std::uint64_t seed, std::uint32_t path, long h0, int n, double* __restrict u,
                                     double* __restrict z) {
  fill_ambient_uniforms(seed, path, h0, n, u);
  for (int j = 0; j < n; ++j) z[j] = normal_quantile_central(u[j] - 0.5);
  for (int j = 0; j < n; ++j)
    if (std::fabs(u[j] - 0.5) > 0.425) z[j] = normal_quantile_tail(u[j]);
}

// Every plan of one point on one path; returns a SweepStatus.
TCO_SWEEP_CLONES
int evaluate_path(const SweepPointHeader& pt, const SweepPlanParams* plans, const double* data, std::uint32_t path,
                  PathTiles& t, double* npv_out, double* total_out) {
  constexpr int kMaxPlans = 64;
  const int plan_count = pt.plan_count;
  const std::uint64_t seed = pt.seed;
  double backlog[kMaxPlans];
  int first_failure[kMaxPlans];
  int failures[kMaxPlans];
  bool spot_random[kMaxPlans];
  bool need_spot_words = false;
  bool need_z = false;
  for (int i = 0; i < plan_count; ++i) {
    const SweepPlanParams& p = plans[i];
    backlog[i] = 0.0;
    first_failure[i] = 0;
    failures[i] = 0;
    npv_out[i] = 0.0;
    total_out[i] = 0.0;
    if (p.failure_nodes > 0) {
      failures[i] = sweep_failure_starts(p, pt.hours, seed, path, t.failure.data() + p.failure_offset);
      if (failures[i] < 0) return kSweepFailureOverflow;
    }
    spot_random[i] = p.fleet.bursts && p.fleet.spot_share > 0.0 &&
                     (p.spot_unavailable_below > 0u || p.preemption_levels > 0);
    need_spot_words = need_spot_words || spot_random[i];
    need_z = need_z || p.ambient_c_offset >= 0;
  }
  const double lambda = sweep_growth_lambda_per_h(pt, path);
  if (lambda != 0.0)
    for (int j = 0; j < kTile; ++j) t.growth_step[j] = std::exp(lambda * static_cast<double>(j));

  for (int m = 0; m < pt.months; ++m) {
    const long h0 = static_cast<long>(m) * kTile;
    const int n = static_cast<int>(std::min<long>(kTile, pt.hours - h0));
    if (lambda != 0.0) {
      const double growth_m = std::exp(lambda * static_cast<double>(h0));
      for (int j = 0; j < n; ++j) t.growth[j] = growth_m * t.growth_step[j];
    }
    const std::uint32_t* spot_words = nullptr;
    const std::uint32_t* preemption_words = nullptr;
    if (need_spot_words) {
      spot_words = fill_hour_words(seed, path, RandomSource::spot_availability, h0, n, t.spot_words);
      preemption_words = fill_hour_words(seed, path, RandomSource::preemption, h0, n, t.preemption_words);
    }
    if (need_z) fill_ambient_z(seed, path, h0, n, t.u, t.z);

    for (int i = 0; i < plan_count; ++i) {
      const SweepPlanParams& p = plans[i];
      MonthInputs a;
      a.demand = data + pt.demand_offset + h0;
      a.growth = lambda != 0.0 ? t.growth : t.ones;
      a.power_mult = sweep_month_multiplier(seed, path, RandomSource::power_price, m, p.power_price_sigma);
      a.spot_mult = sweep_month_multiplier(seed, path, RandomSource::spot_price, m, p.spot_price_sigma);
      const double nodes = h0 >= p.nodes_from_hour ? p.nodes : 0.0;
      if (failures[i] > 0 && nodes > 0.0) {
        fill_nodes_up(t.failure.data() + p.failure_offset, failures[i], p.repair_h, nodes, h0, n, first_failure[i],
                      t.down, t.nodes);
      } else {
        std::fill(t.nodes, t.nodes + n, nodes);
      }
      a.nodes_up = t.nodes;
      if (p.pue_offset >= 0) {
        a.usd_per_kwh = data + p.usd_per_kwh_offset + h0;
        if (p.ambient_c_offset >= 0) {
          const SweepPlanParams q = p;  // a stack copy: the loop's loads cannot fault, so it vectorises
          const double* ambient_c = data + p.ambient_c_offset + h0;
          for (int j = 0; j < n; ++j) sweep_apply_ambient(q, ambient_c[j], t.z[j], t.pue[j], t.work_rate[j]);
          a.pue = t.pue;
          a.work_rate = t.work_rate;
        } else {
          a.pue = data + p.pue_offset + h0;
          a.work_rate = data + p.work_rate_offset + h0;
        }
      } else {
        a.usd_per_kwh = t.zeros;
        a.pue = t.ones;
        a.work_rate = t.ones;
      }
      a.cloud_factor = p.cloud_factor_offset >= 0 ? data + p.cloud_factor_offset + h0 : t.ones;
      if (spot_random[i]) {
        const SweepPlanParams q = p;
        for (int j = 0; j < n; ++j) t.spot_available[j] = sweep_spot_available(q, spot_words[j]);
        for (int j = 0; j < n; ++j) t.preemption[j] = sweep_preemption_factor(q, preemption_words[j]);
        a.spot_available = t.spot_available;
        a.preemption = t.preemption;
      } else {
        a.spot_available = t.ones;
        a.preemption = t.ones;
      }
      double usd = 0.0;
      double peak_kw = 0.0;
      plan_month(p, a, n, backlog[i], t, usd, peak_kw);
      const double month_usd = sweep_month_usd(p, data, m, usd, peak_kw);
      npv_out[i] += month_usd * data[pt.discount_offset + m];
      total_out[i] += month_usd;
    }
  }
  for (int i = 0; i < plan_count; ++i) {
    npv_out[i] += plans[i].fixed_npv_usd;
    total_out[i] += plans[i].fixed_total_usd;
  }
  return kSweepOk;
}

std::unique_ptr<PathTiles> make_tiles(int failure_scratch) {
  auto t = std::make_unique<PathTiles>();
  t->failure.assign(static_cast<std::size_t>(failure_scratch), 0.0);
  std::fill(std::begin(t->ones), std::end(t->ones), 1.0);
  std::fill(std::begin(t->zeros), std::end(t->zeros), 0.0);
  std::fill(std::begin(t->growth), std::end(t->growth), 1.0);
  return t;
}

}  // namespace

SweepPathValues run_sweep_cpu(const SweepChunk& chunk, long paths, int threads, const SweepProgress& progress) {
  SweepPathValues out;
  out.paths = paths;
  const std::size_t slots = chunk.plans.size() * static_cast<std::size_t>(paths);
  out.npv_usd.assign(slots, 0.0);
  out.total_usd.assign(slots, 0.0);
  for (const auto& pt : chunk.points)
    if (pt.plan_count > 64) throw ModelError("the sweep handles at most 64 plans per scenario");
  const long points = static_cast<long>(chunk.points.size());
  const long items = points * paths;
  std::atomic<long> done{0};
  std::atomic<int> status{kSweepOk};
  long last_reported = 0;
#if defined(_OPENMP)
  const int team = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(team)
#endif
  {
    const std::unique_ptr<PathTiles> tiles = make_tiles(chunk.max_failure_scratch);
#if defined(_OPENMP)
#pragma omp for schedule(dynamic, 16)
#endif
    for (long item = 0; item < items; ++item) {
      const long point = item / paths;
      const long path = item % paths;
      const SweepPointHeader& pt = chunk.points[point];
      const std::size_t slot = out.index(pt, path, 0);
      const int s = evaluate_path(pt, chunk.plans.data() + pt.first_plan, chunk.data.data(),
                                  static_cast<std::uint32_t>(path), *tiles, out.npv_usd.data() + slot,
                                  out.total_usd.data() + slot);
      if (s != kSweepOk) status.store(s);
      const long finished = done.fetch_add(1) + 1;
#if defined(_OPENMP)
      const bool reporter = omp_get_thread_num() == 0;
#else
      const bool reporter = true;
#endif
      if (progress && reporter && finished - last_reported >= 64) {
        last_reported = finished;
        progress(finished);
      }
    }
  }
  if (status.load() == kSweepFailureOverflow)
    throw ModelError("a path drew more node failures than the sweep made room for (internal limit)");
  if (progress) progress(items);
  return out;
}

}  // namespace tco
