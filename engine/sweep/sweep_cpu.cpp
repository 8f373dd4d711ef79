// The CPU backend of the sweep (engine/sweep/sweep_backend.hpp). OpenMP spreads (path, block of
// points) items over threads; each result goes to its own slot, so the numbers do not depend on
// the thread count, the blocks or the schedule. One item runs month by month: the month's
// per-hour draws (spot words, preemption words, ambient normals) depend only on the seed, the
// path and the hour, so they are laid out once for every point and plan of the block; a plan
// whose inputs equal an earlier plan's in the block (SweepChunk::same_as: a grid over one plan's
// field leaves the others alike) is not run again but copied. Each plan's hours go through
// step_hour eight hours at a time in independent lanes, which the compiler turns into vector
// code. The month's cost is the lanes' sums added in a fixed order: the same bits on every
// machine (this file is compiled without FMA contraction; see cmake/cuda.cmake), within 1e-12
// of sweep_plan_path's hour-by-hour sum. A plan that buys tokens from an API bills each lane's hour
// from the fleet's step (api_month). A plan with venues runs sweep_plan_path itself, the CUDA
// backend's loop (each venue's instances carry from hour to hour). With a token workload, each
// point's tokens demanded on the path come from the month's growth tile (sweep_month_tokens, the
// device's lanes) and each plan's tokens served from its backlog at the end (sweep_tokens_served).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>

#include <fmt/format.h>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "core/random/ambient_draws.hpp"
#include "core/error.hpp"
#include "engine/sweep/sweep_backend.hpp"

// Vector clones for AVX-512 and AVX2 machines, chosen at run time (GCC on x86-64).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TCO_SWEEP_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define TCO_SWEEP_INLINE inline __attribute__((always_inline))
#define TCO_SWEEP_FLAT __attribute__((flatten, noinline))
#define TCO_SWEEP_INLINE_LAMBDA __attribute__((always_inline))
#else
#define TCO_SWEEP_INLINE_LAMBDA
#define TCO_SWEEP_FLAT
#define TCO_SWEEP_CLONES
#define TCO_SWEEP_INLINE inline
#endif

namespace tco {

namespace {

constexpr int kLanes = 8;
constexpr int kTile = kSweepMonthHours;

// Per-thread buffers for one item (no allocation inside the loop): the month's tiles, and
// per plan of the chunk its state on the current path.
struct PathTiles {
  std::vector<double> failure;  // failure times, plan j's from failure_offset[j]
  std::vector<int> failure_offset;
  std::vector<double> point_scratch;  // one point's failure times, for a plan run by sweep_plan_path
  std::vector<double> backlog;
  std::vector<int> first_failure;
  std::vector<int> failures;
  std::vector<int> arrival;  // the drawn next generation's month on the path (sweep_arrival_month)
  std::vector<int> refresh;  // the month a plan's refresh swaps its fleet on the path (sweep_refresh_month)
  std::vector<char> spot_random;
  std::vector<double> npv;
  std::vector<double> total;
  std::vector<double> tokens;   // per plan: tokens served on this path (a token workload)
  std::vector<double> api_unserved_tokens;  // per plan that buys tokens: those its API left unserved so far
  std::vector<double> lambda;   // per point: demand growth lambda per hour on this path
  std::vector<double> tokens_demanded;  // per point: its tokens x growth on this path
  std::vector<double> on_demand_log;  // per plan: ln M of the price processes so far
  std::vector<double> spot_log;
  double growth_lambda = 0.0;  // the lambda growth_step holds
  long growth_h0 = -1;         // the month growth holds for growth_lambda, and for how many hours
  int growth_hours = 0;
  double growth_step[kTile];
  double growth[kTile];
  std::uint32_t spot_words[kTile + 8];
  std::uint32_t preemption_words[kTile + 8];
  double u[kTile];
  double z[kTile];
  int tail_hours[kTile];
  double ones[kTile];
  double zeros[kTile];
  double nodes[kTile];
  double spot_available[kTile];
  double preemption[kTile];
  double pue[kTile];
  double work_rate[kTile];
  double fresh[kTile];
  double carried[kTile];
  int carried_hours[kTile];
  double hour_usd[kTile];
  double hour_kw[kTile];
  double hour_unserved_tokens[kTile];  // tokens above an API's rate limit
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
  const double* spot_factor;
  const double* spot_available;
  const double* preemption;
  const double* committed_gpus;    // commitments (zeros without them)
  const double* savings_plan_usd;
  double power_mult;
  double spot_mult;
  double generation;         // the drawn next generation's step (1 without one)
  double on_demand_process;  // the month's price process multipliers (1 without one)
  double spot_process;
  double idle_nodes = 0.0;   // the hot spares, powered while the fleet is
};

TCO_SWEEP_INLINE HourInputs hour_inputs(const MonthInputs& a, int j) {
  HourInputs in;
  in.demand_gpus = a.demand[j] * a.growth[j];
  in.nodes_up = a.nodes_up[j];
  in.idle_nodes = a.idle_nodes;
  in.work_rate = a.work_rate[j];
  in.pue = a.pue[j];
  in.usd_per_kwh = a.usd_per_kwh[j] * a.power_mult;
  in.cloud_price_factor = a.cloud_factor[j] * a.generation * a.on_demand_process;
  in.spot_price_factor = a.spot_factor[j] * a.generation * a.spot_process;
  in.spot_available = a.spot_available[j];
  in.spot_preemption_factor = a.preemption[j];
  in.spot_price_multiplier = a.spot_mult;
  in.committed_gpus = a.committed_gpus[j];
  in.savings_plan_usd = a.savings_plan_usd[j];
  return in;
}

// One hour of a bursting plan (no backlog): step_hour, or, in a month with no node up,
// step_cloud_only_hour (the same bits without the on-prem part).
template <bool NoNodes, typename Divide>
TCO_SWEEP_INLINE HourOutcome bursting_hour(const SweepPlanParams& p, const HourInputs& in, Divide divide) {
  if constexpr (NoNodes)
    return step_cloud_only_hour(p.fleet, in, divide);
  else
    return step_hour(p.fleet, in, 0.0, divide);
}

// The month's hours of one bursting plan (its hours are independent) in eight independent
// lanes, summed in a fixed order (the lane of hour j is j mod 8). (A local copy that says it
// bursts: the branch folds away and every load is from the stack, so the compiler can run the
// lanes as one vector.)
template <bool NoNodes, typename Divide>
TCO_SWEEP_INLINE void bursting_month(const SweepPlanParams& plan, const MonthInputs& a, int n, double& usd,
                                     double& peak_kw, Divide divide) {
  SweepPlanParams p = plan;
  p.fleet.bursts = 1;
  double acc[kLanes] = {};
  double top[kLanes] = {};
  int j0 = 0;
  for (; j0 + kLanes <= n; j0 += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      const HourOutcome o = bursting_hour<NoNodes>(p, hour_inputs(a, j0 + l), divide);
      acc[l] += sweep_outcome_usd(p, o);
      top[l] = top[l] > o.facility_kw ? top[l] : o.facility_kw;
    }
  }
  for (int l = 0; j0 + l < n; ++l) {
    const HourOutcome o = bursting_hour<NoNodes>(p, hour_inputs(a, j0 + l), divide);
    acc[l] += sweep_outcome_usd(p, o);
    top[l] = top[l] > o.facility_kw ? top[l] : o.facility_kw;
  }
  usd = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  peak_kw = 0.0;
  for (double kw : top) peak_kw = peak_kw > kw ? peak_kw : kw;
}

// The hours' costs and kW summed as bursting_month sums them: lane j mod 8, in hour order.
TCO_SWEEP_INLINE void sum_lanes(const double* __restrict hour_usd, const double* __restrict hour_kw, int n,
                                double& usd, double& peak_kw) {
  double acc[kLanes] = {};
  double top[kLanes] = {};
  int j0 = 0;
  for (; j0 + kLanes <= n; j0 += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      acc[l] += hour_usd[j0 + l];
      top[l] = top[l] > hour_kw[j0 + l] ? top[l] : hour_kw[j0 + l];
    }
  }
  for (int l = 0; j0 + l < n; ++l) {
    acc[l] += hour_usd[j0 + l];
    top[l] = top[l] > hour_kw[j0 + l] ? top[l] : hour_kw[j0 + l];
  }
  usd = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  peak_kw = 0.0;
  for (double kw : top) peak_kw = peak_kw > kw ? peak_kw : kw;
}

// A plan that does not burst carries its backlog from hour to hour, but most hours start with
// none. So: every hour stepped as if it started with none, all at once (vectorised); then a
// light sequential pass that carries the backlog (only the on-prem part of the step); then the
// hours that started with a backlog stepped again (independent of each other); then the sums.
// The same bits as stepping hour after hour.
template <typename Divide>
TCO_SWEEP_INLINE void backlog_month(const SweepPlanParams& plan, const MonthInputs& a, int n, double& backlog,
                                    PathTiles& t, double& usd, double& peak_kw, Divide divide) {
  SweepPlanParams p = plan;
  p.fleet.bursts = 0;
  double* __restrict fresh = t.fresh;
  double* __restrict hour_usd = t.hour_usd;
  double* __restrict hour_kw = t.hour_kw;
  for (int j = 0; j < n; ++j) {
    const HourOutcome o = step_hour(p.fleet, hour_inputs(a, j), 0.0, divide);
    fresh[j] = o.backlog_gpu_hours;
    hour_usd[j] = sweep_outcome_usd(p, o);
    hour_kw[j] = o.facility_kw;
  }
  int* __restrict carried_hours = t.carried_hours;
  int carried = 0;
  double b = backlog;
  for (int j = 0; j < n; ++j) {
    t.carried[j] = b;
    if (b == 0.0) {
      b = fresh[j];
    } else {
      carried_hours[carried++] = j;
      const HourInputs in = hour_inputs(a, j);
      b = onprem_hour(p.fleet, in, in.demand_gpus + b).overflow;
    }
  }
  backlog = b;
  for (int k = 0; k < carried; ++k) {
    const int j = carried_hours[k];
    const HourOutcome o = step_hour(p.fleet, hour_inputs(a, j), t.carried[j], divide);
    hour_usd[j] = sweep_outcome_usd(p, o);
    hour_kw[j] = o.facility_kw;
  }
  sum_lanes(hour_usd, hour_kw, n, usd, peak_kw);
}

// A bursting plan's month, with or without nodes.
template <typename Divide>
TCO_SWEEP_INLINE void bursting_month_of(const SweepPlanParams& p, const MonthInputs& a, int n, bool no_nodes,
                                        double& usd, double& peak_kw, Divide divide) {
  if (no_nodes)
    bursting_month<true>(p, a, n, usd, peak_kw, divide);
  else
    bursting_month<false>(p, a, n, usd, peak_kw, divide);
}

// The month of a plan that buys tokens and bursts (its overflow steps at $0 and goes to the API):
// its hours are independent, so they run in bursting_month's lanes, each the fleet's step and the
// API's bill of the tokens it left (sweep_api_hour_usd, as sweep_plan_path bills it). The tokens
// the rate limit leaves unserved are added in hour order, as sweep_plan_path adds them: a path
// that draws nothing keeps the deterministic run's bits.
template <bool NoNodes, typename Divide>
TCO_SWEEP_INLINE void api_month(const SweepPlanParams& plan, const MonthInputs& a, const double* data, long h0,
                                const double* tokens, int n, PathTiles& t, double& usd, double& peak_kw,
                                double& unserved_tokens, Divide divide) {
  SweepPlanParams p = plan;
  p.fleet.bursts = 1;
  p.venue_count = 0;  // venues take the API's rate-limited tokens hour after hour: sweep_plan_path
  const VenueHourPrices no_venues;
  double* __restrict hour_unserved_tokens = t.hour_unserved_tokens;
  double acc[kLanes] = {};
  double top[kLanes] = {};
  const auto lane_hour = [&](int l, int j) TCO_SWEEP_INLINE_LAMBDA {
    const HourOutcome o = bursting_hour<NoNodes>(p, hour_inputs(a, j), divide);
    double unserved_tokens_in_hour = 0.0;
    acc[l] += sweep_api_hour_usd(p, p.fleet, o, data, h0 + j, tokens[j] * a.growth[j], no_venues, 0, 0, nullptr,
                                 unserved_tokens_in_hour);
    hour_unserved_tokens[j] = unserved_tokens_in_hour;
    top[l] = top[l] > o.facility_kw ? top[l] : o.facility_kw;
  };
  int j0 = 0;
  for (; j0 + kLanes <= n; j0 += kLanes)
    for (int l = 0; l < kLanes; ++l) lane_hour(l, j0 + l);
  for (int l = 0; j0 + l < n; ++l) lane_hour(l, j0 + l);
  for (int j = 0; j < n; ++j) unserved_tokens += hour_unserved_tokens[j];
  usd = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  peak_kw = 0.0;
  for (double kw : top) peak_kw = peak_kw > kw ? peak_kw : kw;
}

// A plan that buys tokens: its month, with the division its constants allow. (Flattened, so that
// the step and the bill are inlined into the lanes, in each clone.)
TCO_SWEEP_CLONES TCO_SWEEP_FLAT void api_plan_month(const SweepPlanParams& p, const MonthInputs& a,
                                                    const double* data, long h0, const double* tokens, int n,
                                                    bool no_nodes, PathTiles& t, double& usd, double& peak_kw,
                                                    double& unserved_tokens) {
  if (p.power_of_two_divisors) {
    if (no_nodes)
      api_month<true>(p, a, data, h0, tokens, n, t, usd, peak_kw, unserved_tokens, PowerOfTwoDivision{});
    else
      api_month<false>(p, a, data, h0, tokens, n, t, usd, peak_kw, unserved_tokens, PowerOfTwoDivision{});
  } else {
    if (no_nodes)
      api_month<true>(p, a, data, h0, tokens, n, t, usd, peak_kw, unserved_tokens, PlainDivision{});
    else
      api_month<false>(p, a, data, h0, tokens, n, t, usd, peak_kw, unserved_tokens, PlainDivision{});
  }
}

// One plan's month, with the division the plan's constants allow (the same bits either way).
TCO_SWEEP_INLINE void plan_month(const SweepPlanParams& p, const MonthInputs& a, int n, bool no_nodes,
                                 double& backlog, PathTiles& t, double& usd, double& peak_kw) {
  if (p.fleet.bursts) {
    if (p.power_of_two_divisors)
      bursting_month_of(p, a, n, no_nodes, usd, peak_kw, PowerOfTwoDivision{});
    else
      bursting_month_of(p, a, n, no_nodes, usd, peak_kw, PlainDivision{});
  } else {
    if (p.power_of_two_divisors)
      backlog_month(p, a, n, backlog, t, usd, peak_kw, PowerOfTwoDivision{});
    else
      backlog_month(p, a, n, backlog, t, usd, peak_kw, PlainDivision{});
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

// Plans whose ambient noise gives the same PUE and work rate (the same site).
bool same_site(const SweepPlanParams& a, const SweepPlanParams& b) {
  return a.ambient_c_offset == b.ambient_c_offset && a.ambient_sigma_c == b.ambient_sigma_c && a.pue == b.pue &&
         a.throttle_fraction == b.throttle_fraction && a.throttles == b.throttles && a.throttle_above_c == b.throttle_above_c;
}

// Plans whose spot draws give the same availability and preemption factors.
bool same_spot(const SweepPlanParams& a, const SweepPlanParams& b) {
  if (a.spot_unavailable_below != b.spot_unavailable_below || a.preemption_levels != b.preemption_levels ||
      a.preemption_base_factor != b.preemption_base_factor || a.preemption_loss_h != b.preemption_loss_h)
    return false;
  return std::equal(a.preemption_cdf, a.preemption_cdf + a.preemption_levels, b.preemption_cdf);
}

// The points of a block, their plans and the draws they share.
struct Block {
  const SweepChunk& chunk;
  int first_point;
  int end_point;
};

// The month's per-hour draws, kept for every point and plan of the block that uses them.
struct MonthDraws {
  std::uint64_t seed = 0;
  int hours = 0;  // how many of the month's hours are drawn (0: none yet)
  const std::uint32_t* spot_words = nullptr;
  const std::uint32_t* preemption_words = nullptr;
  const SweepPlanParams* site = nullptr;  // whose PUE and work rate the tiles hold,
  int site_hours = 0;                     // for how many hours
  const SweepPlanParams* spot = nullptr;  // whose availability and preemption factors they hold
  int spot_hours = 0;
};

// One plan's month on one path: its inputs from the point's series and the month's draws. From
// its refresh month on, the plan steps with the successor's fleet (`stepped`).
TCO_SWEEP_INLINE void plan_month_on_path(const SweepPointHeader& pt, const SweepPlanParams& p, int j, const double* data,
                                         std::uint32_t path, int m, long h0, int n, const double* growth,
                                         MonthDraws& draws, PathTiles& t) {
  const bool refreshed = m >= t.refresh[j];
  std::optional<SweepPlanParams> successor;
  if (refreshed) {
    successor = p;
    successor->fleet = p.refreshed_fleet;
  }
  const SweepPlanParams& stepped = refreshed ? *successor : p;
  const std::uint64_t seed = pt.seed;
  MonthInputs a;
  a.demand = data + (p.demand_offset >= 0 ? p.demand_offset : pt.demand_offset) + h0;
  a.growth = growth;
  a.power_mult = sweep_month_multiplier(seed, path, RandomSource::power_price, m, p.power_price_sigma);
  a.spot_mult = sweep_month_multiplier(seed, path, RandomSource::spot_price, m, p.spot_price_sigma);
  a.on_demand_process = price_process_step(p.on_demand_process, seed, path, kPriceKindOnDemand, m, t.on_demand_log[j]);
  a.spot_process = price_process_step(p.spot_process, seed, path, kPriceKindSpot, m, t.spot_log[j]);
  a.generation = sweep_generation_factor(p, t.arrival[j], m);
  const double nodes = h0 >= p.nodes_from_hour ? (refreshed ? p.refreshed_nodes : p.nodes) : 0.0;
  if (t.failures[j] > 0 && nodes > 0.0) {
    fill_nodes_up(t.failure.data() + t.failure_offset[j], t.failures[j], p.repair_h, nodes, h0, n, t.first_failure[j],
                  t.down, t.nodes);
  } else {
    std::fill(t.nodes, t.nodes + n, nodes);
  }
  a.nodes_up = t.nodes;
  if (nodes > 0.0) a.idle_nodes = p.spare_nodes;
  if (p.pue_offset >= 0) {
    a.usd_per_kwh = data + p.usd_per_kwh_offset + h0;
    if (p.ambient_c_offset >= 0) {
      if (draws.site == nullptr || draws.site_hours < n || !same_site(*draws.site, p)) {
        const SweepPlanParams q = p;  // a stack copy: the loop's loads cannot fault, so it vectorises
        const double* ambient_c = data + p.ambient_c_offset + h0;
        for (int k = 0; k < n; ++k) sweep_apply_ambient(q, ambient_c[k], t.z[k], t.pue[k], t.work_rate[k]);
        draws.site = &p;
        draws.site_hours = n;
      }
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
  a.spot_factor = p.spot_factor_offset >= 0 ? data + p.spot_factor_offset + h0 : t.ones;
  a.committed_gpus = p.committed_gpus_offset >= 0 ? data + p.committed_gpus_offset + h0 : t.zeros;
  a.savings_plan_usd = p.savings_plan_usd_offset >= 0 ? data + p.savings_plan_usd_offset + h0 : t.zeros;
  if (t.spot_random[j]) {
    if (draws.spot == nullptr || draws.spot_hours < n || !same_spot(*draws.spot, p)) {
      const SweepPlanParams q = p;
      for (int k = 0; k < n; ++k) t.spot_available[k] = sweep_spot_available(q, draws.spot_words[k]);
      for (int k = 0; k < n; ++k) t.preemption[k] = sweep_preemption_factor(q, draws.preemption_words[k]);
      draws.spot = &p;
      draws.spot_hours = n;
    }
    a.spot_available = t.spot_available;
    a.preemption = t.preemption;
  } else {
    a.spot_available = t.ones;
    a.preemption = t.ones;
  }
  double usd = 0.0;
  double peak_kw = 0.0;
  if (p.api)
    api_plan_month(stepped, a, data, h0, data + pt.tokens_offset + h0, n, nodes == 0.0, t, usd, peak_kw,
                   t.api_unserved_tokens[j]);
  else
    plan_month(stepped, a, n, nodes == 0.0, t.backlog[j], t, usd, peak_kw);
  const double month_usd = sweep_month_usd(p, data, m, usd, peak_kw);
  t.npv[j] += month_usd * data[pt.discount_offset + m];
  t.total[j] += month_usd;
}

// Draws the month's hours h0 .. h0 + n - 1 for `seed` unless they are drawn already.
TCO_SWEEP_CLONES void draw_month(std::uint64_t seed, std::uint32_t path, long h0, int n, bool spot_words, bool ambient, MonthDraws& d,
                PathTiles& t) {
  if (d.hours >= n && d.seed == seed) return;
  d = MonthDraws{};
  d.seed = seed;
  d.hours = n;
  if (spot_words) {
    d.spot_words = fill_hour_words(seed, path, RandomSource::spot_availability, h0, n, t.spot_words);
    d.preemption_words = fill_hour_words(seed, path, RandomSource::preemption, h0, n, t.preemption_words);
  }
  if (ambient) ambient_z(seed, path, h0, n, t.u, t.z, t.tail_hours);
}

// The demand growth multipliers of the month's hours for lambda (per hour).
TCO_SWEEP_CLONES const double* month_growth(double lambda, long h0, int n, PathTiles& t) {
  if (lambda == 0.0) return t.ones;
  if (lambda != t.growth_lambda) {
    for (int j = 0; j < kTile; ++j) t.growth_step[j] = std::exp(lambda * static_cast<double>(j));
    t.growth_lambda = lambda;
    t.growth_h0 = -1;
  }
  if (t.growth_h0 == h0 && t.growth_hours >= n) return t.growth;
  t.growth_h0 = h0;
  t.growth_hours = n;
  const double growth_m = std::exp(lambda * static_cast<double>(h0));
  for (int j = 0; j < n; ++j) t.growth[j] = growth_m * t.growth_step[j];
  return t.growth;
}

// A plan whose hours depend on the hours before beyond a backlog runs sweep_plan_path, the CUDA
// backend's loop: each venue's instances carry from hour to hour, and a plan that buys tokens
// without bursting carries its fleet's backlog into the API's bill.
bool runs_hour_by_hour(const SweepPlanParams& p) { return p.venue_count > 0 || (p.api && !p.fleet.bursts); }

// Every plan of the block's points on one path, results in t.npv / t.total; returns a SweepStatus.
TCO_SWEEP_CLONES
int evaluate_block(const Block& b, std::uint32_t path, PathTiles& t) {
  const SweepChunk& chunk = b.chunk;
  const double* data = chunk.data.data();
  const int block_first_plan = chunk.points[b.first_point].first_plan;
  bool need_spot_words = false;
  bool need_z = false;
  int months = 0;
  for (int i = b.first_point; i < b.end_point; ++i) {
    const SweepPointHeader& pt = chunk.points[i];
    months = std::max(months, pt.months);
    t.lambda[i] = sweep_growth_lambda_per_h(pt, path);
    // Without growth uncertainty the point's sum; with it, added month by month below.
    t.tokens_demanded[i] = t.lambda[i] == 0.0 ? sweep_tokens_demanded(pt, data, 0.0) : 0.0;
    for (int j = pt.first_plan; j < pt.first_plan + pt.plan_count; ++j) {
      const SweepPlanParams& p = chunk.plans[j];
      t.npv[j] = 0.0;
      t.total[j] = 0.0;
      t.tokens[j] = 0.0;
      if (chunk.same_as[j] >= block_first_plan) continue;  // copied from its twin below
      t.backlog[j] = 0.0;
      t.on_demand_log[j] = 0.0;
      t.spot_log[j] = 0.0;
      t.first_failure[j] = 0;
      t.failures[j] = 0;
      t.arrival[j] = sweep_arrival_month(p, pt.seed, path);
      t.refresh[j] = sweep_refresh_month(p, t.arrival[j]);
      t.api_unserved_tokens[j] = 0.0;
      if (runs_hour_by_hour(p)) {
        const SweepPathResult whole = sweep_plan_path(pt, p, data, path, t.point_scratch.data());
        if (whole.status != kSweepOk) return whole.status;
        t.npv[j] = whole.npv_usd;
        t.total[j] = whole.total_usd;
        t.tokens[j] = whole.tokens_served;
        continue;
      }
      if (p.failure_nodes > 0) {
        t.failures[j] = sweep_failure_starts(p, pt.hours, pt.seed, path, t.failure.data() + t.failure_offset[j]);
        if (t.failures[j] < 0) return kSweepFailureOverflow;
      }
      t.spot_random[j] = p.fleet.bursts && p.fleet.spot_share > 0.0 &&
                         (p.spot_unavailable_below > 0u || p.preemption_levels > 0);
      need_spot_words = need_spot_words || t.spot_random[j];
      need_z = need_z || p.ambient_c_offset >= 0;
    }
  }
  t.growth_lambda = 0.0;
  t.growth_h0 = -1;

  for (int m = 0; m < months; ++m) {
    const long h0 = static_cast<long>(m) * kTile;
    MonthDraws draws;
    for (int i = b.first_point; i < b.end_point; ++i) {
      const SweepPointHeader& pt = chunk.points[i];
      if (m >= pt.months) continue;
      const int n = static_cast<int>(std::min<long>(kTile, pt.hours - h0));
      draw_month(pt.seed, path, h0, n, need_spot_words, need_z, draws, t);
      const double* growth = month_growth(t.lambda[i], h0, n, t);
      if (pt.tokens_offset >= 0 && t.lambda[i] != 0.0)
        t.tokens_demanded[i] += sweep_month_tokens(data + pt.tokens_offset + h0, n, growth);
      for (int j = pt.first_plan; j < pt.first_plan + pt.plan_count; ++j) {
        if (chunk.same_as[j] >= block_first_plan || runs_hour_by_hour(chunk.plans[j])) continue;
        plan_month_on_path(pt, chunk.plans[j], j, data, path, m, h0, n, growth, draws, t);
      }
    }
  }
  for (int i = b.first_point; i < b.end_point; ++i) {
    const SweepPointHeader& pt = chunk.points[i];
    for (int j = pt.first_plan; j < pt.first_plan + pt.plan_count; ++j) {
      const int twin = chunk.same_as[j];
      if (twin >= block_first_plan) {
        t.npv[j] = t.npv[twin];
        t.total[j] = t.total[twin];
        t.tokens[j] = t.tokens[twin];
      } else if (!runs_hour_by_hour(chunk.plans[j])) {
        sweep_add_fixed(chunk.plans[j], b.chunk.data.data(), pt.months, t.arrival[j], t.npv[j], t.total[j]);
        sweep_add_resale_process(chunk.plans[j], pt.seed, path, pt.months, t.npv[j], t.total[j]);
        if (pt.tokens_offset >= 0)
          t.tokens[j] =
              sweep_tokens_served(pt, data, t.lambda[i], t.tokens_demanded[i], t.backlog[j], t.api_unserved_tokens[j]);
      }
    }
  }
  return kSweepOk;
}

std::unique_ptr<PathTiles> make_tiles(const SweepChunk& chunk) {
  auto t = std::make_unique<PathTiles>();
  const std::size_t plans = chunk.plans.size();
  int scratch = 0;
  for (const SweepPlanParams& p : chunk.plans) {
    t->failure_offset.push_back(scratch);
    scratch += p.failure_capacity;
  }
  t->failure.assign(static_cast<std::size_t>(scratch), 0.0);
  t->point_scratch.assign(static_cast<std::size_t>(chunk.max_failure_scratch) + 1, 0.0);
  t->backlog.assign(plans, 0.0);
  t->on_demand_log.assign(plans, 0.0);
  t->spot_log.assign(plans, 0.0);
  t->first_failure.assign(plans, 0);
  t->failures.assign(plans, 0);
  t->arrival.assign(plans, 0);
  t->refresh.assign(plans, 0);
  t->spot_random.assign(plans, 0);
  t->npv.assign(plans, 0.0);
  t->total.assign(plans, 0.0);
  t->tokens.assign(plans, 0.0);
  t->api_unserved_tokens.assign(plans, 0.0);
  t->lambda.assign(chunk.points.size(), 0.0);
  t->tokens_demanded.assign(chunk.points.size(), 0.0);
  std::fill(std::begin(t->ones), std::end(t->ones), 1.0);
  std::fill(std::begin(t->zeros), std::end(t->zeros), 0.0);
  std::fill(std::begin(t->growth), std::end(t->growth), 1.0);
  return t;
}

// Points per block: all of them when there are paths enough to keep every thread busy, else
// fewer, so that there are about four items per thread.
long block_points(long points, long paths, int team) {
  const long blocks_wanted = std::max(1L, (4L * team + paths - 1) / paths);
  return std::max(1L, (points + blocks_wanted - 1) / blocks_wanted);
}

}  // namespace

SweepPathValues run_sweep_cpu(const SweepChunk& chunk, long paths, int threads, ProgressCounter* progress,
                              long first_path) {
  SweepPathValues out;
  out.paths = paths;
  const std::size_t slots = chunk.plans.size() * static_cast<std::size_t>(paths);
  out.npv_usd.assign(slots, 0.0);
  out.total_usd.assign(slots, 0.0);
  if (chunk.has_tokens) out.tokens_served.assign(slots, 0.0);
  const long points = static_cast<long>(chunk.points.size());
  if (points == 0 || paths == 0) return out;
#if defined(_OPENMP)
  const int team = threads > 0 ? threads : omp_get_max_threads();
#else
  const int team = 1;
#endif
  const long per_block = block_points(points, paths, team);
  const long blocks = (points + per_block - 1) / per_block;
  const long items = blocks * paths;
  std::atomic<int> status{kSweepOk};
#if defined(_OPENMP)
#pragma omp parallel num_threads(team)
#endif
  {
    const std::unique_ptr<PathTiles> tiles = make_tiles(chunk);
#if defined(_OPENMP)
#pragma omp for schedule(dynamic, 1)
#endif
    for (long item = 0; item < items; ++item) {
      if (progress_cancelled(progress)) continue;
      const long path = item % paths;
      const long first_point = item / paths * per_block;
      const Block block{chunk, static_cast<int>(first_point), static_cast<int>(std::min(points, first_point + per_block))};
      const int s = evaluate_block(block, static_cast<std::uint32_t>(first_path + path), *tiles);
      if (s != kSweepOk) status.store(s);
      for (int i = block.first_point; i < block.end_point; ++i) {
        const SweepPointHeader& pt = chunk.points[i];
        const std::size_t slot = out.index(pt, path, 0);
        std::copy_n(tiles->npv.begin() + pt.first_plan, pt.plan_count, out.npv_usd.begin() + slot);
        std::copy_n(tiles->total.begin() + pt.first_plan, pt.plan_count, out.total_usd.begin() + slot);
        if (chunk.has_tokens)
          std::copy_n(tiles->tokens.begin() + pt.first_plan, pt.plan_count, out.tokens_served.begin() + slot);
      }
      progress_add(progress, block.end_point - block.first_point);
    }
  }
  throw_if_cancelled(progress);
  if (status.load() == kSweepFailureOverflow)
    throw ModelError("a path drew more node failures than the sweep made room for (internal limit)");
  return out;
}

}  // namespace tco
